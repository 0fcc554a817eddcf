"""The optimizer's pipelines: lists of stages sharing one State, and the loop that runs one.

>>> from quartz import Circuit
>>> from quartz.pipeline.options import Options
>>> state = run_stages(Circuit(1).h(0).h(0).x(0), "nam", Options.checked(timeout=2, seed=0),
...                    SEARCH)
>>> [g.name for g in state.result], state.returned, state.report["check"]["method"]
(['x'], 'optimized', 'unitary')
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import GateSet, get_gate_set
from quartz.pipeline.convert import convert
from quartz.pipeline.final_check import final_check
from quartz.pipeline.placement import placement
from quartz.pipeline.preprocess import preprocess
from quartz.pipeline.rl_stage import rl_stage
from quartz.pipeline.search_stage import search_stage
from quartz.pipeline.state import Clock, State
from quartz.pipeline.toffoli import toffoli

if TYPE_CHECKING:  # pragma: no cover
    from quartz.pipeline.options import Options

Stage = Callable[[State], None]

# Convert into the gate set, check that it keeps to the coupling map (where one is given),
# preprocess, rewrite Toffolis by trial, search (or the policy's
# method), check the result against the input (recovering from a false rule).
SEARCH: tuple[Stage, ...] = (convert, placement, preprocess, toffoli, search_stage, final_check)
RL: tuple[Stage, ...] = (convert, preprocess, toffoli, rl_stage, final_check)


def run_stages(original: Circuit, gate_set: str | GateSet, options: Options,
               stages: tuple[Stage, ...], report: dict[str, Any] | None = None,
               clock: Clock | None = None) -> State:
    """Run `stages` in order on one State for `original`: the final State (result, returned,
    report); `report` receives the report's entries; `clock` is the call's (default: now,
    with options.timeout)."""
    from quartz.search.costs import get_cost

    clock = clock or Clock(options.timeout)
    gs = get_gate_set(gate_set)
    cost = get_cost(options.cost)
    if options.work is not None and not cost.spec.additive:
        raise QuartzError("work (a budget in work units) needs an additive cost (the anneal); "
                          "this cost is searched best-first")
    state = State(original, gs, cost, options, clock, current=original,
                  report=dict(seed=options.seed))
    for stage in stages:
        stage(state)
    assert state.result is not None
    state.result.name = original.name
    if report is not None:
        report.update(state.report)
    return state
