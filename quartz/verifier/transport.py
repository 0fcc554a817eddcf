"""Compact, fast-to-pickle form of circuits for sending classes to worker processes."""
from __future__ import annotations

from quartz._core import Param
from quartz.circuit import Circuit

Packed = tuple  # (num_qubits, global phase state, ((name, qubits, (param state, ...)), ...))


def _state(p: Param) -> tuple:
    exact, num, den, rad, terms = p.__getstate__()
    return (exact, num, den, rad, tuple(terms))


def pack(c: Circuit) -> Packed:
    """The circuit as nested tuples of plain values."""
    return (c.num_qubits, _state(c.global_phase),
            tuple((name, tuple(qs), tuple(_state(p) for p in ps)) for name, qs, ps in c.native.gates()))


def unpack(data: Packed, cache: dict | None = None) -> Circuit:
    """Inverse of pack (cache: shared state -> Param memo)."""
    cache = {} if cache is None else cache

    def param(st):
        p = cache.get(st)
        if p is None:
            p = Param.__new__(Param)
            p.__setstate__((st[0], st[1], st[2], st[3], list(st[4])))
            cache[st] = p
        return p

    nq, gp, gates = data
    c = Circuit(nq)
    nat = c.native
    for name, qs, ps in gates:
        nat.add_gate(name, list(qs), [param(s) for s in ps])
    if gp[1] or not gp[0] or gp[4]:
        c.global_phase = param(gp)
    return c
