"""The polish's block resynthesis on 3 against 4 qubits, side by side at equal work.

    python benchmarks/bench_block_qubits.py --work 8e7 --seeds 1,2 \
        --json benchmarks/results/block_qubits_work.json vbe_adder_3 mod_red_21 ...

Each Nam circuit is preprocessed as optimize() does, then annealed on one thread with a work
limit instead of a deadline (quartz.search.search(..., work=N, patience=None)), once with
block_qubits=3 and once with 4, for every seed. A work-limited anneal gives the same circuit
however loaded the machine is, so the gate counts compare the two settings per unit of work;
the CPU seconds show what the 4-qubit search costs on top. Also prints what one pass of each
does to the preprocessed circuit (resynthesize_blocks, then cancel_inverses).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import BENCH  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    import quartz
    from quartz import ecc_sets
    from quartz.io_utils import atomic_write_text
    from quartz.search import Matcher, search
    from quartz.search.preprocess import cancel_inverses, preprocess, resynthesize_blocks

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("circuits", nargs="+", help="Nam suite circuits")
    ap.add_argument("--work", type=float, default=8e7, help="work units per run (about 4e6 a second)")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    matcher = Matcher(ecc_sets.load("nam"))
    rows = []
    for name in args.circuits:
        p = preprocess(quartz.load(str(BENCH / f"{name}.qasm")), "nam")
        one = {q: len(cancel_inverses(resynthesize_blocks(p, "rz", max_qubits=q))) for q in (3, 4)}
        for seed in (int(s) for s in args.seeds.split(",")):
            row = {"circuit": name, "seed": seed, "preprocessed": len(p), "one_pass_b3": one[3],
                   "one_pass_b4": one[4]}
            for q in (3, 4):
                t = time.process_time()
                r = search(p, matcher, timeout=3600, seed=seed, progress=False, polish="rz",
                           patience=None, threads=1, work=int(args.work), block_qubits=q)
                row[f"b{q}"], row[f"cpu{q}"] = len(r.circuit), round(time.process_time() - t, 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.json:
                atomic_write_text(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
