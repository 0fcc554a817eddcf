"""Partitioned optimization against the one search, side by side: gates, seconds and peak
memory of `quartz.optimize(c, "nam", timeout=T, workers=w)` for w = 1 (the ordinary
optimizer) and w = 2 (quartz.pipeline.partition in two processes), and preprocessing alone.

    python benchmarks/bench_partition.py gf2^16_mult 60      # a Nam suite file (../shared)
    python benchmarks/bench_partition.py gf2_mult:90 180     # a quartz.circuits family size
    python benchmarks/bench_partition.py gf2^16_mult 60 --seeds 0,1,2   # w=1, w=2 per seed
"""
from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import quartz
from quartz.search.preprocess import preprocess

SUITE = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "nam"


def load(spec: str) -> quartz.Circuit:
    """A suite circuit by name, or family:size from quartz.circuits."""
    if ":" in spec:
        from quartz.circuits import family

        name, size = spec.split(":")
        return next(family(name, int(size)))[1]
    return quartz.load(str(SUITE / f"{spec}.qasm"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("circuit")
    ap.add_argument("timeout", type=float)
    ap.add_argument("--seeds", default="0", help="comma-separated seeds, each run with w=1 and w=2")
    args = ap.parse_args()
    c = load(args.circuit)
    t = time.perf_counter()
    pre = preprocess(c, "nam")
    print(f"{args.circuit}: {len(c)} gates; preprocessing alone {len(pre)} "
          f"({time.perf_counter() - t:.1f} s)", flush=True)
    for seed, w in [(int(s), w) for s in args.seeds.split(",") for w in (1, 2)]:
        report: dict = {}
        t = time.perf_counter()
        out = quartz.optimize(c, "nam", timeout=args.timeout, workers=w, report=report, seed=seed)
        dt = time.perf_counter() - t
        part = report.get("partition") or {}
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"seed {seed} workers={w}: {len(out)} gates, {dt:.1f} s, check {report['check']['method']} "
              f"ok={report['check']['ok']}, rounds {part.get('rounds')}, segments replaced "
              f"{part.get('improved')}, peak RSS so far {rss:.0f} MB (largest child "
              f"{child:.0f} MB)", flush=True)


if __name__ == "__main__":
    main()
