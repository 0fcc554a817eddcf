"""Stage: the search with the RL policy (method 'rl'), from the start or the winner of the
two starts raced as method 'search' races them."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from quartz.pipeline.matchers import get_matcher
from quartz.pipeline.polish import exact_1q_for, polish_for
from quartz.pipeline.race import RACE_SHARE, race_starts
from quartz.pipeline.search_stage import keep_the_better
from quartz.pipeline.state import CHECK_SHARE

if TYPE_CHECKING:  # pragma: no cover
    from quartz.pipeline.state import State


def rl_stage(state: State) -> None:
    """state.result: what the policy's method found (never costlier than the start)."""
    import quartz.rl as rl

    o, gs = state.options, state.gate_set
    ecc = gs.name if o.ecc_set is None else o.ecc_set  # the gate set's shipped set, as search
    if isinstance(ecc, (str, os.PathLike)):
        from quartz import ecc_sets

        ecc = ecc_sets.load(ecc, trust=o.trust_ecc)
    if o.model is None:
        rl.default_model_path(gs)  # a clear error before any work when gs has no model
    state.rules = ecc
    polish = polish_for(state)
    left = state.clock.left()
    begin = state.current
    state.report.update(search=None, start=None)
    if state.rival is not None and state.rival != state.current:
        # The two starts raced as method 'search' races them; the policy's method goes on
        # from the winner's result, so 'rl' never starts behind 'search'.
        rival = state.rival
        state.current, begin, spent = race_starts(
            [state.current, rival], get_matcher(o.ecc_set, gs, o.trust_ecc), state.cost,
            RACE_SHARE * max(0.0, left - CHECK_SHARE * o.timeout), seed=o.seed,
            threads=o.threads, polish=polish, exact_1q=exact_1q_for(gs))
        left -= spent
        state.report["start"] = "nam_route" if state.current is rival else "own"
    result = rl.optimize_rl(begin, ecc, state.cost, max(0.0, left - CHECK_SHARE * o.timeout),
                            o.seed, model=o.model, threads=o.threads, polish=polish,
                            check=False, exact_1q=exact_1q_for(gs))
    keep_the_better(state, result)
