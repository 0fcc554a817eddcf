"""Final check of `quartz.optimize` on every circuit of a suite: which method concluded and
how long it took (the result's report["check"]), after a short optimization budget.

    PYTHONPATH=. nice -n 19 python benchmarks/bench_final_check.py [--timeout 5] \\
        [--suite ../shared/benchmarks/nam] [--threads 1] [NAME ...]

Prints one Markdown table row per circuit and a summary line (how many concluded).
`--preprocessed S` instead times the path-sum proof of each circuit against its own
preprocessed form (quartz.search.preprocess.preprocess(c, "nam")), S seconds at most each.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import quartz

DEFAULT_SUITE = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "nam"


def check_one(path: Path, timeout: float, threads: int, check_timeout: float | None) -> dict:
    """Optimize one circuit and return its size, the result's size and the check report."""
    c = quartz.Circuit.from_qasm(path.read_text())
    report: dict = {}
    t0 = time.monotonic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = quartz.optimize(c, timeout=timeout, seed=0, threads=threads,
                              check_timeout=check_timeout, report=report)
    return {"name": path.stem, "qubits": c.num_qubits, "gates": len(c), "out": len(out),
            "total": time.monotonic() - t0, **report["check"]}


def path_sum_one(path: Path, seconds: float) -> dict:
    """Time the path-sum proof of a circuit against its preprocessed form."""
    from quartz.check.pathsum import path_sum_phase
    from quartz.search.preprocess import preprocess

    c = quartz.Circuit.from_qasm(path.read_text())
    pre = preprocess(c, "nam")
    t0 = time.monotonic()
    phase = path_sum_phase(c.to_qiskit(), pre.to_qiskit(), t0 + seconds)
    return {"name": path.stem, "qubits": c.num_qubits, "gates": len(c), "out": len(pre),
            "seconds": time.monotonic() - t0, "ok": None if phase is None else phase == 0.0}


def main(argv: list[str] | None = None) -> int:
    """Run the suite (or the named circuits) and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="circuit names (default: all of the suite)")
    ap.add_argument("--suite", type=Path, default=DEFAULT_SUITE)
    ap.add_argument("--timeout", type=float, default=5.0, help="optimize budget (default 5 s)")
    ap.add_argument("--check-timeout", type=float, default=None,
                    help="final check budget (default: optimize's own)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--preprocessed", type=float, default=None, metavar="S",
                    help="time path sums against the preprocessed forms instead (S s each)")
    args = ap.parse_args(argv)
    paths = [args.suite / f"{n}.qasm" for n in args.names] or sorted(args.suite.glob("*.qasm"))
    if args.preprocessed is not None:
        return path_sums(paths, args.preprocessed)
    print("| circuit | qubits | gates | result | method | verdict | check s | total s |")
    print("|---|---:|---:|---:|---|---|---:|---:|")
    concluded = 0
    for p in paths:
        r = check_one(p, args.timeout, args.threads, args.check_timeout)
        verdict = {True: "equivalent", False: "NOT equivalent", None: "none"}[r["ok"]]
        concluded += r["ok"] is not None
        print(f"| {r['name']} | {r['qubits']} | {r['gates']} | {r['out']} | {r['method']} | "
              f"{verdict} | {r['seconds']:.2f} | {r['total']:.1f} |", flush=True)
    print(f"\n{concluded}/{len(paths)} checks concluded (optimize timeout {args.timeout:g} s).")
    return 0 if concluded == len(paths) else 1


def path_sums(paths: list[Path], seconds: float) -> int:
    """The --preprocessed table: path-sum proof time against the preprocessed form."""
    print("| circuit | qubits | gates | preprocessed | path sum | s |")
    print("|---|---:|---:|---:|---|---:|")
    for p in paths:
        r = path_sum_one(p, seconds)
        verdict = {True: "equivalent", False: "differ", None: "no proof"}[r["ok"]]
        print(f"| {r['name']} | {r['qubits']} | {r['gates']} | {r['out']} | {verdict} | "
              f"{r['seconds']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
