"""Stage: the final check of the result against the input, and on a failure (a false rule in
a trusted ECC set) the search again without the false transformations."""
from __future__ import annotations

import logging
import warnings
from typing import TYPE_CHECKING, Any, Callable

from quartz.circuit import Circuit
from quartz.pipeline.state import CHECK_SHARE

if TYPE_CHECKING:  # pragma: no cover
    from quartz.ecc_sets.model import Transformation
    from quartz.pipeline.state import State
    from quartz.search.driver import Rules
    from quartz.check import Check

log = logging.getLogger("quartz")

# The final check's default budget: what is left of the timeout, but at least this (seconds).
CHECK_MIN_SECONDS = 20.0
# After a failed check, the search without the false transformations gets what is left of the
# timeout (less the check's share), but at least this share of the timeout.
RECOVERY_SHARE = 0.25


def final_check(state: State) -> None:
    """state.result checked (and recovered, or the input returned); report['check'],
    'checks', 'dropped', 'returned'."""
    assert state.result is not None
    clock, o = state.clock, state.options

    def budget() -> float:
        """Seconds for one final check."""
        if o.check_timeout is not None:
            return o.check_timeout
        return max(CHECK_MIN_SECONDS, clock.left())

    def recovery_budget() -> float:
        """Seconds for the search without the false transformations."""
        return max(clock.left() - CHECK_SHARE * clock.timeout, RECOVERY_SHARE * clock.timeout)

    state.result, checks, dropped, state.returned = check_and_recover(
        state.original, state.result, state.current, state.rules, budget, recovery_budget,
        state.search_kw)
    if state.numeric:  # resynthesized blocks: the first check saw floating-point angles
        from quartz.check import as_numeric

        checks[0] = as_numeric(checks[0])
    state.checks += checks
    state.report.update(check=checks[-1].as_dict(), checks=[k.as_dict() for k in checks],
                        dropped=dropped, returned=state.returned)


def check_and_recover(original: Circuit, result: Circuit, start: Circuit, rules: Rules | None,
                      budget: Callable[[], float], recovery_budget: Callable[[], float],
                      search_kw: dict[str, Any] | None
                      ) -> tuple[Circuit, list[Check], list[str], str]:
    """The final check of `result`, and on a failure the search again without the false
    transformations (when `search_kw` gives the search's arguments): (circuit, checks, dropped
    rule texts, 'optimized' | 'recovered' | 'input')."""
    from quartz.check import check_equivalent

    chk = check_equivalent(original, result, timeout=budget())
    checks = [chk]
    if chk.ok is None:
        log.warning("result not checked for equivalence: %s (%.1f s)", chk.detail, chk.seconds)
    if chk.ok is not False:
        return result, checks, [], "optimized"
    xfers, bad, culprit = false_rules(rules)
    msg = (f"{'' if culprit else 'BUG: '}optimized circuit is not equivalent to the input "
           f"({chk.method}: {chk.detail}){culprit}")
    dropped: list[str] = []
    returned = "input"
    if bad and search_kw is not None:
        dropped = [rule_text(xfers[i]) for i in bad]
        again = search_without(start, xfers, bad, timeout=recovery_budget(), **search_kw)
        chk = check_equivalent(original, again, timeout=budget())
        checks.append(chk)
        if chk.ok:
            result, returned = again, "recovered"
            msg += (f"; dropped them and searched again: returning a circuit of {len(again)} "
                    f"gates checked equivalent by {chk.method}")
        else:
            msg += f"; searching again without them gave no checked result ({chk.summary()})"
    if returned == "input":
        msg += "; returning the input unchanged"
    log.error(msg)
    warnings.warn(msg, RuntimeWarning, stacklevel=6)  # the caller of quartz.optimize
    return result, checks, dropped, returned


def false_rules(rules: Rules | None) -> tuple[list[Transformation], list[int], str]:
    """(the transformations, the indices of the false ones, '; the ECC set has N false
    transformation(s): ...' naming them); no indices and '' when none is found (then the
    failed check is a bug of quartz)."""
    from quartz.ecc_sets.model import ECCSet
    from quartz.search.matcher import Matcher
    from quartz.verifier.rules import false_transformations

    if rules is None:
        return [], [], ""
    if isinstance(rules, Matcher):
        xfers = list(rules.transformations)
    elif isinstance(rules, ECCSet):
        xfers = rules.transformations()
    else:
        xfers = list(rules)
    bad, checked = false_transformations(xfers)
    if not bad:
        return xfers, [], ""
    shown = ", ".join(rule_text(xfers[i]) for i in bad[:3]) + (", ..." if len(bad) > 3 else "")
    part = "" if checked == len(xfers) else f" among the first {checked} of {len(xfers)}"
    return xfers, bad, f"; the ECC set has {len(bad)} false transformation(s){part}: {shown}"


def rule_text(t: Transformation) -> str:
    """'[source] -> [target]' of a transformation, as reports and warnings name it."""
    from quartz.ecc_sets.load_check import circuit_text

    return f"[{circuit_text(t.source)}] -> [{circuit_text(t.target)}]"


def search_without(start: Circuit, xfers: list[Transformation], bad: list[int], *,
                   timeout: float, **kw: Any) -> Circuit:
    """The search's result for `start` with the transformations `xfers` less those at `bad`
    (never costlier than `start`)."""
    from quartz.search.driver import search
    from quartz.search.matcher import Matcher

    drop = set(bad)
    found = search(start, Matcher([t for i, t in enumerate(xfers) if i not in drop]),
                   timeout=max(0.0, timeout), **kw)
    cost = kw["cost"]
    value = cost.search_value
    return found.circuit if value(found.circuit) <= value(start) else start
