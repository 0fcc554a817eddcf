"""Recognize decomposed CCZ gates (6 cx + 7 rotations by pi/4) and fold them back into `ccz`.

The Nam suite ships its Toffolis already decomposed; folding them back lets the later passes
choose each gate's polarity and use relative-phase Toffolis, as for circuits written with
ccz. Matching is structural on the circuit's DAG (quartz.search.Matcher, convex matches
only), so only exact occurrences of the pattern are folded and the unitary, global phase
included, is unchanged.

>>> from quartz import Circuit
>>> c = ccz_pattern(1)
>>> [g.name for g in recognize_ccz(c)]
['ccz']
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from quartz.angles import pi_fraction
from quartz.circuit import Circuit
from quartz.search.preprocess.styles import check_circuit

# Rotation gate -> how its angle relates to rz: the pattern is written once per such gate.
_ROTATIONS = ("rz", "p", "u1")


def ccz_pattern(sign: int = 1, rotation: str = "rz") -> Circuit:
    """The 13-gate CCZ core on qubits (0, 1, 2): 6 cx and 7 rotations by sign*(+-pi/4)."""
    q, m = pi_fraction(sign, 4), pi_fraction(-sign, 4)
    c = Circuit(3)
    rot = getattr(c, rotation)
    c.cx(1, 2); rot(m, 2); c.cx(0, 2); rot(q, 2); c.cx(1, 2); rot(m, 2); c.cx(0, 2)
    c.cx(0, 1); rot(q, 2); rot(m, 1); c.cx(0, 1); rot(q, 0); rot(q, 1)
    return c


def _t_pattern(sign: int) -> Circuit:
    """ccz_pattern with t/tdg gates (Clifford+T circuits)."""
    c = Circuit(3)
    for g in ccz_pattern(sign):
        if g.name == "rz":  # t is a rotation by +pi/4, tdg by -pi/4 (up to phase)
            c.append("t" if float(g.params[0]) > 0 else "tdg", g.qubits)
        else:
            c.append(g.name, g.qubits)
    return c


@lru_cache(maxsize=1)
def _matcher():
    """Matcher of pattern -> ccz for both polarities and every rotation gate, with phases."""
    from quartz.ecc_sets import Phase, Transformation
    from quartz.search.matcher import Matcher

    ccz = Circuit(3).ccz(0, 1, 2)
    xfers = []
    for sign in (1, -1):
        # 7 rotations with angles summing to sign*pi/4: rz form = e^{-i sign pi/8} CCZ; the
        # phase-gate forms (p, u1, t/tdg) are CCZ exactly.
        xfers.append(Transformation(ccz_pattern(sign), ccz, Phase.make(Fraction(sign, 8)), 0))
        for rot in _ROTATIONS[1:]:
            xfers.append(Transformation(ccz_pattern(sign, rot), ccz, Phase.make(0), 0))
        xfers.append(Transformation(_t_pattern(sign), ccz, Phase.make(0), 0))
    return Matcher(xfers)


def _phases() -> list[Fraction]:
    """Global phase (units of pi) each transformation of `_matcher()` adds."""
    return [t.phase.const for t in _matcher().transformations]


def recognize_ccz(circuit: Circuit) -> Circuit:
    """`circuit` with every convex occurrence of the decomposed CCZ pattern replaced by ccz.

    Matches are found in rounds over the whole circuit; each round folds a set of disjoint
    matches at once and restores a topological gate order, so the cost grows with the
    circuit's size, not with size x number of Toffolis.
    """
    check_circuit(circuit, "recognize_ccz")
    names = set(circuit.count_ops())
    if "cx" not in names or not names & {"rz", "p", "u1", "t", "tdg"}:
        return circuit
    m, phases = _matcher(), _phases()
    out = circuit
    while True:
        taken: set[int] = set()
        groups: list[tuple[list[int], int]] = []
        for g, x in m.applicable(out):
            if g in taken:
                continue
            gates = m.match(out, g, x)
            if gates is None or taken.intersection(gates):
                continue
            taken.update(gates)
            groups.append((gates, x))
        if not groups:
            return out
        nxt = _fold(out, groups, phases)
        if nxt is None:  # a group was not convex: fall back to one rewrite at a time
            g, x = groups[0][0][0], groups[0][1]
            nxt = m.apply(out, g, x)
            if nxt is None:
                return out
        out = nxt


def _fold(c: Circuit, groups: list[tuple[list[int], int]], phases: list[Fraction]) -> Circuit | None:
    """`c` with each group of gates contracted to one ccz, in a topological order (None if cyclic)."""
    import heapq

    gates = list(c)
    owner = list(range(len(gates)))          # node of each gate: itself, or its group's node
    node_qubits: dict[int, tuple[int, ...]] = {}
    phase = Fraction(0)
    for gs, x in groups:
        head = min(gs)
        for i in gs:
            owner[i] = head
        node_qubits[head] = tuple(sorted({q for i in gs for q in gates[i].qubits}))
        phase += phases[x]
    succ: dict[int, set[int]] = {}
    indeg: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, g in enumerate(gates):
        u = owner[i]
        indeg.setdefault(u, 0)
        for q in g.qubits:
            p = last.get(q)
            if p is not None and p != u and u not in succ.setdefault(p, set()):
                succ[p].add(u)
                indeg[u] += 1
            last[q] = u
    ready = [u for u, d in indeg.items() if d == 0]
    heapq.heapify(ready)
    out = Circuit(c.num_qubits, c.name)
    emitted = 0
    while ready:
        u = heapq.heappop(ready)
        emitted += 1
        if u in node_qubits:
            out.append("ccz", node_qubits[u])
        else:
            g = gates[u]
            out.append(g.name, g.qubits, g.params)
        for v in succ.get(u, ()):
            indeg[v] -= 1
            if indeg[v] == 0:
                heapq.heappush(ready, v)
    if emitted != len(indeg):
        return None
    # U_ccz = e^{i phase} U_pattern, so the folded circuit carries e^{-i phase} more.
    out.global_phase = c.global_phase - pi_fraction(phase.numerator, phase.denominator) \
        if phase else c.global_phase
    return out


__all__ = ["recognize_ccz", "ccz_pattern"]
