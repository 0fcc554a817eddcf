"""Stage: the input converted into the gate set (exact, phase kept)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from quartz.circuit import Circuit

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.state import State


def to_gate_set(c: Circuit, gs: GateSet) -> Circuit:
    """`c` over the gates of `gs` (exact, phase kept); CCZ/CCX into Nam with greedy polarity."""
    outside = {g.name for g in c} - set(gs.gates)
    if not outside:
        return c
    if outside <= {"ccz", "ccx"} and set(gs.gates) >= {"h", "x", "rz", "cx"}:
        from quartz.search.preprocess import decompose_ccz_greedy

        d = decompose_ccz_greedy(c)
        if not ({g.name for g in d} - set(gs.gates)):
            return d
    from quartz.gatesets import convert as convert_gates

    return convert_gates(c, gs)


def convert(state: State) -> None:
    """state.converted and state.current: the input in the gate set."""
    state.converted = state.current = to_gate_set(state.original, state.gate_set)
