"""The search's polish settings for a gate set: the same for every method."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.state import State


def exact_1q_for(gs: GateSet) -> bool:
    """Whether the search's polish merges rx/rz runs exactly (search's `exact_1q`) in `gs`:
    in sets with rx but no ry (Rigetti's: 6673 -> 4388 gates over 16 circuits at 10 s). With
    ry (IonQ's) the search's own rules merge rotations on all three axes, and the pass ended
    worse on 9 of 16 (benchmarks/history, "Exact merging of rx/rz runs")."""
    return "rx" in gs.gates and "ry" not in gs.gates


def polish_for(state: State) -> str | None:
    """The preprocessor style the search polishes with (None without `preprocess`)."""
    if not state.options.preprocess:
        return None
    from quartz.search.preprocess import style_for_gate_set

    return style_for_gate_set(state.gate_set)
