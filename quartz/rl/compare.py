"""RL vs search at the same time budget on benchmark circuits (the BENCHMARKS.md "RL" table).

    python -m quartz.rl.compare --timeout 30 DIR/a.qasm DIR/b.qasm ... [--json rows.json]

Each circuit goes through `quartz.optimize` twice (method "search" and method "rl", same
gate set, ECC set, timeout and seed); the table lists gate counts and wall time.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path


def compare(paths: list[str], *, timeout: float, seed: int = 0, model: str | None = None,
            gate_set: str = "nam", json_path: str | None = None) -> list[dict]:
    """One row per circuit: original, search and RL gate counts and seconds (also written to
    `json_path` after each circuit, when given)."""
    import quartz

    rows = []
    for p in paths:
        c = quartz.load(p)
        row = {"circuit": Path(p).stem, "original": len(c)}
        for method in ("search", "rl"):
            t = time.monotonic()
            out = quartz.optimize(c, gate_set, method=method, timeout=timeout, seed=seed,
                                  model=model if method == "rl" else None)
            row[method] = len(out)
            row[f"{method}_s"] = time.monotonic() - t
        rows.append(row)
        if json_path:
            Path(json_path).write_text(json.dumps(rows, indent=1))
        print(f"{row['circuit']}: {row['original']} -> search {row['search']}, rl {row['rl']}",
              file=sys.stderr)
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as a Markdown table."""
    out = ["| circuit | original | search | RL | search s | RL s |", "|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['circuit']} | {r['original']} | {r['search']} | {r['rl']} | "
                   f"{r['search_s']:.1f} | {r['rl_s']:.1f} |")
    return "\n".join(out) + "\n\n" + summary(rows)


def summary(rows: list[dict]) -> str:
    """RL against search: circuits better / equal / worse, and 1 - geomean of each."""
    def red(key: str) -> float:
        return 1 - math.exp(sum(math.log(r[key] / r["original"]) for r in rows) / len(rows))

    better = sum(r["rl"] < r["search"] for r in rows)
    worse = sum(r["rl"] > r["search"] for r in rows)
    return (f"RL vs search: fewer gates on {better}, equal on {len(rows) - better - worse}, more "
            f"on {worse} of {len(rows)}; 1 - geomean: search {red('search'):.1%}, RL {red('rl'):.1%}")


def main(argv: list[str] | None = None) -> int:
    """Command line: print the Markdown table for the given QASM files."""
    ap = argparse.ArgumentParser(prog="python -m quartz.rl.compare", description=__doc__.split("\n")[0])
    ap.add_argument("qasm", nargs="+")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", default=None)
    ap.add_argument("--json", default=None, metavar="PATH", help="write the rows after each circuit")
    args = ap.parse_args(argv)
    print(markdown(compare(args.qasm, timeout=args.timeout, seed=args.seed, model=args.model,
                           json_path=args.json)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
