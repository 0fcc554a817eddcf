"""method='rl' with the policy given no time: each round after the first search is only the
search again from the best so far with the next seed (RLSettings(final_search_share=1.0)).
Set beside `python -m quartz.rl.compare` at the same budget and seed, it tells whether RL's
wins come from the policy or from the extra rounds of search.

    python benchmarks/bench_rl_no_policy.py --timeout 60 --seed 0 --json OUT.json FILE.qasm...
"""
from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path

import quartz
import quartz.rl as rl
from quartz.io_utils import atomic_write_text
from quartz.rl.optimize import RLSettings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("circuits", nargs="+", help="Nam-gate-set .qasm files")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="write the rows here")
    args = ap.parse_args(argv)
    rl.optimize_rl = functools.partial(rl.optimize_rl, settings=RLSettings(final_search_share=1.0))
    rows = []
    for path in args.circuits:
        c = quartz.load(path)
        t = time.monotonic()
        out = quartz.optimize(c, "nam", method="rl", timeout=args.timeout, seed=args.seed)
        rows.append({"circuit": Path(path).stem, "original": len(c), "rl_no_policy": len(out),
                     "seconds": round(time.monotonic() - t, 1)})
        print(json.dumps(rows[-1]), flush=True)
        if args.json:
            atomic_write_text(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
