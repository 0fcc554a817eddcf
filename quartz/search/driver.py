"""The search driver: runs the native optimizer (greedy pass, best-first search, windowed
segments on two threads) with a wall-clock budget and a progress line on stderr."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from quartz import _core
from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError
from quartz.search.costs import Cost, CostLike, get_cost
from quartz.search.matcher import Matcher

POLISH_STYLES = ("rz", "p", "u1", "t", "t_noz")  # order of preprocess::DiagStyle


@dataclass
class SearchResult:
    """Outcome of one search: the best circuit and how the best cost evolved."""

    circuit: Circuit
    initial_cost: float
    final_cost: float
    seconds: float
    interrupted: bool = False
    expansions: int = 0
    history: list[tuple[float, float]] = field(default_factory=list)  # (seconds, best cost)


class _Progress:
    """A tqdm line 'best <cost> | <expansions> expanded' over the time budget."""

    def __init__(self, timeout: float, label: str):
        from tqdm import tqdm

        self.bar = tqdm(total=round(timeout, 1), unit="s", file=sys.stderr, desc=label,
                        bar_format="{desc}: {n:.0f}/{total:.0f}s |{bar:20}|{postfix}", leave=True)

    def __call__(self, seconds: float, best: float, expansions: int) -> None:
        self.bar.n = min(round(seconds, 1), self.bar.total)
        self.bar.set_postfix_str(f"best {best:g}, {expansions} expanded", refresh=True)

    def close(self) -> None:
        self.bar.close()


def as_matcher(rules: Matcher | ECCSet | list) -> Matcher:
    """A Matcher from a Matcher, an ECCSet or a list of Transformations."""
    return rules if isinstance(rules, Matcher) else Matcher(rules)


def search(circuit: Circuit, rules: Matcher | ECCSet | list, *, cost: CostLike = "gates",
           timeout: float = 60.0, seed: int | None = None, progress: bool = True,
           threads: int = 2, gamma: float = 1.05, greedy_only: bool = False,
           full_limit: int = 150, window: int = 80, window_expansions: int = 40,
           polish: str | None = None, polish_candidates: bool = False) -> SearchResult:
    """Minimise `cost` of `circuit` with the transformations `rules` for `timeout` seconds.

    Returns the best circuit found (equal to the input including global phase); Ctrl-C stops
    the search early and returns the best so far (`interrupted` is then True). `polish`: a
    rotation style ('rz', 'p', 'u1', 't', 't_noz') to also run rotation merging + inverse
    cancellation on improved circuits (and on every candidate with `polish_candidates`).
    """
    if not isinstance(circuit, Circuit):
        raise QuartzError(f"search needs a quartz.Circuit, got {type(circuit).__name__}")
    if not (isinstance(timeout, (int, float)) and timeout >= 0):
        raise QuartzError(f"timeout must be a non-negative number of seconds, got {timeout!r}")
    if circuit.num_symbols:
        raise QuartzError("cannot optimize a circuit with symbolic angles; bind the symbols first")
    if polish is not None and polish not in POLISH_STYLES:
        raise QuartzError(f"unknown polish style {polish!r}; choose one of {', '.join(POLISH_STYLES)}")
    matcher = as_matcher(rules)
    c: Cost = get_cost(cost)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    bar = _Progress(timeout, "optimize") if progress else None
    t0 = time.monotonic()
    initial = c.search_value(circuit)
    try:
        native, history, interrupted, expansions = _core.optimize(
            matcher.native, circuit.native, c.spec, timeout=float(timeout), seed=int(seed) & (2**63 - 1),
            gamma=gamma, threads=max(1, int(threads)), full_limit=full_limit, window=window,
            window_expansions=window_expansions, greedy_only=greedy_only,
            polish_style=-1 if polish is None else POLISH_STYLES.index(polish),
            polish_candidates=polish_candidates,
            progress=bar, progress_interval=0.5)
        out = Circuit._wrap(native, circuit.name)
        if bar is not None:
            bar(time.monotonic() - t0, c.search_value(out), expansions)
    except ValueError as e:
        raise QuartzError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
    return SearchResult(out, initial, c.search_value(out), time.monotonic() - t0, interrupted,
                        expansions, [tuple(h) for h in history])
