"""Stage: Toffoli-level rewrites by trial (quartz.search.toffoli_trial) on the preprocessed
start, kept where they lower its cost."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from quartz.circuit import Circuit
from quartz.pipeline.placement import placeable
from quartz.pipeline.preprocess import toffoli_source

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.state import State

# Most of the timeout the Toffoli-level rewrites by trial may take (they stop earlier once a
# pass over the sites takes none).
TOFFOLI_TRIAL_SHARE = 0.2


def toffoli_trial(original: Circuit, converted: Circuit, gs: GateSet, pre: Circuit,
                  key: Callable[[Circuit], float],
                  seconds: float) -> tuple[Circuit | None, dict[str, Any] | None]:
    """(the preprocessed circuit with the Toffoli-level rewrites that lower `key`, or None
    when none did; what the trial did, or None when it did not apply). It applies where the
    preprocessor folds Toffolis (gate sets with h, cx and a diagonal rotation)."""
    from quartz.search.preprocess import style_for_gate_set
    from quartz.search.toffoli_trial import search_toffoli_rewrites

    if not {"h", "cx"} <= set(gs.gates) or style_for_gate_set(gs) is None:
        return None, None
    best, rep = search_toffoli_rewrites(toffoli_source(original, converted, gs), gs,
                                        timeout=seconds, key=key, start=pre)
    if rep.merged + rep.carries == 0 or {g.name for g in best} - set(gs.gates):
        return None, rep.as_dict()
    return best, rep.as_dict()


def toffoli(state: State) -> None:
    """state.current with the trial's rewrites, where the search starts from the preprocessed
    circuit; report['toffoli'] says what the trial did."""
    state.report["toffoli"] = None
    pre = state.preprocessed
    if pre is None or pre is not state.current:
        return
    assert state.converted is not None
    merged, state.report["toffoli"] = toffoli_trial(
        state.original, state.converted, state.gate_set, pre, state.value,
        TOFFOLI_TRIAL_SHARE * state.clock.timeout)
    if (merged is not None and state.value(merged) < state.value(state.current)
            and placeable(state, merged)):
        state.current = merged
