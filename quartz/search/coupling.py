"""The qubit pairs a two-qubit gate may stand on (a device's coupling map, in the circuit's
qubit numbers): checked once on the search's input; the native search keeps to it in every
move (SearchOptions::allowed).

>>> from quartz import Circuit
>>> off_coupling(Circuit(3).cx(0, 1).cz(2, 1), [(0, 1), (1, 2)]) is None  # cz is symmetric
True
>>> off_coupling(Circuit(3).cx(1, 0), [(0, 1), (1, 2)])
'cx on qubits (1, 0)'
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from quartz import _core
from quartz.circuit import Circuit
from quartz.errors import QuartzError


def coupling_pairs(coupling: Iterable[Any]) -> tuple[tuple[int, int], ...]:
    """`coupling` as sorted, distinct (a, b) pairs of non-negative qubit numbers (a clear
    error for anything else)."""
    out = set()
    for pair in coupling:
        try:
            a, b = (int(q) for q in pair)
        except (TypeError, ValueError):
            raise QuartzError(f"a coupling is a list of qubit pairs, got {pair!r}") from None
        if a < 0 or b < 0 or a == b:
            raise QuartzError(f"a coupling pair names two different qubits >= 0, got {pair!r}")
        out.add((a, b))
    return tuple(sorted(out))


def off_coupling(c: Circuit, coupling: Iterable[tuple[int, int]]) -> str | None:
    """The first gate of `c` that may not stand where it is ('cx on qubits (1, 0)'), or None:
    a two-qubit gate on a pair outside `coupling` (either order for a symmetric gate), or any
    gate on three or more qubits."""
    allowed = set(coupling)
    for g in c:
        qs = tuple(g.qubits)
        if len(qs) < 2:
            continue
        if len(qs) > 2 or not (qs in allowed or (_core.gate_info(g.name)[2]
                                                  and qs[::-1] in allowed)):
            return f"{g.name} on qubits {qs}"
    return None


def check_coupling(c: Circuit, coupling: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
    """The pairs of `coupling` (coupling_pairs) on `c`'s qubits (a device's map may have
    more) when every gate of `c` keeps to them, else a QuartzError naming the first gate that
    does not."""
    pairs = [p for p in coupling_pairs(coupling) if max(p) < c.num_qubits]
    gate = off_coupling(c, pairs)
    if gate is not None:
        raise QuartzError(f"the circuit has {gate}, which the coupling map does not allow")
    return list(pairs)
