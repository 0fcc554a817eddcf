"""Two ECC sets side by side on the Nam suite: each circuit optimized with one set, then with
the other, the same budget and seed, each output checked against its input.

    quartz gen --gateset nam -n 7 -q 3 --jobs 2 -o /tmp/nam_7_3.json.gz
    python benchmarks/bench_ecc_sets.py /tmp/nam_7_3.json.gz --timeout 60 \\
        --json benchmarks/results/ecc_sets_7_3_60.json

The first set is the shipped nam_6_3 unless --base names another file. Prints a markdown
table (gates per circuit, moves made, the geomean reduction of each set).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import BENCH, PUBLISHED, geomean_reduction  # noqa: E402


def run_one(name: str, ecc_set, timeout: float, seed: int) -> dict:
    """Optimize one suite circuit with `ecc_set` (the whole budget) and check the result."""
    import quartz
    from quartz.check import check_equivalence

    c = quartz.load(str(BENCH / f"{name}.qasm"))
    report: dict = {}
    t0 = time.monotonic()
    out = quartz.optimize(c, "nam", ecc_set=ecc_set, timeout=timeout, seed=seed,
                          patience=None, report=report)
    dt = time.monotonic() - t0
    stats = report.get("search") or {}
    chk = check_equivalence(c, out, timeout=120.0)
    return {"circuit": name, "original": len(c), "gates": len(out), "seconds": round(dt, 1),
            "moves": stats.get("moves"), "equivalence": chk.verdict}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", help="the ECC set file to compare against the base")
    ap.add_argument("circuits", nargs="*", help="suite circuits (default: the 26)")
    ap.add_argument("--base", default=None, help="base ECC set file (default: shipped nam_6_3)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="PATH", help="write the rows as JSON (after each circuit)")
    args = ap.parse_args(argv)
    from quartz.ecc_sets import load

    base = load(args.base) if args.base else load("nam")
    other = load(args.other)
    names = args.circuits or list(PUBLISHED)
    rows = []
    for name in names:
        a = run_one(name, base, args.timeout, args.seed)
        b = run_one(name, other, args.timeout, args.seed)
        rows.append({"circuit": name, "base": a, "other": b})
        print(f"{name}: {a['original']} -> {a['gates']} / {b['gates']} "
              f"({a['equivalence']} / {b['equivalence']})", file=sys.stderr, flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=1))
    print("| circuit | original | base | other | moves (base / other) | checked |")
    print("|---|---:|---:|---:|---:|---|")
    for r in rows:
        a, b = r["base"], r["other"]
        print(f"| {r['circuit']} | {a['original']} | {a['gates']} | {b['gates']} | "
              f"{a['moves'] or '?'} / {b['moves'] or '?'} | {a['equivalence']} / {b['equivalence']} |")
    ga = geomean_reduction((r["base"]["original"], r["base"]["gates"]) for r in rows)
    gb = geomean_reduction((r["other"]["original"], r["other"]["gates"]) for r in rows)
    better = sum(r["other"]["gates"] < r["base"]["gates"] for r in rows)
    worse = sum(r["other"]["gates"] > r["base"]["gates"] for r in rows)
    print(f"\ngeomean reduction: base {ga:.1%}, other {gb:.1%}; other better on {better}, "
          f"worse on {worse} of {len(rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
