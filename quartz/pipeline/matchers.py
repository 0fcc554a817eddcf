"""Compiled rule sets for the search, one per ECC set and cached for the process."""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.options import EccSetLike
    from quartz.search.matcher import Matcher

_matchers: dict[str | tuple[str, bool], Matcher] = {}
_matchers_lock = threading.Lock()


def get_matcher(ecc_set: EccSetLike, gs: GateSet, trust: bool = False) -> Matcher:
    """A compiled Matcher for `ecc_set` (None = the shipped set of the gate set; cached). A set
    named by file is verified when it is loaded unless `trust` (quartz.ecc_sets.load)."""
    from quartz.ecc_sets.model import ECCSet
    from quartz.search.matcher import Matcher

    if isinstance(ecc_set, Matcher):
        return ecc_set
    if isinstance(ecc_set, (ECCSet, list, tuple)):
        return Matcher(ecc_set)
    name = str(ecc_set) if ecc_set is not None else gs.name
    key = (name, True) if trust else name  # verified sets keep their plain-name keys
    with _matchers_lock:
        m = _matchers.get(key)
        if m is None:
            from quartz import ecc_sets

            m = _matchers[key] = Matcher(ecc_sets.load(name, trust=trust))
    return m
