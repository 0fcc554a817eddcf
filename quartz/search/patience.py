"""When a search has converged: the patience rule that ends it before its time budget.

A search stops once no better circuit has been found for
``seconds + per_gate x (gates of the best) + growth x (time of the last improvement)``
seconds, or when its space is exhausted; the timeout stays the upper bound. The default
rule (``AUTO``) was fitted on the Nam suite's best-cost histories at 60 s
(benchmarks/history/BENCHMARKS-2026-12-07.md, "Stop when done"): improvements that come
late on a circuit tend to follow late ones, hence the growth term, and bigger circuits need
more moves per improvement. An anneal that
converges is then confirmed (``confirm``): it runs again from its best with the next seed, each
round with its own patience clock, and ends once ``confirm`` rounds have found nothing better
(AUTO: 2; on 13 Nam circuits that converge before 60 s, fewer gates on 3 and equal on 10, in
1.96x the time: benchmarks/history/BENCHMARKS-2026-12-07.md,
"Confirmed convergence").

>>> AUTO.window(gates=40, last_improvement=1.5)
7.0
>>> as_patience(3).window(gates=1000, last_improvement=10.0)
3.0
>>> as_patience(None) is None
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

from quartz.errors import QuartzError


@dataclass(frozen=True)
class Patience:
    """A convergence rule: seconds without a better circuit before the search stops."""

    seconds: float = 0.0
    per_gate: float = 0.1
    growth: float = 2.0
    confirm: int = 0  # rounds from the best that must find nothing better (anneal only)

    def __post_init__(self) -> None:
        for name in ("seconds", "per_gate", "growth"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
                raise QuartzError(f"patience {name} must be a finite number >= 0, got {v!r}")
        if not isinstance(self.confirm, int) or isinstance(self.confirm, bool) or self.confirm < 0:
            raise QuartzError(f"patience confirm must be a whole number of rounds >= 0, got {self.confirm!r}")

    def window(self, gates: int, last_improvement: float) -> float:
        """Seconds without improvement after which a search of `gates` gates stops."""
        return self.seconds + self.per_gate * gates + self.growth * last_improvement


AUTO = Patience(confirm=2)
PatienceLike = Union[Patience, float, str, None]


def as_patience(patience: PatienceLike) -> Patience | None:
    """The rule for `patience`: 'auto' (AUTO), a number of seconds, a Patience, or None (off)."""
    if patience is None or isinstance(patience, Patience):
        return patience
    if isinstance(patience, str):
        if patience == "auto":
            return AUTO
        raise QuartzError(f"patience must be 'auto', a number of seconds or None, got {patience!r}")
    if isinstance(patience, (int, float)) and not isinstance(patience, bool):
        return Patience(seconds=float(patience), per_gate=0.0, growth=0.0)
    raise QuartzError(f"patience must be 'auto', a number of seconds or None, got {patience!r}")
