"""Benchmark the ECC generator against Quartz's measured figures.

    python benchmarks/bench_generator.py            # the quick settings (seconds)
    python benchmarks/bench_generator.py --full     # adds Nam (5,3), (6,3) and Clifford+T (5,3)
    python benchmarks/bench_generator.py --json out.json

Prints one markdown row per setting: counts before/after pruning (Quartz's 2*(circuits-ECCs)
transformation count) and wall time per phase, next to Quartz's numbers where known
(../shared/reference/quartz-measured.md, 2-core machine).
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from quartz.generator import generate

# (label, gate set, n, q, m, order, Quartz before (circ, ecc, xfers), after, Quartz seconds)
QUICK = [
    ("Nam", "nam", 3, 2, 2, "type", (139, 64, 150), (42, 17, 50), "110 (SymPy) / 17.6 (Z3)"),
    ("Nam", "nam", 3, 3, 2, "type", None, None, "-"),
    ("Nam", "nam", 4, 3, 2, "type", (4170, 1990, 4360), (426, 193, 466), "259 (Z3, v0.1.1)"),
    ("Clifford+T", "t,tdg,h,x,cx", 3, 3, 0, "qubit", (310, 135, 350), (87, 31, 112), "0.05"),
    ("Clifford+T", "t,tdg,h,x,cx", 4, 3, 0, "qubit", (1951, 896, 2110), (480, 213, 534), "0.5-1.8"),
]
FULL = [
    ("Clifford+T", "t,tdg,h,x,cx", 5, 3, 0, "qubit", (12401, 5872, 13058), (2733, 1280, 2906), "5.9"),
    ("Nam", "nam", 5, 3, 2, "type", None, None, "-"),
    ("Nam", "nam", 6, 3, 2, "type", None, None, "hours (not attempted)"),
]


def run(settings, jobs: int) -> list[dict]:
    """Generate every setting and collect counts and times."""
    rows = []
    for label, gs, n, q, m, order, qb, qa, qt in settings:
        t = time.perf_counter()
        _, r = generate(gs, n, q, m, jobs=jobs, progress=False, order=order)
        wall = time.perf_counter() - t
        rows.append({"label": label, "gate_set": gs, "n": n, "q": q, "m": m, "order": order,
                     "before": r.before.to_json(), "after": r.final.to_json(),
                     "considered": r.considered, "seconds": r.seconds, "wall": wall,
                     "quartz_before": qb, "quartz_after": qa, "quartz_seconds": qt})
        print(_row(rows[-1]), flush=True)
    return rows


def _row(r: dict) -> str:
    b, a = r["before"], r["after"]
    qb = "/".join(map(str, r["quartz_before"])) if r["quartz_before"] else "-"
    qa = "/".join(map(str, r["quartz_after"])) if r["quartz_after"] else "-"
    s = r["seconds"]
    return (f"| {r['label']} ({r['n']},{r['q']},m={r['m']}) | {b['circuits']}/{b['classes']}/"
            f"{b['transformations']} | {qb} | {a['circuits']}/{a['classes']}/{a['transformations']} | "
            f"{qa} | {s['enumerate']:.2f} + {s['prune']:.2f} + {s['verify']:.2f} = {r['wall']:.2f} | "
            f"{r['quartz_seconds']} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    print(f"# {platform.node()} python {platform.python_version()}, jobs={args.jobs}")
    print("| setting | ours before (circ/ECC/xfers) | Quartz before | ours after | Quartz after | "
          "ours s (enum + prune + verify = wall) | Quartz s |")
    print("|---|---|---|---|---|---|---|")
    rows = run(QUICK + (FULL if args.full else []), args.jobs)
    if args.json:
        from quartz.io_utils import atomic_write_text

        atomic_write_text(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
