"""Verifier throughput: proofs per second on a Nam (n=3, q=3, m=2) ECC set, 1 job vs 2 jobs.

Workloads: the shipped nam_3_3 set (pruned by the generator), an unpruned Nam (3,3) set built here
by brute force (every circuit of <= 3 gates over {h, x, rz, cx} on 3 qubits with parameters p0,
p1, p0+p0, p0+p1, p1+p1, each symbol used once per circuit, one circuit per distinct DAG,
bucketed by a phase-invariant fingerprint |<h|C|psi>|), and the shipped nam_6_3 set.

    PYTHONPATH=. python benchmarks/bench_verifier.py [--jobs 2] [--repeat 1]
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor

import numpy as np

from quartz import Circuit, Param
from quartz.ecc_sets import ECC, ECCSet
from quartz.verifier import verify_ecc_set


def nam_params():
    p0, p1 = Param.symbol(0), Param.symbol(1)
    return [(p0, {0}), (p1, {1}), (p0 + p0, {0}), (p0 + p1, {0, 1}), (p1 + p1, {1})]


def brute_force_nam(n: int = 3, q: int = 3) -> ECCSet:
    """Fingerprint buckets of all <= n-gate Nam circuits on q qubits (m = 2)."""
    gates = []
    for a in range(q):
        gates += [("h", (a,), (), set()), ("x", (a,), (), set())]
        gates += [("rz", (a,), (p,), used) for p, used in nam_params()]
        gates += [("cx", (a, b), (), set()) for b in range(q) if b != a]
    rng = np.random.default_rng(0)
    dim = 1 << q
    psi = rng.normal(size=dim) + 1j * rng.normal(size=dim)
    psi /= np.linalg.norm(psi)
    h = rng.normal(size=dim) + 1j * rng.normal(size=dim)
    vals = list(rng.uniform(-np.pi, np.pi, size=2))
    seen: set[int] = set()
    buckets: dict[int, list[Circuit]] = {}
    for k in range(n + 1):
        for seq in itertools.product(gates, repeat=k):
            used = [s for g in seq for s in g[3]]
            if len(used) != len(set(used)):
                continue
            c = Circuit(q)
            for name, qs, ps, _ in seq:
                c.append(name, qs, ps)
            hsh = c.structural_hash()
            if hsh in seen:
                continue
            seen.add(hsh)
            fp = abs(np.dot(h, c.apply(psi, vals)))
            buckets.setdefault(int(round(fp * 1e9)), []).append(c)
    classes = [ECC(cs) for cs in buckets.values() if len(cs) >= 2]
    return ECCSet(("h", "x", "rz", "cx"), n, q, 2, classes, {"source": "brute force (bench_verifier)"})


def load_sets() -> list[tuple[str, ECCSet]]:
    """The benchmark workloads: shipped Nam sets (when present) and the brute-force Nam (3,3)."""
    out = []
    try:
        from quartz.ecc_sets import load

        out.append(("shipped nam_3_3 (pruned)", load("nam_3_3")))
    except (ImportError, Exception):  # noqa: BLE001 - a build without shipped sets
        pass
    out.append(("Nam (3,3) unpruned, brute force", brute_force_nam()))
    try:
        from quartz.ecc_sets import load

        out.append(("shipped nam_6_3 (pruned)", load("nam_6_3")))
    except (ImportError, Exception):  # noqa: BLE001
        pass
    return out


def _warm(_i: int = 0) -> int:
    import quartz.verifier  # noqa: F401 - load the verifier in the worker

    return os.getpid()


def _timed(fn, *args):
    c0 = time.process_time()
    out = fn(*args)
    return out, os.getpid(), time.process_time() - c0


class CpuTimingExecutor(Executor):
    """Wraps an executor and adds up the CPU seconds each worker process spends on tasks."""

    def __init__(self, inner: Executor):
        self.inner = inner
        self.cpu: dict[int, float] = {}

    def submit(self, fn, /, *args, **kwargs):
        outer: Future = Future()

        def done(f):
            try:
                out, pid, cpu = f.result()
            except BaseException as e:  # noqa: BLE001 - hand the error to the caller
                outer.set_exception(e)
                return
            self.cpu[pid] = self.cpu.get(pid, 0.0) + cpu
            outer.set_result(out)

        self.inner.submit(_timed, fn, *args).add_done_callback(done)
        return outer

    def shutdown(self, wait=True, *, cancel_futures=False):
        pass  # the inner executor belongs to the caller


def run(ecc_set: ECCSet, jobs: int, executor=None) -> dict:
    timing = CpuTimingExecutor(executor) if executor is not None else None
    t0 = time.perf_counter()
    c0 = time.process_time()
    verified, report = verify_ecc_set(ecc_set, jobs=jobs, executor=timing, progress=False)
    dt = time.perf_counter() - t0
    main_cpu = time.process_time() - c0
    worker_cpu = sorted(timing.cpu.values(), reverse=True) if timing else []
    # CPU critical path: the busiest process (what the wall time would be on idle cores)
    critical = max([main_cpu] + worker_cpu)
    return {"jobs": jobs, "pool": "warm" if executor is not None else ("cold" if jobs > 1 else "none"),
            "seconds": round(dt, 3), "main_cpu_s": round(main_cpu, 3),
            "worker_cpu_s": [round(x, 3) for x in worker_cpu], "critical_cpu_s": round(critical, 3),
            "pairs_per_cpu_critical_s": round(report.pairs / critical, 1) if critical else None,
            "pairs": report.pairs,
            "pairs_per_s": round(report.pairs / dt, 1), "classes": len(ecc_set.classes),
            "proven": report.proven, "refuted": report.refuted, "unknown": report.unknown,
            "corrupt": report.corrupt, "verified_classes": len(verified.classes)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    results = []
    sets = load_sets()
    run(sets[0][1], 1)  # warm-up: imports, ring tables (not counted)
    with ProcessPoolExecutor(args.jobs) as ex:
        list(ex.map(_warm, range(4 * args.jobs)))
        for name, ecc_set in sets:
            one = run(ecc_set, 1)
            warm = run(ecc_set, args.jobs, ex)
            results.append({"set": name, "classes": len(ecc_set.classes), "circuits": ecc_set.num_circuits,
                            "single": one, "parallel": warm,
                            "speedup": round(warm["pairs_per_s"] / one["pairs_per_s"], 2),
                            "cpu_speedup": round(one["critical_cpu_s"] / warm["critical_cpu_s"], 2)})
    cold = run(sets[-1][1], args.jobs)  # pool start-up included, largest set
    out = {"sets": results, "cold_parallel_largest": cold, "load_average": os.getloadavg()[0],
           "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for r in results:
            o, w = r["single"], r["parallel"]
            print(f"{r['set']}: {r['classes']} classes, {r['circuits']} circuits, {o['pairs']} pair checks; "
                  f"1 job {o['seconds']} s = {o['pairs_per_s']} pairs/s; {args.jobs} jobs {w['seconds']} s = "
                  f"{w['pairs_per_s']} pairs/s; ratio {r['speedup']}x wall, {r['cpu_speedup']}x CPU critical "
                  f"path ({o['critical_cpu_s']} s vs {w['critical_cpu_s']} s); "
                  f"{o['proven']} proven, {o['refuted']} refuted, {o['unknown']} unknown")
        print(f"largest set, {args.jobs} jobs with pool start-up: {cold['seconds']} s = "
              f"{cold['pairs_per_s']} pairs/s (load average {out['load_average']:.1f} on {out['cpus']} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
