"""`quartz rl train`: train the learned rewriting policy (PPO) on a folder of circuits."""
from __future__ import annotations

import sys
from pathlib import Path

from quartz.cli.options import spellings
from quartz.errors import QuartzError
from quartz.io_utils import check_input_size, check_output_file


def add_parser(sub):
    """Register `quartz rl` and its `train` action."""
    p = sub.add_parser("rl", help="train the learned (GNN + PPO) optimizer",
                       description="Learned optimizer (Quarl-style GNN + PPO).")
    acts = p.add_subparsers(dest="rl_action", required=True, metavar="ACTION")
    t = acts.add_parser("train", help="train a policy on circuits (PPO)")
    t.add_argument(*spellings("--gateset"), default="nam",
                   help="gate set whose shipped ECC set is used")
    t.add_argument(*spellings("--ecc-set"), default=None, metavar="ECC",
                   help="ECC set name or file (default: the gate set's shipped one)")
    t.add_argument("--trust-ecc", action="store_true",
                   help="use the --ecc-set file without verifying it first")
    t.add_argument("--circuits", required=True, help="folder of .qasm files (or one .qasm file)")
    t.add_argument("--minutes", type=float, required=True, help="wall-clock training budget")
    t.add_argument("-o", "--output", required=True, help="model/checkpoint file to write")
    t.add_argument("--resume", default=None, help="checkpoint to continue training from")
    t.add_argument("--cost", default="gates", help="cost function to lower (default: gates)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument(*spellings("--jobs"), type=int, default=None,
                   help="rollout worker processes (default: cores, max 2)")
    t.add_argument("--hidden", type=int, default=64, help="GNN width")
    t.add_argument("--layers", type=int, default=4, help="message-passing layers")
    t.add_argument("--episodes-per-iter", type=int, default=12)
    t.add_argument("--max-steps", type=int, default=60, help="episode length bound")
    t.add_argument("--reward", choices=("best", "step"), default="best",
                   help="best: a step earns how far it gets below the episode's best so far "
                        "(default); step: the step's cost decrease")
    t.add_argument("--scramble-moves", type=int, default=10, metavar="K",
                   help="random rewrites that scramble a start before its episode (default: 10; "
                        "0: never scramble)")
    t.add_argument("--scramble-share", type=float, default=0.5, metavar="P",
                   help="share of episodes whose start is scrambled (default: 0.5)")
    t.add_argument("--heldout", default=None, metavar="DIR",
                   help="folder of .qasm circuits never trained on, scored during training")
    t.add_argument("--eval-every", type=int, default=5, metavar="N",
                   help="score the held-out circuits every N iterations (default: 5)")
    t.add_argument("--log", default=None, metavar="CSV",
                   help="per-iteration CSV log (appended; with --heldout, also a learning-curve "
                        "PNG beside it, same name with .png)")
    t.add_argument("--no-preprocess", action="store_true",
                   help="train on the circuits as read (default: preprocessed, as optimize() does)")
    t.add_argument("--no-progress", action="store_true",
                   help="no progress bar or per-iteration lines on stderr")
    return p


def load_training_circuits(source: str, gate_set, preprocess: bool = True) -> list:
    """The circuits of a folder (*.qasm, sorted) or one file, converted into the gate set and
    (by default) preprocessed the way quartz.optimize does before it calls the optimizer."""
    from quartz.gatesets import convert
    from quartz.qasm import load

    path = Path(source)
    if not path.exists():
        raise QuartzError(f"{source} does not exist")
    files = sorted(path.glob("*.qasm")) if path.is_dir() else [path]
    if not files:
        raise QuartzError(f"no .qasm files in {source}")
    out = []
    for f in files:
        c = convert(load(str(f)), gate_set)
        if preprocess:
            from quartz.search.preprocess import preprocess as prep

            p = prep(c, gate_set)
            c = p if len(p) <= len(c) else c
        c.name = f.stem
        out.append(c)
    return out


def run(args) -> int:
    """Run `quartz rl train`."""
    from quartz.rl import require_torch

    require_torch()
    if args.minutes <= 0:
        raise QuartzError(f"--minutes must be positive, got {args.minutes}")
    check_output_file(args.output)  # fail before the work, not after it
    if args.log is not None:
        check_output_file(args.log)
    if args.scramble_moves < 0:
        raise QuartzError(f"--scramble-moves must be 0 or more, got {args.scramble_moves}")
    if not 0.0 <= args.scramble_share <= 1.0:
        raise QuartzError(f"--scramble-share must be between 0 and 1, got {args.scramble_share}")
    if args.eval_every < 1:
        raise QuartzError(f"--eval-every must be at least 1, got {args.eval_every}")
    if args.resume is not None:
        check_input_size(args.resume, "RL model")
    from quartz import ecc_sets
    from quartz.gatesets import get_gate_set
    from quartz.rl.ppo import PPOConfig
    from quartz.rl.train import TrainConfig, train

    gate_set = get_gate_set(args.gateset)
    circuits = load_training_circuits(args.circuits, gate_set, not args.no_preprocess)
    heldout = (load_training_circuits(args.heldout, gate_set, not args.no_preprocess)
               if args.heldout else None)
    ecc = ecc_sets.load(args.ecc_set or args.gateset, trust=args.trust_ecc)
    cfg = TrainConfig(hidden=args.hidden, layers=args.layers, max_steps=args.max_steps,
                      reward=args.reward, scramble_moves=args.scramble_moves,
                      scramble_share=args.scramble_share,
                      episodes_per_iter=args.episodes_per_iter, ppo=PPOConfig())
    res = train(circuits, ecc, cost=args.cost, minutes=args.minutes, output=args.output,
                resume=args.resume, seed=args.seed, workers=args.jobs, config=cfg,
                progress=not args.no_progress, heldout=heldout, eval_every=args.eval_every,
                log=args.log)
    meta = res.meta
    if args.log is not None and heldout:
        from quartz.bench.plots import missing
        from quartz.rl.learning_curve import plot_learning_curve

        png = str(Path(args.log).with_suffix(".png"))
        if missing() is None:
            plot_learning_curve(args.log, png)
            print(f"learning curve: {png}", file=sys.stderr)
        else:
            print(f"no learning curve: {missing()} is not installed", file=sys.stderr)
    bests = ", ".join(f"{k} {v:g}" for k, v in meta["best_costs"].items())
    print(f"trained {meta['episodes']} episodes in {meta['train_seconds'] / 60:.1f} min "
          f"(total); best costs: {bests}; wrote {args.output}", file=sys.stderr)
    return 0
