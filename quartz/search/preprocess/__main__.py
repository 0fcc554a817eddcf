"""Gate counts of preprocess() on the Nam suite next to Quartz's published preprocessing column.

    PYTHONPATH=. python -m quartz.search.preprocess [--bench ../shared/benchmarks] [--check [--timeout S]] [--blocks]

Prints a Markdown table (one row per circuit of the 26-circuit Nam suite, plus the extra
files) and the geometric-mean reduction; --check proves every output equivalent to its input
with quartz.check.check_equivalence (mqt.qcec, global phase included).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import quartz
from quartz.search.preprocess.pipeline import preprocess
from quartz.search.preprocess.published import QUARTZ_PREPROCESS

EXTRA = ("gf2^16_mult", "gf2^32_mult", "mod_adder_1024", "hwb6", "ham15-low", "ham15-med",
         "ham15-high", "grover_5")


def _run(path: Path, check: float, blocks: bool) -> tuple[int, int, int, float, str]:
    c = quartz.load(str(path))
    t = time.perf_counter()
    p = preprocess(c, "nam", blocks=blocks)
    dt = time.perf_counter() - t
    verdict = ""
    if check:
        from quartz.check import check_equivalence

        verdict = check_equivalence(c, p, timeout=check).verdict
    return len(c), len(p), p.cx_count, dt, verdict


def main(argv: list[str] | None = None) -> int:
    """Run the table; returns 1 if any checked output is not proven equivalent."""
    ap = argparse.ArgumentParser(prog="python -m quartz.search.preprocess", description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=str(Path(__file__).resolve().parents[3].parent / "shared" / "benchmarks"))
    ap.add_argument("--check", action="store_true", help="prove each output equivalent (mqt.qcec)")
    ap.add_argument("--blocks", action="store_true", help="preprocess(..., blocks=True)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per QCEC check (default 120)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these circuits")
    args = ap.parse_args(argv)
    bench = Path(args.bench)
    print("| circuit | original | ours (from nam) | ours (from nam-ccz) | CX (nam-ccz) | Quartz preprocess "
          "| time nam / nam-ccz (s) |" + (" equivalent |" if args.check else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if args.check else ""))
    ratios: dict[str, list[float]] = {"nam": [], "ccz": [], "quartz": []}
    failed = False
    names = [n for n in list(QUARTZ_PREPROCESS) + list(EXTRA) if not args.only or n in args.only]
    for name in names:
        check = args.timeout if args.check else 0.0
        orig, a, _, ta, va = _run(bench / "nam" / f"{name}.qasm", check, args.blocks)
        _, b, bcx, tb, vb = _run(bench / "nam-ccz" / f"{name}.qasm", check, args.blocks)
        q = QUARTZ_PREPROCESS.get(name)
        if q is not None:
            ratios["nam"].append(a / orig)
            ratios["ccz"].append(b / orig)
            ratios["quartz"].append(q / orig)
        ok = ""
        if args.check:
            ok = f" {va} / {vb} |"
            failed |= va != "equivalent" or vb != "equivalent"
        label = name if q is not None else f"{name} (extra)"
        print(f"| {label} | {orig} | {a} | {b} | {bcx} | {q if q is not None else ''} | {ta:.3f} / {tb:.3f} |{ok}",
              flush=True)
    if ratios["nam"]:
        g = {k: 1 - math.exp(sum(map(math.log, v)) / len(v)) for k, v in ratios.items()}
        print(f"\n{len(ratios['nam'])}-circuit geomean reduction: ours from nam {g['nam']:.1%}, "
              f"from nam-ccz {g['ccz']:.1%}, Quartz preprocess {g['quartz']:.1%}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
