"""The one record the optimizer's stages hand on: the circuit so far, the gate set, the cost,
the caller's options, the clock of the whole call and what goes into the report."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from quartz.circuit import Circuit

if TYPE_CHECKING:  # pragma: no cover
    from quartz.gatesets import GateSet
    from quartz.pipeline.options import Options
    from quartz.search.costs import Cost
    from quartz.search.driver import Rules, SearchResult
    from quartz.check import Check

# Of the timeout, kept for the final equivalence check (the searches stop that much earlier).
CHECK_SHARE = 0.1


@dataclass
class Clock:
    """The call's time budget: `timeout` seconds from `start` (time.monotonic)."""

    timeout: float
    start: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        """Seconds since the call began."""
        return time.monotonic() - self.start

    def left(self) -> float:
        """Seconds of the timeout not yet spent (negative once it has passed)."""
        return self.timeout - self.elapsed()

    def search_seconds(self) -> float:
        """What a search may take now: the time left less the final check's share."""
        return max(0.0, self.left() - CHECK_SHARE * self.timeout)


@dataclass
class State:
    """What the stages of one optimization share. `original` is the input (never changed);
    `current` the best circuit known equal to it that a search may start from; `result` what
    the search stage found (None before it); `report` the entries of the caller's report
    that the stages have filled in."""

    original: Circuit
    gate_set: GateSet
    cost: Cost
    options: Options
    clock: Clock
    current: Circuit
    converted: Circuit | None = None  # `original` converted into the gate set
    preprocessed: Circuit | None = None  # the preprocessor's candidate (None: none in the set)
    rival: Circuit | None = None  # a second start the search races against `current`
    result: Circuit | None = None
    found: SearchResult | None = None  # the search stage's SearchResult (method 'search')
    rules: Rules | None = None  # the transformations the search used (for the recovery)
    search_kw: dict[str, Any] | None = None  # the search's arguments, reused by the recovery
    numeric: bool = False  # `result` has resynthesized, floating-point blocks
    checks: list[Check] = field(default_factory=list)  # every equivalence check run, in order
    returned: str = "optimized"  # 'optimized', 'recovered' or 'input' (after the check)
    report: dict[str, Any] = field(default_factory=dict)

    def value(self, c: Circuit) -> float:
        """`c`'s cost as the search ranks circuits."""
        return self.cost.search_value(c)
