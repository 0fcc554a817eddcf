"""`quartz bench` with one job and with two on the same Nam circuits, side by side: wall time,
ratio, gates, and whether the two runs wrote the same output circuits.

    python benchmarks/bench_jobs.py --rounds 2 -- --work 40000000 --timeout 300
    python benchmarks/bench_jobs.py -- --timeout 10          # time budgets, for comparison

Everything after `--` goes to `quartz bench` as is. The circuits (NAM8 by default) are linked
from ../shared/benchmarks/nam into a scratch folder; the runs alternate (1, 2, 1, 2, ...).
"""
from __future__ import annotations

import argparse
import csv
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITE = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "nam"
NAM8 = ["tof_3", "barenco_tof_3", "mod5_4", "tof_4", "tof_5", "barenco_tof_4", "mod_mult_55",
        "vbe_adder_3"]


def _run(folder: Path, out: Path, jobs: int, extra: list[str]) -> float:
    cmd = [sys.executable, "-m", "quartz", "bench", str(folder), "--gateset", "nam",
           "--baselines", "none", "--no-plots", "--no-progress", "--jobs", str(jobs),
           "-o", str(out), *extra]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _gates(out: Path) -> list[str]:
    with open(out / "results.csv") as f:
        return [f"{r['gates']}{'' if r['equivalence'] == 'equivalent' else '?'}"
                + ("(cut)" if r.get("cut") else "") for r in csv.DictReader(f)]


def _same_qasm(a: Path, b: Path) -> bool:
    names = sorted(os.listdir(a / "qasm"))
    return names == sorted(os.listdir(b / "qasm")) and all(
        filecmp.cmp(a / "qasm" / n, b / "qasm" / n, shallow=False) for n in names)


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--circuits", default=",".join(NAM8), help="comma list of Nam circuits")
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "nam"
        folder.mkdir()
        for name in args.circuits.split(","):
            os.symlink(SUITE / f"{name}.qasm", folder / f"{name}.qasm")
        print(f"quartz bench ... {' '.join(extra)}; circuits: {args.circuits}")
        first = None
        for r in range(1, args.rounds + 1):
            walls = {}
            for jobs in (1, 2):
                out = Path(tmp) / f"r{r}_j{jobs}"
                walls[jobs] = _run(folder, out, jobs, extra)
                first = first or out
                print(f"round {r} --jobs {jobs}: {walls[jobs]:6.1f} s  ratio "
                      f"{walls[jobs] / walls[1]:.2f}  gates {', '.join(_gates(out))}  "
                      f"same circuits as round 1 --jobs 1: {_same_qasm(first, out)}", flush=True)


if __name__ == "__main__":
    main()
