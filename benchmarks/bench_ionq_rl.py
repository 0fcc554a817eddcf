"""method='search' against method='rl' in IonQ's gate set on Toffoli circuits of the nam-ccz
suite (search then rl per circuit, same budget and seed): whether rl starts level with the
search where the search races two starts (quartz.pipeline.race.races_starts).

    python benchmarks/bench_ionq_rl.py --timeout 10 --seed 1 tof_3 barenco_tof_3 mod5_4 tof_4
"""
from __future__ import annotations

import argparse
from pathlib import Path

import quartz

SUITE = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "nam-ccz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("circuits", nargs="+", help="names in the nam-ccz suite (tof_3, ...)")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for name in args.circuits:
        c = quartz.load(str(SUITE / f"{name}.qasm"))
        gates = {}
        for method in ("search", "rl"):
            report: dict = {}
            out = quartz.optimize(c, "ionq", timeout=args.timeout, seed=args.seed, method=method,
                                  progress=False, report=report)
            gates[method] = (len(out), report.get("start"))
        print(f"{name}: {len(c)} -> search {gates['search'][0]} (start {gates['search'][1]}), "
              f"rl {gates['rl'][0]} (start {gates['rl'][1]})", flush=True)


if __name__ == "__main__":
    main()
