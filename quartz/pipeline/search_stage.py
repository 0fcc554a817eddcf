"""Stage: the search (method 'search') from the start, or the two starts raced; with
exact=False, block resynthesis between searches."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quartz.circuit import Circuit
from quartz.pipeline.matchers import get_matcher
from quartz.pipeline.polish import exact_1q_for, polish_for
from quartz.pipeline.race import race

if TYPE_CHECKING:  # pragma: no cover
    from quartz.pipeline.state import State
    from quartz.search.driver import SearchResult


def search_stage(state: State) -> None:
    """state.result: the search's circuit (never costlier than the start); report['search']
    (seconds, converged, interrupted, moves, restarts; work and cut with a work budget;
    resynth with exact=False) and report['start'] where two starts were raced."""
    from quartz.search.driver import search

    o = state.options
    matcher = get_matcher(o.ecc_set, state.gate_set, o.trust_ecc)
    state.rules = matcher
    kw: dict[str, Any] = dict(cost=state.cost, seed=o.seed, progress=o.progress,
                              threads=o.threads, polish=polish_for(state),
                              algorithm=o.algorithm, patience=o.patience,
                              exact_1q=exact_1q_for(state.gate_set), work=o.work,
                              coupling=o.coupling)
    state.search_kw = kw
    units = o.work
    cut: list[bool] = []  # with `work`: whether each search ended at its deadline

    def run(begin: Circuit, seconds: float, share: float = 1.0) -> SearchResult:
        if o.exact:
            found = search(begin, matcher, timeout=seconds,
                           **dict(kw, work=None if units is None else round(share * units)))
            cut.append(units is not None and found.seconds >= seconds)
            return found
        from quartz.search.resynth_2q import search_and_resynthesize

        found_r: SearchResult = search_and_resynthesize(begin, matcher, state.gate_set,
                                                        timeout=seconds, **kw)
        return found_r

    seconds = state.clock.search_seconds()
    state.report["start"] = None
    if state.rival is not None and state.rival != state.current:
        rival = state.rival
        state.current, found = race(run, [state.current, rival], seconds, state.cost)
        state.report["start"] = "nam_route" if state.current is rival else "own"
    else:
        found = run(state.current, seconds)
    state.found = found
    info: dict[str, Any] = dict(seconds=found.seconds, converged=found.converged,
                                interrupted=found.interrupted, moves=found.expansions,
                                restarts=found.restarts)
    if units is not None:
        info.update(work=units, cut=any(cut))
    if not o.exact:
        info["resynth"] = found.resynth
    state.report["search"] = info
    if o.history is not None:
        o.history.extend(found.history)
    keep_the_better(state, found.circuit)
    state.numeric = (not o.exact and state.result is found.circuit
                     and bool((found.resynth or {}).get("numeric")))


def keep_the_better(state: State, result: Circuit) -> None:
    """state.result: `result`, or the start where `result` costs more."""
    state.result = state.current if state.value(result) > state.value(state.current) else result
