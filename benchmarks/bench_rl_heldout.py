"""Held-out reward of RL models, side by side: gates removed by one greedy episode per held-out
circuit (quartz.rl.learning_curve.heldout_reward), on the circuits as given and on one scrambled
copy of each (10 random exact rewrites, seed 0: the copies `quartz rl train` scores).

    python benchmarks/bench_rl_heldout.py --gateset ibm --heldout CUR/heldout \\
        quartz/data/rl_ibm.pt new/rl_ibm.pt
"""
from __future__ import annotations

import argparse

from quartz import ecc_sets
from quartz.cli.rl_cmd import load_training_circuits
from quartz.gatesets import get_gate_set
from quartz.rl.learning_curve import heldout_reward
from quartz.rl.checkpoint import action_map, load_checkpoint
from quartz.rl.scramble import scrambled_copies
from quartz.rl.train import TrainConfig
from quartz.rl.workers import make_env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+", help="model files")
    ap.add_argument("--gateset", required=True)
    ap.add_argument("--heldout", required=True, help="folder of held-out .qasm files")
    ap.add_argument("--moves", type=int, default=TrainConfig.scramble_moves)
    args = ap.parse_args()
    gs = get_gate_set(args.gateset)
    heldout = load_training_circuits(args.heldout, gs, True)
    xfers = ecc_sets.load(gs.name).transformations()
    cfg = TrainConfig()
    env = make_env(xfers, "gates", cfg.max_steps, cfg.max_rise, cfg.min_steps, cfg.reward)
    scrambled = scrambled_copies(env, heldout, args.moves)
    print(f"{gs.name}: {len(heldout)} held-out circuits; scrambling adds "
          f"{sum(len(s) - len(c) for s, c in zip(scrambled, heldout)) / len(heldout):.1f} "
          f"gates on average")
    for path in args.models:
        net, meta, _ = load_checkpoint(path)
        if action_map(meta, xfers, path) is not None:
            raise SystemExit(f"{path}: trained on other transformations than the shipped set's")
        net.eval()
        print(f"{path}: as given {heldout_reward(net, env, heldout):.2f}, scrambled "
              f"{heldout_reward(net, env, scrambled):.2f}", flush=True)


if __name__ == "__main__":
    main()
