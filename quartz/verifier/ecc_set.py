"""verify_ecc_set: prove every class of an ECC set on a concurrent.futures Executor."""
from __future__ import annotations

import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace

from quartz.circuit import Circuit
from quartz.cpus import available_cpus
from quartz.ecc_sets.model import ECC, ECCSet
from quartz.pools import spawn_context
from quartz.verifier.classes import ClassSplitter
from quartz.verifier.transport import pack, unpack
from quartz.verifier.verdict import ClassOutcome, VerifyReport


@dataclass
class ClassTask:
    """One class to verify: its id, circuits, and the set's limits (None = unchecked)."""

    index: int
    circuits: list
    q: int | None = None
    m: int | None = None
    gate_set: tuple[str, ...] = ()
    label: str = ""
    problem: str = ""  # set when the class is already known to be corrupt (e.g. by a reader)
    packed: bool = False  # circuits in transport.pack form (for worker processes)
    phases: list | None = None  # phases stored in the file (checked against the proven ones)


@dataclass
class ClassResult:
    """Sub-classes (circuit indices + phases) and the outcome of one ClassTask."""

    outcome: ClassOutcome
    groups: list[tuple[list[int], list]]
    pairs: int


def _corruption(task: ClassTask) -> str:
    if task.problem:
        return task.problem
    if not task.circuits:
        return "empty class"
    for i, c in enumerate(task.circuits):
        if not isinstance(c, Circuit):
            return f"circuit {i} is not a Circuit"
        if task.q is not None and c.num_qubits > task.q:
            return f"circuit {i} has {c.num_qubits} qubits, more than the set's q={task.q}"
        if task.m is not None and c.num_symbols > task.m:
            return f"circuit {i} uses symbol p{c.num_symbols - 1}, beyond the set's m={task.m}"
        if task.gate_set:
            for g in c:
                if g.name not in task.gate_set:
                    return f"circuit {i} uses gate '{g.name}', not in the gate set"
    return ""


def verify_class(task: ClassTask, timeout: float = 10.0) -> ClassResult:
    """Split one class into proven sub-classes and classify the outcome (never raises)."""
    n = len(task.circuits) if isinstance(task.circuits, list) else 0
    problem = _corruption(task)
    if problem:
        return ClassResult(ClassOutcome(task.index, "corrupt", n, 0, problem, label=task.label), [], 0)
    try:
        sp = ClassSplitter(task.circuits, timeout)
        eccs = sp.split()
    except Exception as e:  # a bug or an unexpected input: report it, never crash the run
        return ClassResult(ClassOutcome(task.index, "corrupt", n, 0,
                                        f"verifier error: {type(e).__name__}: {e}", label=task.label), [], 0)
    ids = {id(c): i for i, c in enumerate(task.circuits)}
    groups = [([ids[id(c)] for c in e.circuits], e.phases) for e in eccs]
    if len(groups) == 1:
        wrong = _wrong_stored_phase(task, groups[0][1])
        if wrong is not None:
            msg, cex = wrong
            return ClassResult(ClassOutcome(task.index, "refuted", n, 1, msg, cex, label=task.label),
                               groups, sp.pairs)
        return ClassResult(ClassOutcome(task.index, "proven", n, 1, label=task.label), groups, sp.pairs)
    # Why did circuits leave the representative's class? Look at their verdicts against it.
    status, message, cex = "refuted", "", None
    rep_class = set(groups[0][0])
    for rep, j, v in sp.verdicts:
        if rep != 0 or j in rep_class:
            continue
        if v.status == "unknown":
            status, message, cex = "unknown", f"circuit {j}: {v.message or 'not proven'}", None
            break
        if not message:
            message = f"circuit {j} differs from circuit 0"
            cex = v.counterexample
            if cex is None:
                from quartz.verifier.pair import refute

                cex = refute(task.circuits[0], task.circuits[j], v.method, "").counterexample
    return ClassResult(ClassOutcome(task.index, status, n, len(groups), message, cex, label=task.label),
                       groups, sp.pairs)


def _wrong_stored_phase(task: ClassTask, proven: list) -> tuple[str, list[float]] | None:
    """(message, symbol values) when a phase stored in the file differs from the proven one."""
    stored = task.phases
    if not stored or len(stored) != len(proven) or stored[0] is None:
        return None
    import numpy as np

    from quartz.verifier.numeric import random_points

    m = max(c.num_symbols for c in task.circuits)
    for j in range(1, len(proven)):
        if stored[j] is None:
            continue
        claimed = stored[j] - stored[0]
        if claimed != proven[j]:
            for vals in random_points(m, 8, 55):
                if abs(np.exp(1j * claimed.value(vals)) - np.exp(1j * proven[j].value(vals))) > 1e-6:
                    return (f"circuit {j}: stored phase {stored[j]} is wrong (proven: {proven[j]})", vals)
    return None


def _pack_task(t: ClassTask) -> ClassTask:
    ok = isinstance(t.circuits, list) and all(isinstance(c, Circuit) for c in t.circuits)
    if not ok:
        return t
    return replace(t, circuits=[pack(c) for c in t.circuits], packed=True)


def _verify_chunk(tasks: list[ClassTask], timeout: float) -> list[ClassResult]:
    cache: dict = {}
    out = []
    for t in tasks:
        if t.packed:
            t = replace(t, circuits=[unpack(c, cache) for c in t.circuits], packed=False)
        out.append(verify_class(t, timeout))
    return out


def verify_tasks(tasks: list[ClassTask], *, jobs: int | None = None, executor: Executor | None = None,
                 progress: bool = True, timeout: float = 10.0) -> list[ClassResult]:
    """Run verify_class over tasks (in-process for jobs=1, else on an Executor), in task order."""
    from tqdm import tqdm

    results: dict[int, ClassResult] = {}
    bar = tqdm(total=len(tasks), desc="verify", unit="class", file=sys.stderr,
               disable=not progress, leave=False)
    workers = jobs if jobs is not None else available_cpus()
    try:
        if executor is None and workers <= 1:
            for pos, t in enumerate(tasks):
                results[pos] = verify_class(t, timeout)
                bar.update(1)
        else:
            own = executor is None
            # spawned workers that do not run the caller's __main__ (quartz.pools)
            ex = (ProcessPoolExecutor(max_workers=workers, mp_context=spawn_context()) if own
                  else executor)
            try:
                size = max(1, min(64, len(tasks) // (max(workers, 1) * 8) or 1))
                futures = {}
                for start in range(0, len(tasks), size):
                    chunk = tasks[start:start + size]
                    futures[ex.submit(_verify_chunk, [_pack_task(t) for t in chunk], timeout)] = (start, chunk)
                for fut in as_completed(futures):
                    start, chunk = futures[fut]
                    try:
                        out = fut.result()
                    except Exception as e:  # a dead worker: report its classes, keep going
                        out = [ClassResult(ClassOutcome(t.index, "unknown", len(t.circuits), 0,
                                                        f"worker failed: {type(e).__name__}: {e}",
                                                        label=t.label), [], 0) for t in chunk]
                    for k, r in enumerate(out):
                        results[start + k] = r
                    bar.update(len(chunk))
            finally:
                if own:
                    ex.shutdown(cancel_futures=True)
    finally:
        bar.close()
    return [results[i] for i in range(len(tasks))]


def assemble(ecc_set: ECCSet, tasks: list[ClassTask], results: list[ClassResult],
             seconds: float) -> tuple[ECCSet, VerifyReport]:
    """The verified ECCSet (proven sub-classes with >= 2 circuits) and the report."""
    classes: list[ECC] = []
    report = VerifyReport(seconds=seconds)
    for t, r in zip(tasks, results):
        report.classes.append(r.outcome)
        report.pairs += r.pairs
        for members, phases in r.groups:
            if len(members) >= 2:
                classes.append(ECC([t.circuits[i] for i in members], list(phases), proven=True))
    meta = dict(ecc_set.metadata)
    meta["verified"] = True
    out = ECCSet(tuple(ecc_set.gate_set), ecc_set.n, ecc_set.q, ecc_set.m, classes, meta)
    return out, report


def verify_ecc_set(ecc_set: ECCSet, *, jobs: int | None = None, executor: Executor | None = None,
                   progress: bool = True, timeout: float = 10.0) -> tuple[ECCSet, VerifyReport]:
    """Prove every class; return the set of proven classes and a VerifyReport.

    jobs: worker processes (default all cores; 1 = in this process). executor: any
    concurrent.futures.Executor (e.g. Dask's or Ray's) used instead of a process pool.
    """
    t0 = time.perf_counter()
    tasks = [ClassTask(i, list(e.circuits), ecc_set.q or None, ecc_set.m if ecc_set.m is not None else None,
                       tuple(ecc_set.gate_set), str(i), phases=list(e.phases))
             for i, e in enumerate(ecc_set.classes)]
    results = verify_tasks(tasks, jobs=jobs, executor=executor, progress=progress, timeout=timeout)
    return assemble(ecc_set, tasks, results, time.perf_counter() - t0)
