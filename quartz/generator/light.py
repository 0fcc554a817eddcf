"""Light circuits for the generator's passes: (num_qubits, gates) tuples, cheap to relabel.

A light gate is (type_rank, qubits, params): type_rank is the gate's position in the gate set,
qubits a tuple of ints, params a tuple of parameters, each a sorted tuple of (symbol,
coefficient) terms; a constant k/d*pi is the term (-1, Fraction(k, d)) (the generator makes
p_a, p_a + p_b and, for some gate sets, constants). Tuples compare in the generator's
documented total order (see `order_key`).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from quartz._core import Param
from quartz.circuit import Circuit

LightGate = tuple  # (type_rank, qubits, params)
LightCircuit = tuple  # tuple of LightGate


def canonical(gates: Sequence[LightGate]) -> LightCircuit:
    """The gates in quartz's canonical order: always the ready gate with the smallest minimum qubit."""
    n = len(gates)
    if n <= 1:
        return tuple(gates)
    last: dict[int, int] = {}
    preds: list[set[int]] = []
    for i, g in enumerate(gates):
        p = set()
        for q in g[1]:
            if q in last:
                p.add(last[q])
            last[q] = i
        preds.append(p)
    done: set[int] = set()
    out = []
    remaining = list(range(n))
    while remaining:
        best = None
        for i in remaining:
            if preds[i] <= done:
                if best is None or min(gates[i][1]) < min(gates[best][1]):
                    best = i
        out.append(gates[best])
        done.add(best)
        remaining.remove(best)
    return tuple(out)


def order_key(c: LightCircuit) -> tuple:
    """The documented total order: fewer gates first, then gate by gate (canonical order) by
    gate-set rank of the type, qubit indices, and parameters (p0 < p1 < ... < p0+p0 < p0+p1 ...)."""
    return (len(c), tuple((g[0], g[1], tuple(_param_key(p) for p in g[2])) for g in c))


def _param_key(p: tuple) -> tuple:
    # A bare symbol sorts before every sum, sums by their (a, b) symbols, constants last.
    if p and p[0][0] == -1:
        return (3, p[0][1], p[1:])
    if len(p) == 1 and p[0][1] == 1:
        return (0, p[0][0], -1)
    syms = [s for s, k in p for _ in range(abs(k))]
    return (1, *syms) if len(syms) == 2 else (2, *p)


def qubits_used(c: LightCircuit) -> set[int]:
    """Qubits touched by any gate."""
    return {q for g in c for q in g[1]}


def symbols_used(c: LightCircuit) -> set[int]:
    """Symbols appearing in any parameter."""
    return {s for g in c for p in g[2] for s, _ in p if s >= 0}


def relabel(c: LightCircuit, qmap: Sequence[int] | dict, smap: Sequence[int] | dict | None = None) -> LightCircuit:
    """Rename qubits (and symbols) and return the result in canonical order."""
    gates = []
    for t, qs, ps in c:
        nqs = tuple(qmap[q] for q in qs)
        if smap is not None:
            ps = tuple(tuple(sorted((smap[s] if s >= 0 else s, k) for s, k in p)) for p in ps)
        gates.append((t, nqs, ps))
    return canonical(gates)


def first_gates(c: LightCircuit) -> set[LightGate]:
    """Gates with no predecessor on any of their qubits."""
    seen: set[int] = set()
    out = set()
    for g in c:
        if not seen.intersection(g[1]):
            out.add(g)
        seen.update(g[1])
    return out


def last_gates(c: LightCircuit) -> set[LightGate]:
    """Gates with no successor on any of their qubits."""
    return first_gates(tuple(reversed(c)))


def to_param(p: tuple) -> Param:
    """A light parameter as a quartz Param."""
    out = Param()
    for s, k in p:
        out = out + (Param.symbol(s, k) if s >= 0 else Param.pi(k.numerator, k.denominator))
    return out


def to_circuit(c: LightCircuit, num_qubits: int, gate_names: Sequence[str]) -> Circuit:
    """A light circuit as a quartz Circuit."""
    circ = Circuit(num_qubits)
    nat = circ.native
    for t, qs, ps in c:
        nat.add_gate(gate_names[t], list(qs), [to_param(p) for p in ps])
    return circ


def from_circuit(c: Circuit, gate_names: Sequence[str]) -> LightCircuit:
    """A symbolic quartz Circuit over the gate set as a light circuit (canonical order)."""
    rank = {g: i for i, g in enumerate(gate_names)}
    gates = []
    for g in c:
        ps = []
        for p in g.params:
            frac = p.pi_fraction
            if frac is None:
                raise ValueError(f"generator circuits have exact angles, got {p}")
            terms = list(p.terms)
            if frac[0] != 0:
                terms.append((-1, Fraction(frac[0], frac[1])))
            ps.append(tuple(sorted(terms)))
        gates.append((rank[g.name], tuple(g.qubits), tuple(ps)))
    return canonical(gates)
