"""Core throughput: QASM load time and structural hash / canonical form / equality speed.

    PYTHONPATH=. python benchmarks/bench_core.py [--repeat 5] [--json out.json]

Load times are measured after qiskit and quartz are imported (imports excluded); each number
is the best of --repeat runs (wall clock) with the CPU time of that run beside it.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO.parent / "shared" / "benchmarks"
LOAD_FILES = ["nam/gf2^32_mult", "nam/adder_8", "nam-ccz/gf2^32_mult", "nam-ccz/gf2^163_mult",
              "rigetti/gf2^10_mult"]
HASH_FILES = ["nam/gf2^32_mult", "nam-ccz/gf2^163_mult", "nam/adder_8"]


def _best(fn, repeat: int) -> tuple[float, float, object]:
    """(best wall seconds, CPU seconds of that run, last result) over `repeat` runs."""
    best = (float("inf"), 0.0, None)
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        w, c = time.perf_counter() - w0, time.process_time() - c0
        if w < best[0]:
            best = (w, c, out)
    return best


def run(repeat: int) -> dict:
    """Measure load and hash throughput; returns the numbers as a dict."""
    import qiskit.qasm2  # noqa: F401  (import cost excluded)

    import quartz

    quartz.load(BENCH / "nam" / "tof_3.qasm")  # warm qiskit's parser and quartz's caches
    results: dict = {"load": [], "hash": []}
    for name in LOAD_FILES:
        path = BENCH / f"{name}.qasm"
        wall, cpu, circ = _best(lambda: quartz.load(path), repeat)
        results["load"].append({"file": name, "gates": len(circ), "seconds": wall, "cpu": cpu,
                                "gates_per_s": len(circ) / wall})
    for name in HASH_FILES:
        circ = quartz.load(BENCH / f"{name}.qasm")
        n = len(circ)
        other = circ.copy()
        row = {"file": name, "gates": n}
        for label, fn in [("hash", circ.structural_hash), ("canonical", circ.canonical),
                          ("equal", lambda: circ == other), ("dumps", lambda: quartz.dumps(circ))]:
            wall, _, _ = _best(fn, repeat)
            row[label] = n / wall
        results["hash"].append(row)
    return results


def markdown(results: dict) -> str:
    """The results as the two tables of benchmarks/history/BENCHMARKS-2026-12-07.md ("Core: load
    and hash throughput")."""
    lines = ["| file | gates | load (best) | CPU | gates/s |", "|---|---|---|---|---|"]
    for r in results["load"]:
        lines.append(f"| {r['file']} | {r['gates']} | {r['seconds']:.3f} s | {r['cpu']:.3f} s | "
                     f"{r['gates_per_s'] / 1e3:.0f} k |")
    lines += ["", "| file | gates | structural_hash | canonical() | == | dumps |",
              "|---|---|---|---|---|---|"]
    for r in results["hash"]:
        lines.append(f"| {r['file']} | {r['gates']} | {r['hash'] / 1e6:.1f} M gates/s | "
                     f"{r['canonical'] / 1e6:.1f} M gates/s | {r['equal'] / 1e6:.1f} M gates/s | "
                     f"{r['dumps'] / 1e3:.0f} k gates/s |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (best kept)")
    parser.add_argument("--json", type=Path, help="also write the numbers as JSON")
    args = parser.parse_args(argv)
    results = run(args.repeat)
    print(markdown(results))
    if args.json:
        from quartz.io_utils import atomic_write_text

        atomic_write_text(args.json, json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
