"""The search driver: runs the native optimizer (greedy pass, best-first search, windowed
segments on two threads) with a wall-clock budget and a progress line on stderr."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence, Union

from quartz import _core
from quartz.circuit import Circuit
from quartz.cpus import resolve_threads
from quartz.ecc_sets.model import ECCSet, Transformation
from quartz.errors import QuartzError
from quartz.search.costs import Cost, CostLike, get_cost
from quartz.search.coupling import check_coupling
from quartz.search.matcher import Matcher
from quartz.search.patience import Patience, PatienceLike, as_patience

ALGORITHMS = ("best_first", "anneal")  # order of SearchOptions::algorithm
POLISH_STYLES = ("rz", "p", "u1", "t", "t_noz")  # order of preprocess::DiagStyle
# How an annealing move picks its transformation at a random gate: uniformly among those that
# match there (found through a trie of the sources), or the first that matches after a random
# offset in the list of its first gate type (the earlier rule; faster to describe, biased).
PROPOSALS = ("uniform", "first")
DEFAULT_PROPOSAL = "uniform"  # what search() uses when it is given none
# Anneal restarts (SearchOptions::epoch_*): once the best of the current epoch has not improved
# for EPOCH.window(gates, time the epoch took to it), every chain starts again from the input.
EPOCH = Patience(seconds=1.0, per_gate=0.05, growth=1.0)
# On by default: at 120 s on eight Nam circuits, fewer gates on 5 and more on none
# (benchmarks/history/BENCHMARKS-2026-12-07.md, "Restarts").
DEFAULT_RESTARTS = True  # what search() uses when it is given none
# The polish's block resynthesis: blocks of up to this many qubits (2-4).
DEFAULT_BLOCK_QUBITS = 3
# Restarts of a search that finished early: gamma grows by this factor up to MAX_GAMMA, and
# no restart begins with less than RESTART_MIN_SECONDS left.
RESTART_GROWTH = 1.1
MAX_GAMMA = 1.5
RESTART_MIN_SECONDS = 0.5
# What a search takes as its transformations.
Rules = Union[Matcher, ECCSet, Iterable[Transformation]]


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
    converged: bool = False  # ended by the patience rule (or an exhausted space), not the timeout
    restarts: int = 0  # times the anneal started again from the input (`restarts`)
    # exact=False (quartz.search.resynth_2q.search_and_resynthesize): what resynthesis did
    resynth: dict[str, Any] | None = None


class _Progress:
    """A tqdm line 'best <cost>, <moves>/s' over the time budget."""

    def __init__(self, timeout: float, label: str):
        from tqdm import tqdm

        self.bar = tqdm(total=round(timeout, 1), unit="s", file=sys.stderr, desc=label,
                        bar_format="{desc}: {n:.0f}/{total:.0f}s |{bar:20}|{postfix}", leave=True)

    def __call__(self, seconds: float, best: float, moves: int) -> None:
        self.bar.n = min(round(seconds, 1), self.bar.total)
        rate = moves / seconds if seconds > 0 else 0.0
        self.bar.set_postfix_str(f"best {best:g}, {rate:,.0f} moves/s", refresh=True)

    def close(self) -> None:
        self.bar.close()


def as_matcher(rules: Rules) -> Matcher:
    """A Matcher from a Matcher, an ECCSet or a list of Transformations."""
    return rules if isinstance(rules, Matcher) else Matcher(rules)


def search(circuit: Circuit, rules: Rules, *, cost: CostLike = "gates",
           timeout: float = 60.0, seed: int | None = None, progress: bool = True,
           threads: int | None = None, gamma: float = 1.05, greedy_only: bool = False,
           full_limit: int = 150, window: int = 80, window_expansions: int = 40,
           polish: str | None = None, polish_candidates: bool = False,
           algorithm: str = "anneal", temperature: float = 0.3,
           restart_after: float = 2.0, patience: PatienceLike = "auto",
           resynth_1q: bool = False, proposal: str | None = None,
           restarts: bool | None = None, work: int | None = None,
           block_qubits: int | None = None, exact_1q: bool = False,
           coupling: Sequence[tuple[int, int]] | None = None) -> SearchResult:
    """Minimise `cost` of `circuit` with the transformations `rules` for `timeout` seconds.

    Returns the best circuit found (equal to the input including global phase); Ctrl-C stops
    the search early and returns the best so far (`interrupted` is then True). `polish`: a
    rotation style ('rz', 'p', 'u1', 't', 't_noz') to also run rotation merging + inverse
    cancellation on improved circuits (and on every candidate with `polish_candidates`).
    `algorithm`: 'anneal' (default; simulated annealing over the working DAG at around
    `temperature`, a chain returning to its best after `restart_after` seconds without a new
    one) or 'best_first' (Quartz's search; `gamma`, `full_limit`, `window*` apply to it). A
    non-additive cost (depth, a callable) always uses best-first. Every move is exact unless `resynth_1q`.
    `threads`: search threads (default: the CPUs this process may use). `patience`: stop
    before `timeout` once the search has converged: 'auto' (default; quartz.search.patience
    .AUTO, a window that grows with the circuit's size, and an anneal's convergence confirmed
    by rounds from its best: Patience.confirm), a number of seconds without a better
    circuit, a Patience rule, or None to use the whole budget (benchmarks). `resynth_1q`:
    polishing also writes every run of one-qubit h/x/rz gates in its shortest form, an
    inexact move (float angles; quartz.search.resynth_2q uses it for exact=False); it needs
    `polish`. `proposal`: how an annealing move picks its transformation (PROPOSALS;
    None: DEFAULT_PROPOSAL). `restarts`: the anneal starts again from `circuit` whenever its
    best stalls for EPOCH's window, keeping the best of all epochs (None: DEFAULT_RESTARTS).
    `work`: the anneal also stops once each chain has done this many work units (a proposal
    1, each transformation tried there 1 more; about 4 million a second per thread here).
    The anneal's chains keep time in these units and exchange in lockstep, so a seed gives
    the same search on any machine up to where the deadline cuts it; with `work`, no
    deadline in the way and patience=None, the same circuit (for the same `threads`).
    `block_qubits`: the polish also rewrites {cx, x, rotation} blocks of up to this many
    qubits (2-4) with the fewest cx (quartz.search.preprocess.resynthesize_blocks; None:
    DEFAULT_BLOCK_QUBITS). `exact_1q`: the polish also merges runs of rx and rz gates whose
    angles are exact multiples of pi/4 into their shortest form with rx at multiples of pi/2
    (exact and hardware-native; what Rigetti's small ECC set cannot do one rule at a time;
    quartz.optimize turns it on for gate sets with rx and without ry).
    `coupling`: the (ordered) qubit pairs a two-qubit gate may stand on, either order for a
    gate symmetric in its qubits (cz, rzz, ...); no move, polish or resynthesis then places a
    two-qubit gate elsewhere (nor a gate on three qubits). The circuit must keep to it already.
    """
    if not isinstance(circuit, Circuit):
        raise QuartzError(f"search needs a quartz.Circuit, got {type(circuit).__name__}")
    if not (isinstance(timeout, (int, float)) and timeout >= 0):
        raise QuartzError(f"timeout must be a non-negative number of seconds, got {timeout!r}")
    if circuit.num_symbols:
        raise QuartzError("cannot optimize a circuit with symbolic angles; bind the symbols first")
    if polish is not None and polish not in POLISH_STYLES:
        raise QuartzError(f"unknown polish style {polish!r}; choose one of {', '.join(POLISH_STYLES)}")
    proposal = DEFAULT_PROPOSAL if proposal is None else proposal
    restarts = DEFAULT_RESTARTS if restarts is None else restarts
    if not isinstance(restarts, bool):
        raise QuartzError(f"restarts must be True, False or None, got {restarts!r}")
    if work is not None and not (isinstance(work, int) and not isinstance(work, bool) and work >= 0):
        raise QuartzError(f"work must be a non-negative number of work units, got {work!r}")
    block_qubits = DEFAULT_BLOCK_QUBITS if block_qubits is None else block_qubits
    if isinstance(block_qubits, bool) or not isinstance(block_qubits, int) or block_qubits not in (2, 3, 4):
        raise QuartzError(f"block_qubits must be 2, 3 or 4, got {block_qubits!r}")
    if proposal not in PROPOSALS:
        raise QuartzError(f"unknown proposal {proposal!r}; choose one of {', '.join(PROPOSALS)}")
    if algorithm not in ALGORITHMS:
        raise QuartzError(f"unknown search algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    allowed = [] if coupling is None else check_coupling(circuit, coupling)
    threads = resolve_threads(threads)
    rule = as_patience(patience)
    matcher = as_matcher(rules)
    c: Cost = get_cost(cost)
    if algorithm == "anneal" and not c.spec.additive:
        algorithm = "best_first"  # annealing prices moves by gate weights only
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    bar = _Progress(timeout, "optimize") if progress else None
    t0 = time.monotonic()
    initial = c.search_value(circuit)
    out, interrupted, expansions, converged, restarts_done = circuit, False, 0, False, 0
    history: list[tuple[float, float]] = []
    g, attempt, last_improvement = gamma, 0, 0.0
    # Confirmation of a convergence (Patience.confirm): rounds from the best so far with their
    # own patience clocks, and how many of them found nothing better.
    confirming, failed = False, 0
    try:
        # A search that empties its queue before the budget is spent restarts from its best
        # circuit with a wider acceptance band (gamma x RESTART_GROWTH, up to MAX_GAMMA), so a
        # small circuit keeps exploring instead of returning early.
        while True:
            offset = time.monotonic() - t0
            left = float(timeout) - offset
            cb = None if bar is None else (lambda s, b, e, o=offset, n=expansions: bar(s + o, b, e + n))
            native, hist, interrupted, exp, converged, last_improvement, n_restarts = _core.optimize(
                matcher.native, out.native, c.spec, timeout=max(0.0, left),
                seed=(int(seed) + attempt) & (2**63 - 1),
                gamma=g, threads=threads, full_limit=full_limit, window=window,
                window_expansions=window_expansions, greedy_only=greedy_only,
                polish_style=-1 if polish is None else POLISH_STYLES.index(polish),
                polish_candidates=polish_candidates,
                allowed=allowed, allowed_n=0 if coupling is None else circuit.num_qubits,
                progress=cb, progress_interval=0.5, algorithm=ALGORITHMS.index(algorithm),
                temperature=float(temperature), restart_after=float(restart_after),
                patience=-1.0 if rule is None else rule.seconds,
                patience_per_gate=0.0 if rule is None else rule.per_gate,
                patience_growth=0.0 if rule is None else rule.growth,
                time_offset=0.0 if confirming else offset,
                last_improvement=0.0 if confirming else last_improvement,
                resynth_1q=bool(resynth_1q), proposal=PROPOSALS.index(proposal),
                epoch_seconds=EPOCH.seconds if restarts else -1.0,
                epoch_per_gate=EPOCH.per_gate, epoch_growth=EPOCH.growth,
                work_limit=-1 if work is None else int(work), block_qubits=block_qubits,
                exact_1q=bool(exact_1q))
            found = Circuit._wrap(native, circuit.name)
            improved = c.search_value(found) < c.search_value(out) - 1e-12
            if improved or not history:
                out = found
            history.extend((t + offset, v) for t, v in hist
                           if not history or v < history[-1][1] - 1e-12)
            expansions += exp
            restarts_done += n_restarts
            attempt += 1
            left = float(timeout) - (time.monotonic() - t0)
            if confirming and not improved:
                failed += 1
            if (converged and rule is not None and algorithm == "anneal" and failed < rule.confirm
                    and not (interrupted or work is not None or left < RESTART_MIN_SECONDS)):
                confirming = True
                continue
            if interrupted or converged or greedy_only or work is not None or left < RESTART_MIN_SECONDS:
                break
            if not improved:
                if g >= MAX_GAMMA:
                    converged = rule is not None  # the widest band is exhausted too
                    break
                g = min(MAX_GAMMA, g * RESTART_GROWTH)
        if bar is not None:
            bar(time.monotonic() - t0, c.search_value(out), expansions)
    except KeyboardInterrupt:  # landed in Python between native calls: keep the best so far
        interrupted = True
    except ValueError as e:
        raise QuartzError(str(e)) from None
    finally:
        if bar is not None:
            try:
                bar.close()
            except KeyboardInterrupt:
                interrupted = True
    return SearchResult(out, initial, c.search_value(out), time.monotonic() - t0, interrupted,
                        expansions, list(history), bool(converged) and not interrupted,
                        restarts=restarts_done)
