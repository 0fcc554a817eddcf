"""RL environment steps per second: the reference environment (the matcher's whole applicable set
recomputed on a Circuit every step) against the incremental DAG one, side by side.

    python benchmarks/bench_rl_env.py --seconds 10 --json benchmarks/results/rl_env.json

One step is what the agent needs from the environment per action: the applicable set (the
action mask), the GNN's graph arrays, and applying the chosen transformation; actions are
drawn uniformly from the applicable set, with the same seed for both. Circuits: tof_5 (105
gates), gf2^6_mult (495) and ham15-high (5,308) from ../shared/benchmarks/nam, not
preprocessed, shipped Nam (6,3) ECC set, one thread.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "nam"
CIRCUITS = ["tof_5", "gf2^6_mult", "ham15-high"]


def run(env, circuit, seconds: float, seed: int, graph) -> tuple[int, float]:
    """(steps, seconds) of random-action episodes restarted at `circuit` when they end."""
    rng = np.random.default_rng(seed)
    env.reset(circuit)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        app = env.applicable()
        graph(env)
        if not app:
            env.reset(circuit)
            continue
        pos = list(app)[rng.integers(len(app))]
        res = env.step(pos, app[pos][rng.integers(len(app[pos]))])
        steps += 1
        if res.done:
            env.reset(circuit)
    return steps, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("circuits", nargs="*", default=CIRCUITS)
    ap.add_argument("--seconds", type=float, default=10.0, help="per circuit and environment")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    import quartz
    from quartz import ecc_sets
    from quartz.rl.dag_env import DagRewriteEnv
    from quartz.rl.env import RewriteEnv, cost_function
    from quartz.rl.graph import circuit_arrays
    from quartz.search import Matcher

    matcher = Matcher(ecc_sets.load("nam").transformations())
    n = len(matcher.transformations)
    rows = []
    for name in args.circuits:
        c = quartz.load(str(BENCH / f"{name}.qasm"))
        ref = RewriteEnv(matcher, cost_function("gates"), n, max_steps=100, max_rise=6.0)
        new = DagRewriteEnv(matcher, "gates", n, max_steps=100, max_rise=6.0)
        s_ref, t_ref = run(ref, c, args.seconds, args.seed, lambda e: circuit_arrays(e.circuit))
        s_new, t_new = run(new, c, args.seconds, args.seed, lambda e: e.graph())
        row = {"circuit": name, "gates": len(c), "reference_steps_per_s": s_ref / t_ref,
               "dag_steps_per_s": s_new / t_new, "ratio": (s_new / t_new) / (s_ref / t_ref)}
        rows.append(row)
        print(f"{name}: {len(c)} gates, reference {row['reference_steps_per_s']:.1f}/s, "
              f"dag {row['dag_steps_per_s']:.1f}/s, ratio {row['ratio']:.1f}x", file=sys.stderr)
    print("| circuit | gates | reference env steps/s | DAG env steps/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['circuit']} | {r['gates']} | {r['reference_steps_per_s']:,.1f} | "
              f"{r['dag_steps_per_s']:,.1f} | {r['ratio']:.1f}x |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
