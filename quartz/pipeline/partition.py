"""Partitioned optimization of large circuits, `quartz.optimize(..., workers=N)`: the same
pipeline over parts.

The circuit (in gate order) is cut into segments of about `segment_gates` gates (default: an
even share per worker). Each segment,
on the qubits it uses only, is optimized on its own by the optimizer's pipeline
(quartz.pipeline.run: one search thread, converging early) in N worker processes, or as Ray tasks with an `address`
(quartz.distributed). A segment's result replaces it only when the segment's own final check
concluded that it equals the segment (global phase included) and it costs less, so the whole
circuit stays equal to the input by construction: every change is a checked replacement of a
contiguous piece. The pieces are melded back in one pass, and the next round cuts half a
segment further on, so every old boundary is inside a segment of the next round (the
local-optimality scheme of POPQC, Liu et al., simplified). Rounds go on until two rounds in
a row improve nothing or the time is spent.

Workers receive each segment as QASM text and return QASM text, so the driver holds the one
circuit and each worker only its segment: memory stays bounded for 10^6-gate circuits.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.pipeline.state import CHECK_SHARE

if TYPE_CHECKING:  # pragma: no cover
    from quartz.pipeline.options import Options
    from quartz.pipeline.state import State

MIN_SEGMENT_GATES = 600  # the default segment: the circuit split evenly over the workers,
# but never smaller than this
MIN_SEGMENT_SECONDS = 0.5  # no segment gets a smaller search budget


@dataclass
class PartitionReport:
    """What optimize_partitioned did."""

    rounds: int = 0
    segments: int = 0  # segments optimized, all rounds
    improved: int = 0  # segments replaced by their checked, cheaper result
    unchecked: int = 0  # cheaper results whose check did not conclude (not used)
    evidence_only: int = 0  # replacements whose check was random-state evidence, not a proof
    seconds: float = 0.0
    workers: int = 1
    engine: str = "processes"  # "processes", "ray" or "in-process"
    history: list[tuple[float, int]] = field(default_factory=list)  # (seconds, gates)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__, history=list(self.history))


def default_segment_gates(gates: int, workers: int) -> int:
    """An even share of `gates` per worker, at least MIN_SEGMENT_GATES.

    >>> default_segment_gates(3435, 2), default_segment_gates(1000, 2), default_segment_gates(10**6, 16)
    (1718, 600, 62500)
    """
    return max(MIN_SEGMENT_GATES, math.ceil(gates / max(1, workers)))


def _compact(seg: Circuit) -> tuple[Circuit, list[int]]:
    """`seg` on its used qubits only (renumbered in order), and those qubits."""
    used = sorted({q for g in seg for q in g.qubits})
    index = {q: i for i, q in enumerate(used)}
    out = Circuit(max(1, len(used)))
    for g in seg:
        out.append(g.name, [index[q] for q in g.qubits], list(g.params))
    return out, used


def _expand(c: Circuit, used: list[int], n: int) -> Circuit:
    out = Circuit(n)
    for g in c:
        out.append(g.name, [used[q] for q in g.qubits], list(g.params))
    out.global_phase = c.global_phase
    return out


def _segment_task(args: tuple[Any, ...]) -> tuple[int, str | None, bool | None, bool]:
    """Optimize one segment (QASM text in) through the optimizer's pipeline: (index, QASM
    text of the result or None when it is not better, whether its final check concluded
    'equal', whether that was a proof)."""
    from quartz.pipeline.options import Options
    from quartz.pipeline.run import SEARCH, run_stages
    from quartz.qasm import dumps, loads

    index, text, gate_set, cost, budget, seed, exact, preprocess = args
    seg = loads(text)
    report: dict[str, Any] = {}
    options = Options.checked(cost=cost, timeout=budget, seed=seed, threads=1,
                              check_timeout=max(1.0, budget), exact=exact, preprocess=preprocess)
    state = run_stages(seg, gate_set, options, SEARCH, report)
    out = state.result
    if out is None or state.returned != "optimized" or len(out) >= len(seg):
        return index, None, None, False
    return index, dumps(out), bool(report["check"]["ok"]), bool(report["check"]["proof"])


class _Pool:
    """Runs segment tasks: in this process (1 worker), a process pool, or Ray tasks."""

    def __init__(self, workers: int, address: str | None):
        import contextlib

        from quartz.distributed import cluster_address

        self.workers, self.address = workers, address
        self.stack = contextlib.ExitStack()
        self.engine = "ray" if cluster_address(address) is not None else (
            "processes" if workers > 1 else "in-process")

    def __enter__(self) -> "_Pool":
        if self.engine == "ray":
            from quartz.distributed import session

            self.stack.enter_context(session(self.workers, self.address))
        elif self.engine == "processes":
            from quartz.pools import worker_pool

            # spawned workers that do not run the caller's __main__ (quartz.pools)
            self.pool = self.stack.enter_context(worker_pool(self.workers))
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stack.__exit__(*exc)

    def map(self, items: list[tuple[Any, ...]]
            ) -> list[tuple[int, str | None, bool | None, bool]]:
        if self.engine == "ray":
            from quartz.distributed import map_ordered

            return map_ordered(_segment_task, items, in_flight=self.workers,
                               describe=lambda a: f"segment {a[0]}")
        if self.engine == "processes":
            return list(self.pool.map(_segment_task, items))
        return [_segment_task(a) for a in items]


def optimize_partitioned(circuit: Circuit, gate_set: str, *, workers: int = 2,
                         timeout: float = 60.0, segment_gates: int | None = None,
                         address: str | None = None, seed: int = 0, cost: str = "gates",
                         exact: bool = True, progress: bool = False, preprocess: bool = True
                         ) -> tuple[Circuit, PartitionReport]:
    """`circuit` (already in `gate_set`) optimized segment by segment (see the module
    docstring), never costlier, equal to it by construction; and what was done.
    `segment_gates`: gates per segment (default: the circuit split evenly over `workers`,
    at least MIN_SEGMENT_GATES), so each worker anneals one large piece for most of the
    budget and the shifted rounds work across the cuts. `preprocess`: whether each segment's
    search preprocesses it first (quartz.optimize's preprocess)."""
    from quartz.qasm import dumps

    if not isinstance(circuit, Circuit):
        raise QuartzError(f"optimize_partitioned needs a quartz.Circuit, got "
                          f"{type(circuit).__name__}")
    if workers < 1:
        raise QuartzError(f"workers must be at least 1, got {workers}")
    if segment_gates is None:
        segment_gates = default_segment_gates(len(circuit), workers)
    if segment_gates < 2:
        raise QuartzError(f"segment_gates must be at least 2, got {segment_gates}")
    if cost != "gates":
        raise QuartzError("partitioned optimization minimises gates only (cost='gates')")
    t0 = time.monotonic()
    rep = PartitionReport(workers=workers)
    best = circuit
    n = circuit.num_qubits
    quiet_rounds = 0
    bar = None
    if progress:
        import sys

        from tqdm import tqdm

        bar = tqdm(total=round(timeout), unit="s", file=sys.stderr, desc="partitioned",
                   bar_format="{desc}: {n:.0f}/{total:.0f}s |{bar:20}|{postfix}")
    with _Pool(workers, address) as pool:
        rep.engine = pool.engine
        while quiet_rounds < 2:
            left = timeout - (time.monotonic() - t0)
            size = len(best)
            if size < 2:
                break
            offset = (segment_gates // 2) * (rep.rounds % 2)
            cuts = sorted({0, size, *range(offset, size, segment_gates)})
            spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if b - a >= 2]
            # Each round may take half of the time left (so shifted rounds follow), each
            # segment at least MIN_SEGMENT_SECONDS while a whole round still fits.
            waves = max(1, math.ceil(len(spans) / workers))
            budget = max(MIN_SEGMENT_SECONDS, left / (2 * waves))
            if waves * budget > left:
                break
            items, used_of = [], {}
            native = best.native
            for k, (a, b) in enumerate(spans):
                seg, used = _compact(Circuit._wrap(native.slice(a, b), None))
                used_of[k] = used
                items.append((k, dumps(seg), gate_set, cost, budget, seed + rep.rounds, exact,
                              preprocess))
            results = pool.map(items)
            rep.rounds += 1
            rep.segments += len(spans)
            better = {}
            for k, text, ok, proof in results:
                if text is None:
                    continue
                if not ok:
                    rep.unchecked += 1
                    continue
                better[k] = text
                rep.evidence_only += not proof
            if not better:
                quiet_rounds += 1
            else:
                quiet_rounds = 0
                best = _meld(best, spans, better, used_of, n)
                rep.improved += len(better)
            rep.history.append((time.monotonic() - t0, len(best)))
            if bar is not None:
                bar.n = min(round(time.monotonic() - t0), bar.total)
                bar.set_postfix_str(f"round {rep.rounds}, {len(best)} gates")
    if bar is not None:
        bar.close()
    rep.seconds = time.monotonic() - t0
    best.name = circuit.name
    return best, rep


def _meld(c: Circuit, spans: list[tuple[int, int]], better: dict[int, str],
          used_of: dict[int, list[int]], n: int) -> Circuit:
    """`c` with the segments in `better` replaced (one pass over the circuit)."""
    from quartz.qasm import loads

    native = c.native
    out = Circuit(n)
    out.global_phase = c.global_phase
    pos = 0
    for k, (a, b) in enumerate(spans):
        if k not in better:
            continue
        if a > pos:
            out.native.append(native.slice(pos, a))
        out.native.append(_expand(loads(better[k]), used_of[k], n).native)
        pos = b
    if pos < len(c):
        out.native.append(native.slice(pos, len(c)))
    return out


def check_partitioned(o: Options) -> None:
    """A clear error for what partitioned optimization cannot do, before any work."""
    if o.work is not None:
        raise QuartzError("work (a budget in work units) does not apply to partitioned "
                          "optimization (workers, address)")
    if o.ecc_set is not None:
        raise QuartzError("workers (partitioned optimization) uses the shipped ECC set of "
                          "the gate set; ecc_set is not supported with it yet")
    if o.method != "search":
        raise QuartzError("workers (partitioned optimization) needs method='search'")
    if o.coupling is not None:
        raise QuartzError("workers (partitioned optimization) does not keep to a coupling map "
                          "yet")
    if o.cost != "gates":
        raise QuartzError("workers (partitioned optimization) minimises gates only "
                          "(cost='gates')")


def preprocess_whole(state: State) -> None:
    """Stage: the whole circuit preprocessed (rotations merge across what will be segment
    boundaries), used only when a check of the whole concludes that it is equal (that check
    is appended to state.checks)."""
    from quartz.pipeline.preprocess import preprocessed
    from quartz.check import check_equivalent

    if not state.options.preprocess:
        return
    assert state.converted is not None
    pre = preprocessed(state.original, state.converted, state.gate_set)
    if pre is not None and len(pre) < len(state.current):
        chk = check_equivalent(state.original, pre,
                               timeout=max(1.0, CHECK_SHARE * state.clock.timeout))
        state.checks.append(chk)
        if chk.ok:
            state.current = pre


def partitioned_search(state: State) -> None:
    """Stage: optimize_partitioned on the start; every replacement was checked against its
    segment, so the whole is equal by construction (report['check'] method 'segments')."""
    o = state.options
    result, info = optimize_partitioned(
        state.current, state.gate_set.name, workers=o.workers or 1,
        timeout=max(0.0, state.clock.left()), address=o.address, seed=o.seed, exact=o.exact,
        progress=o.progress, preprocess=o.preprocess)
    if o.history is not None:
        o.history.extend((float(t), float(g)) for t, g in info.history)
    detail = (f"{info.improved} segment replacement(s), each checked equal to its segment "
              "(global phase included)")
    for pre_check in state.checks:
        detail += f"; whole-circuit preprocessing: {pre_check.summary()}"
    if info.evidence_only:
        detail += f"; {info.evidence_only} of them on random-state evidence"
    check = dict(ok=True, method="segments", proof=o.exact and not info.evidence_only,
                 seconds=0.0, detail=detail)
    state.result = result
    state.report.update(check=check, checks=[check], dropped=[], returned="optimized",
                        search=None, partition=info.as_dict())


__all__ = ["optimize_partitioned", "default_segment_gates", "PartitionReport",
           "MIN_SEGMENT_GATES", "check_partitioned", "preprocess_whole", "partitioned_search"]
