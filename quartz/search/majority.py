"""Two Toffolis on one target around a cx between controls, written as one Toffoli.

    ccx(a, b, t) cx(a, b) ccx(c, b, t) = cx(c, a) cx(c, b) ccx(a, b, t) cx(c, b) cx(c, a) cx(c, t) cx(a, b)

Both sides add ab + c(a + b) = ab + ac + bc, the majority of a, b and c, to t and leave a + b
on b (over GF(2): (a + c)(b + c) + c = ab + ac + bc). This is the carry of the VBE and
ripple-carry adders; its mirror image (both sides reversed, the inverse) is the carry's
uncompute. One Toffoli and six cx instead of two Toffolis and one cx: whether it pays
depends on what the preprocessor makes of the rest (a compute rewritten without its
uncompute loses the relative-phase pairing of both), so quartz.search.toffoli_trial tries
it, alone and together with its mirror image, and keeps what lowers the preprocessed cost.

>>> from quartz import Circuit
>>> c = Circuit(4).ccx(0, 1, 3).cx(0, 1).ccx(2, 1, 3)
>>> [s.inverse for s in majority_sites(c)]
[False]
>>> r = rewrite_majorities(c, majority_sites(c))
>>> [g.name for g in r].count("ccx"), bool(abs(r.unitary() - c.unitary()).max() < 1e-9)
(1, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from quartz.circuit import Circuit, Gate
from quartz.search.preprocess.relative_phase import Toffoli, find_toffolis, rebuild
from quartz.search.shared_controls import MAX_SPAN, hoistable

@dataclass(frozen=True)
class MajoritySite:
    """ccx(a, b, t) cx(a, b) ccx(c, b, t) (`inverse` False) or its mirror image ccx(c, b, t)
    cx(a, b) ccx(a, b, t) (True) in a circuit; `hoist`: the gates between them in circuit
    order that lead to the pattern (they go before the rewritten carry)."""

    first: Toffoli
    link: int
    second: Toffoli
    a: int
    b: int
    c: int
    t: int
    inverse: bool
    hoist: tuple[int, ...] = ()

    @property
    def gates(self) -> tuple[int, ...]:
        """The circuit gate indices of the pattern."""
        return self.first.gates + (self.link,) + self.second.gates

    @property
    def position(self) -> int:
        """Where the rewritten carry goes: the first Toffoli's core."""
        return self.first.core

    def replacement(self) -> list[tuple[str, tuple[int, ...], tuple[Any, ...]]]:
        """The one-Toffoli form, in circuit order."""
        a, b, c, t = self.a, self.b, self.c, self.t
        seq = [("cx", (c, a)), ("cx", (c, b)), ("ccx", (a, b, t)), ("cx", (c, b)),
               ("cx", (c, a)), ("cx", (c, t)), ("cx", (a, b))]
        return [(n, q, ()) for n, q in (seq[::-1] if self.inverse else seq)]


def split_shared_hadamards(circuit: Circuit) -> Circuit:
    """`circuit` with h h written between two ccz gates that follow each other on a wire
    inside h ... h there (h ccz ccz h -> h ccz h h ccz h): the same unitary, and each ccz
    then reads as a Toffoli on that wire (find_toffolis)."""
    gates = list(circuit)
    after: dict[int, list[tuple[str, tuple[int, ...], tuple[Any, ...]]]] = {}
    for i, g in enumerate(gates):
        if g.name != "h":
            continue
        w = g.qubits[0]
        run, j = [], circuit.successor(i, 0)
        while j is not None and gates[j].name == "ccz":
            run.append(j)
            j = circuit.successor(j, gates[j].qubits.index(w))
        if len(run) >= 2 and j is not None and gates[j].name == "h":
            for k in run[:-1]:
                after.setdefault(k, []).extend([("h", (w,), ()), ("h", (w,), ())])
    if not after:
        return circuit
    emit = {k: [(gates[k].name, gates[k].qubits, gates[k].params), *extra]
            for k, extra in after.items()}
    return rebuild(circuit, gates, emit, set())


def majority_sites(circuit: Circuit) -> list[MajoritySite]:
    """The carries and carry uncomputes of `circuit` that rewrite_majorities applies to, in
    circuit order: the cx is the next gate after the first Toffoli on both its wires, the
    second Toffoli the next after the cx on its target and after the first on t, and no
    chain of other gates in between leads from the pattern back into it."""
    gates = list(circuit)
    tofs = find_toffolis(circuit, gates)
    sites = []
    for core in sorted(tofs):
        for x1 in tofs[core]:
            for b in sorted(x1.controls):
                site = _site_at(circuit, gates, tofs, x1, b)
                if site is not None:
                    sites.append(site)
    return sites


def _site_at(circuit: Circuit, gates: list[Gate], tofs: dict[int, list[Toffoli]], x1: Toffoli,
             b: int) -> MajoritySite | None:
    """The site whose first Toffoli is x1 and whose cx targets b, or None."""
    qubits = gates[x1.core].qubits
    link = circuit.successor(x1.core, qubits.index(b))
    if link is None or gates[link].name != "cx" or gates[link].qubits[1] != b:
        return None
    a = gates[link].qubits[0]
    nxt = circuit.successor(link, 1)
    t = x1.target
    x2 = next((x for x in tofs.get(nxt, []) if x.target == t), None) if nxt is not None else None
    if x2 is None or b not in x2.controls or x2.core - x1.core > MAX_SPAN:
        return None
    if circuit.successor(x1.last, gates[x1.last].qubits.index(t)) != x2.first:
        return None
    if a in x1.controls:  # ccx(a, b, t) cx(a, b) ccx(c, b, t)
        (c,) = x2.controls - {b}
        inverse = False
        if circuit.successor(x1.core, qubits.index(a)) != link:
            return None
    else:  # ccx(c, b, t) cx(a, b) ccx(a, b, t)
        (c,) = x1.controls - {b}
        inverse = True
        if x2.controls != frozenset((a, b)) \
                or circuit.successor(link, 0) != x2.core:
            return None
    if len({a, b, c, t}) != 4:
        return None
    hoist = hoistable(circuit, gates, set(x1.gates + (link,) + x2.gates), x1.core, x2.core)
    if hoist is None:
        return None
    return MajoritySite(x1, link, x2, a, b, c, t, inverse, hoist)


def rewrite_majorities(circuit: Circuit, sites: Sequence[MajoritySite]) -> Circuit:
    """`circuit` with each site written in its one-Toffoli form (exact, global phase kept);
    the sites must come from majority_sites(circuit) and must not share a gate."""
    gates = list(circuit)
    emit: dict[int, list[tuple[str, tuple[int, ...], tuple[Any, ...]]]] = {}
    skip: set[int] = set()
    for s in sites:
        if skip.intersection(s.gates + s.hoist):
            raise ValueError("rewrite_majorities: two sites share a gate")
        hoisted = [(gates[i].name, gates[i].qubits, gates[i].params) for i in s.hoist]
        emit[s.position] = [*hoisted, *s.replacement()]
        skip.update(s.gates + s.hoist)
    return rebuild(circuit, gates, emit, skip)


__all__ = ["MajoritySite", "majority_sites", "rewrite_majorities", "split_shared_hadamards"]
