"""Runs a suite: every method of ours and every baseline on every circuit, each output checked.

One circuit is one job; with jobs > 1 the jobs run in a process pool. With a Ray `address`
(or RAY_ADDRESS) the work runs on Ray instead (quartz.distributed): one task per (circuit,
optimizer), `jobs` of them at once, the circuit sent as QASM text, tasks of a killed worker
retried. Each circuit gives a `CircuitResult` with one `Outcome` per optimizer, in the same
order either way. An output that is not proven equivalent (global phase included) is
recorded as such; `failures()` lists them for the caller.
With `stop` (a callable, e.g. "a signal arrived"), the suite ends early (run_suite).
"""
from __future__ import annotations

import sys
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from typing import Callable, Iterable

from quartz.circuit import Circuit
from quartz.cpus import available_cpus
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set
from quartz.pools import abandon, worker_pool

# (circuit, gate set, timeout, seed) -> (output, trace) or (output, trace, info: {"cut": bool})
OptimizerFn = Callable[[Circuit, str, float, int],
                       "tuple[Circuit, list[tuple[float, float]]] | "
                       "tuple[Circuit, list[tuple[float, float]], dict[str, bool]]"]


@dataclass
class Outcome:
    """One optimizer's result on one circuit."""

    optimizer: str
    kind: str                      # "ours" | "baseline"
    status: str = "ok"             # "ok" | "error" | "off_target" | "interrupted"
    gates: int | None = None
    cx: int | None = None          # two-qubit gates (cx in Nam, cz in Rigetti)
    t: int | None = None
    depth: int | None = None
    seconds: float | None = None
    equivalence: str = ""          # "equivalent" | "not_equivalent" | "unknown" | "" (no output)
    qcec: str = ""
    operator: str = ""
    path_sum: str = ""
    check_seconds: float | None = None
    error: str = ""
    cut: bool = False              # a work-budgeted search (--work) was stopped by the timeout
    trace: list[tuple[float, float]] = field(default_factory=list)  # (seconds, best cost)
    qasm: str = ""                 # the output circuit (OpenQASM 2), when there is one

    @property
    def verified(self) -> bool:
        return self.equivalence == "equivalent"


@dataclass
class CircuitResult:
    """A benchmark circuit's statistics and every optimizer's outcome on it."""

    circuit: str
    qubits: int
    gates: int
    cx: int
    t: int
    outcomes: list[Outcome]

    def outcome(self, optimizer: str) -> Outcome | None:
        return next((o for o in self.outcomes if o.optimizer == optimizer), None)


def quartz_method(method: str, ecc_set=None, trust_ecc: bool = False,
                  threads: int | None = None, work: int | None = None) -> OptimizerFn:
    """An optimizer function running `quartz.optimize(..., method=method)`, with its trace.

    The search spends the whole budget (patience=None), so methods compare at equal time.
    `threads`: the search's threads (None: quartz.optimize's default, the CPUs it may use).
    `work`: the search's budget in work units per thread (quartz.optimize's `work`; the
    timeout still caps it), so its result does not depend on the machine's speed or load;
    the function then also returns {"cut": whether the timeout came first}."""
    check_work(work, [method])

    def run(circuit: Circuit, gate_set: str, timeout: float, seed: int):
        from quartz.api import optimize

        history: list = []
        report: dict = {}
        kwargs = {"history": history, "patience": None} if method == "search" else {}
        if work is not None:
            kwargs["work"] = work
        out = optimize(circuit, gate_set, timeout=timeout, seed=seed, method=method,
                       ecc_set=ecc_set, trust_ecc=trust_ecc, threads=threads, report=report,
                       **kwargs)
        trace = [(float(s), float(c)) for s, c in history]
        if work is None:
            return out, trace
        return out, trace, {"cut": bool((report.get("search") or {}).get("cut"))}

    return run


def _stats(o: Outcome, c: Circuit) -> None:
    o.gates, o.cx, o.t, o.depth = len(c), c.two_qubit_count, c.t_count, c.depth


def _run_one(optimizer: str, kind: str, fn: Callable, circuit: Circuit, gate_set: str,
             timeout: float, seed: int, check_timeout: float) -> Outcome:
    from quartz.check import check_equivalence
    from quartz.qasm import dumps

    o = Outcome(optimizer, kind)
    start = time.perf_counter()
    try:
        if kind == "ours":
            got = fn(circuit, gate_set, timeout, seed)  # (out, trace) or (out, trace, info)
            out, o.trace = got[0], got[1]
            o.cut = len(got) > 2 and bool(got[2].get("cut"))
        else:
            out = fn(circuit, gate_set)
    except Exception as e:  # recorded per optimizer, so one failure does not stop the suite
        o.status = "error"
        o.error = f"{type(e).__name__}: {e}" if not isinstance(e, QuartzError) else str(e)
        o.seconds = time.perf_counter() - start
        if not isinstance(e, QuartzError):
            o.error += "\n" + traceback.format_exc(limit=4)
        return o
    o.seconds = time.perf_counter() - start
    _stats(o, out)
    gs = get_gate_set(gate_set)
    off = sorted({g.name for g in out} - set(gs.gates))
    if off:
        o.status = "off_target"
        o.error = f"output uses {', '.join(off)}, outside gate set {gs.name}"
    result = check_equivalence(circuit, out, timeout=check_timeout)
    o.equivalence, o.qcec = result.verdict, result.qcec
    o.operator = result.operator or ""
    o.path_sum = result.path_sum
    o.check_seconds = result.seconds
    o.qasm = dumps(out)
    return o


def bench_circuit(name: str, circuit: Circuit, gate_set: str, methods: dict[str, OptimizerFn],
                  baselines: Iterable[str], timeout: float, seed: int = 0,
                  check_timeout: float = 120.0) -> CircuitResult:
    """Run every method and baseline on one circuit and check each output."""
    from quartz.bench.baselines import BASELINES

    outcomes = [_run_one(m, "ours", fn, circuit, gate_set, timeout, seed, check_timeout)
                for m, fn in methods.items()]
    outcomes += [_run_one(b, "baseline", BASELINES[b], circuit, gate_set, timeout, seed,
                          check_timeout) for b in baselines]
    return CircuitResult(name, circuit.num_qubits, len(circuit), circuit.two_qubit_count,
                         circuit.t_count, outcomes)


def _job(args) -> CircuitResult:
    (name, circuit, gate_set, method_names, baselines, timeout, seed, check_timeout, ecc, trust,
     threads, work) = args
    methods = {m: quartz_method(m, ecc, trust, threads, work) for m in method_names}
    return bench_circuit(name, circuit, gate_set, methods, baselines, timeout, seed, check_timeout)


def _task(args) -> Outcome:
    """One (circuit, optimizer) of a Ray run: plain data in (QASM text), an Outcome out."""
    from quartz.bench.baselines import BASELINES
    from quartz.qasm import loads

    (name, qasm, gate_set, optimizer, kind, timeout, seed, check_timeout, ecc, trust, threads,
     work) = args
    circuit = loads(qasm, source=name, name=name)
    ecc_file = None
    try:
        if isinstance(ecc, tuple):  # (file name, bytes) of the user's ECC set file
            import tempfile

            fd, ecc_file = tempfile.mkstemp(suffix="-" + ecc[0])
            with open(fd, "wb") as f:
                f.write(ecc[1])
            ecc = ecc_file
        fn = (quartz_method(optimizer, ecc, trust, threads, work) if kind == "ours"
              else BASELINES[optimizer])
        return _run_one(optimizer, kind, fn, circuit, gate_set, timeout, seed, check_timeout)
    finally:
        if ecc_file is not None:
            import os

            os.unlink(ecc_file)


def _ecc_payload(ecc_set):
    """What a Ray task gets for the ECC set: None, a shipped set's name, or a file's
    (name, bytes)."""
    if ecc_set is None:
        return None
    import os

    if not isinstance(ecc_set, (str, os.PathLike)):
        raise QuartzError("on Ray, ecc_set must be a file path or a shipped set's name (a "
                          "file's bytes go to each task)")
    if not os.path.isfile(ecc_set):
        return os.fspath(ecc_set)  # a shipped set's name: every worker has the package
    with open(ecc_set, "rb") as f:
        return (os.path.basename(os.fspath(ecc_set)), f.read())


def _run_on_ray(circuits, gate_set, methods, baselines, timeout, seed, check_timeout, ecc_set,
                trust_ecc, jobs, address, done, stopped, threads=None, work=None) -> None:
    """run_suite's Ray path: one task per (circuit, optimizer); `done(i, result)` for each
    circuit once all of its optimizers are back, in the order circuits complete."""
    from quartz.distributed import run_tasks, session
    from quartz.qasm import dumps

    ecc = _ecc_payload(ecc_set)
    plan = [("ours", m) for m in methods] + [("baseline", b) for b in baselines]
    items, owner = [], []
    for i, (name, c) in enumerate(circuits):
        text = dumps(c)
        for kind, opt in plan:
            items.append((name, text, gate_set, opt, kind, timeout, seed, check_timeout, ecc,
                          trust_ecc, threads, work))
            owner.append(i)
    got: dict[int, dict[int, Outcome]] = {i: {} for i in range(len(circuits))}
    # One CPU per task on a Ray of `jobs` CPUs ('local'); on a cluster, at most `jobs` tasks
    # in flight, so a run asks for the same parallelism either way.
    with session(jobs, address):
        for k, outcome in run_tasks(_task, items, describe=lambda it: f"{it[0]} ({it[3]})",
                                    stop=stopped, in_flight=jobs):
            i = owner[k]
            got[i][k] = outcome
            if len(got[i]) == len(plan):
                name, c = circuits[i]
                done(i, CircuitResult(name, c.num_qubits, len(c), c.two_qubit_count,
                                      c.t_count, [got[i][j] for j in sorted(got[i])]))


def run_suite(circuits: list[tuple[str, Circuit]], gate_set: str, *,
              methods: Iterable[str] = ("search",), baselines: Iterable[str] = (),
              timeout: float = 60.0, jobs: int = 1, seed: int = 0, check_timeout: float = 120.0,
              progress: bool = True, ecc_set=None, trust_ecc: bool = False,
              on_result: Callable[[list[CircuitResult]], None] | None = None,
              method_fns: dict[str, OptimizerFn] | None = None,
              stop: Callable[[], bool] | None = None,
              address: str | None = None, threads: int | None = None,
              work: int | None = None) -> list[CircuitResult]:
    """Benchmark every circuit (in suite order); `on_result` sees the results so far.
    `trust_ecc`: use an `ecc_set` file without verifying it (quartz.optimize's trust_ecc).
    `stop`: checked after each circuit; once true no further circuit starts. With jobs=1 the
    circuit that was running finishes early (its search cut short) and gets status
    "interrupted"; with jobs > 1 the running jobs are terminated and left out.
    `address`: run on Ray (quartz.distributed.session: the cluster at `address`, or
    RAY_ADDRESS; 'local' starts one here with `jobs` CPUs) instead of `jobs` processes, `jobs`
    tasks at once; stopped tasks are cancelled and their circuits left out. `threads`: each
    search's threads (None: threads_per_job), so that jobs do not squeeze each other's
    searches; a seed still gives the same search only up to where the deadline cuts it.
    `work`: the search's budget in work units per thread (quartz.optimize's `work`, method
    search only; `timeout` still caps each run and Outcome.cut says where it did); the
    search threads then default to 1, so a seed gives the same gates with any `jobs`, on
    Ray or not."""
    from tqdm import tqdm

    methods, baselines = list(methods), list(baselines)
    if jobs < 1:
        raise QuartzError(f"--jobs must be at least 1, got {jobs}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):
        raise QuartzError(f"--threads must be a positive integer, got {threads!r}")
    check_work(work, methods)
    from quartz.distributed import cluster_address

    on_ray = cluster_address(address) is not None
    threads = threads_per_job(jobs, threads, on_ray, work)
    if method_fns is not None and (jobs > 1 or on_ray):
        raise QuartzError("custom optimizer functions run in-process only (jobs=1, no Ray)")
    results: dict[int, CircuitResult] = {}
    bar = tqdm(total=len(circuits), unit="circuit", file=sys.stderr, disable=not progress,
               desc="bench")

    def stopped() -> bool:
        return stop is not None and stop()

    def done(i: int, r: CircuitResult) -> None:
        if stopped():
            for o in r.outcomes:
                if o.status == "ok":
                    o.status = "interrupted"
        results[i] = r
        bad = [o.optimizer for o in r.outcomes if o.equivalence != "equivalent"]
        bar.set_postfix_str(f"{r.circuit}" + (f" UNVERIFIED: {','.join(bad)}" if bad else ""))
        bar.update(1)
        if on_result is not None:
            on_result([results[k] for k in sorted(results)])

    args = [(n, c, gate_set, methods, baselines, timeout, seed, check_timeout, ecc_set, trust_ecc,
             threads, work) for n, c in circuits]
    try:
        if on_ray:
            _run_on_ray(circuits, gate_set, methods, baselines, timeout, seed, check_timeout,
                        ecc_set, trust_ecc, jobs, address, done, stopped, threads, work)
        elif jobs == 1:
            for i, a in enumerate(args):
                if stopped():
                    break
                if method_fns is not None:
                    done(i, bench_circuit(a[0], a[1], gate_set, method_fns, baselines, timeout,
                                          seed, check_timeout))
                else:
                    done(i, _job(a))
        else:
            with worker_pool(jobs) as pool:  # spawned, without the caller's __main__
                pending = {pool.submit(_job, a): i for i, a in enumerate(args)}
                while pending and not stopped():
                    finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                    for f in finished:
                        done(pending.pop(f), f.result())
                if pending:  # stopped: the running jobs are not waited for
                    abandon(pool)
    finally:
        bar.close()
    return [results[k] for k in sorted(results)]


def failures(results: list[CircuitResult], *, ours_only: bool = False) -> list[str]:
    """'circuit (optimizer): why' for each output not proven equivalent, and each error of ours."""
    out = []
    for r in results:
        for o in r.outcomes:
            if ours_only and o.kind != "ours":
                continue
            if o.status == "error":
                if o.kind == "ours":
                    out.append(f"{r.circuit} ({o.optimizer}): error: {o.error.splitlines()[0]}")
            elif o.equivalence != "equivalent":
                out.append(f"{r.circuit} ({o.optimizer}): {o.equivalence} "
                           f"(path sum: {o.path_sum or 'not run'}; qcec: {o.qcec}; "
                           f"operator: {o.operator or 'not run'})")
    return out


def check_work(work: object, methods: Iterable[str]) -> None:
    """A clear error for a --work budget that is not a whole number of units or that is asked
    of a method other than the search."""
    if work is None:
        return
    if isinstance(work, bool) or not isinstance(work, int) or work < 0:
        raise QuartzError(f"--work must be a non-negative number of work units, got {work!r}")
    if any(m != "search" for m in methods):
        raise QuartzError("--work applies to the search method only; run rl without it")


def threads_per_job(jobs: int, threads: int | None = None, on_ray: bool = False,
                    work: int | None = None) -> int | None:
    """Search threads for each of `jobs` parallel jobs: `threads` when given; else 1 with a
    `work` budget (the same gates with any `jobs`); else, for local jobs, the CPUs shared out
    among them (at least 1), so that they do not squeeze each other's searches (quartz bench
    --jobs 2 on 2 CPUs: one thread each); None (quartz.optimize's default) for one job or on
    a Ray cluster."""
    if threads is not None:
        return threads
    if work is not None:
        return 1
    if jobs <= 1 or on_ray:
        return None
    return max(1, available_cpus() // jobs)


def default_jobs() -> int:
    """Half the CPUs (each search uses two threads), at least 1."""
    return max(1, available_cpus() // 2)


__all__ = ["Outcome", "CircuitResult", "run_suite", "bench_circuit", "quartz_method", "failures",
           "default_jobs", "threads_per_job", "check_work"]
