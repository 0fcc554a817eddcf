"""Two starts raced: in gate sets where the smaller start does not predict the better end,
the search runs from each for a share of its budget and goes on from the better result."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from quartz.circuit import Circuit

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.search.costs import Cost
    from quartz.search.driver import SearchResult
    from quartz.search.matcher import Matcher

# Where two starts are raced, each first gets this share of the search's budget.
RACE_SHARE = 0.25


def races_starts(gs: GateSet) -> bool:
    """Whether the search races the Nam route's start against the set's own (race) instead
    of taking the smaller: in sets that entangle with neither cx nor cz (IonQ's rxx), where
    the search shrinks the directly converted circuit 2-4x, so the smaller start does not
    predict the better end (benchmarks/history, "IonQ: the two starts raced": 1,109 -> 968
    gates over 8 circuits at 10 s, fewer on 6, more on 1)."""
    return not set(gs.gates) & {"cx", "cz"}


def race_starts(starts: list[Circuit], matcher: Matcher, cost: Cost, seconds: float,
                **search_kw: Any) -> tuple[Circuit, Circuit, float]:
    """The search from each start for `seconds`: (the start whose result costs least, that
    result, the seconds spent), for a method that goes on from the result (method 'rl')."""
    from quartz.search.driver import search

    t0 = time.monotonic()
    found = [search(s, matcher, cost=cost, timeout=seconds, progress=False, **search_kw).circuit
             for s in starts]
    k = min(range(len(starts)), key=lambda i: cost.search_value(found[i]))
    return starts[k], found[k], time.monotonic() - t0


def race(run: Callable[[Circuit, float, float], SearchResult], starts: list[Circuit],
         budget: float, cost: Cost) -> tuple[Circuit, SearchResult]:
    """Search from each start for RACE_SHARE of `budget`, then on from the best result for
    the rest: (the start it came from, its SearchResult, moves and history over all). `run`
    (start, seconds, share) searches; `share` is the part of a work budget it gets."""
    t0 = time.monotonic()
    trials, began = [], []
    for s in starts:
        began.append(time.monotonic() - t0)
        trials.append(run(s, RACE_SHARE * budget, RACE_SHARE))
    k = min(range(len(starts)), key=lambda i: cost.search_value(trials[i].circuit))
    lead = trials[k]
    history = [(t + began[k], v) for t, v in lead.history]
    rest = budget - (time.monotonic() - t0)
    if rest <= 0 or lead.converged or lead.interrupted:
        more = lead
    else:
        offset = time.monotonic() - t0
        more = run(lead.circuit, rest, max(0.0, 1.0 - RACE_SHARE * len(starts)))
        history += [(t + offset, v) for t, v in more.history]
        if cost.search_value(more.circuit) > cost.search_value(lead.circuit):
            more = replace(more, circuit=lead.circuit, final_cost=lead.final_cost)
    return starts[k], replace(more, initial_cost=cost.search_value(starts[k]),
                              seconds=time.monotonic() - t0, history=history,
                              expansions=sum(f.expansions for f in trials) + (
                                  more.expansions if more is not lead else 0))
