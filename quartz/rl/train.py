"""PPO training of the rewriting policy on a set of circuits, with checkpoints and resumption."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from quartz.circuit import Circuit
from quartz.cpus import available_cpus
from quartz.errors import QuartzError
from quartz.rl._deps import device
from quartz.rl.agent import torch
from quartz.rl.checkpoint import (
    check_compatible,
    ecc_fingerprint,
    load_checkpoint,
    save_checkpoint,
    xfer_keys,
)
from quartz.rl.env import cost_function
from quartz.rl.model import ActorCritic, ModelConfig
from quartz.rl.ppo import PPOConfig, ppo_update
from quartz.rl.workers import RolloutPool


@dataclass
class TrainConfig:
    """Training settings (episode bounds, sampling, sizes, PPO)."""

    hidden: int = 64
    layers: int = 4
    max_steps: int = 60
    max_rise: float = 6.0
    min_steps: int = 10  # steps before stop is offered (see quartz.rl.env)
    reward: str = "best"  # quartz.rl.env.step_reward: exploration that raises the cost is free
    temperature: float | None = None  # None: Quarl's hit-rate temperature
    episodes_per_iter: int = 12
    restart_from_best: float = 0.5  # probability an episode starts at the best circuit so far
    # Probability that an episode's start is first scrambled by scramble_moves random rewrites
    # (quartz.rl.scramble: every suite circuit is a local minimum for single rewrites, so
    # unscrambled starts alone pay almost no reward); the held-out set gets one scrambled copy
    # of each circuit too, scored beside the circuits as given.
    scramble_share: float = 0.5
    scramble_moves: int = 10
    checkpoint_every_s: float = 60.0
    # With held-out circuits and an output file, the model whose held-out score, averaged over
    # its last best_window evaluations, is the best so far is also written to OUTPUT.best.pt.
    best_window: int = 20
    ppo: PPOConfig = field(default_factory=PPOConfig)


@dataclass
class TrainResult:
    """Outcome of a training run."""

    model: ActorCritic
    meta: dict
    history: list[dict]  # per iteration: episodes, mean_reward, best costs, losses


def best_path(output: str | os.PathLike) -> Path:
    """Where train() keeps the model with the best held-out running mean: OUTPUT.best.pt."""
    p = Path(output)
    return p.with_name(p.stem + ".best" + (p.suffix or ".pt"))


def _keep_best(output, model, meta: dict, reward: float | None, window: int) -> None:
    """Add a held-out score to meta's recent ones; write the model (no optimizer state) to
    best_path(output) when their mean is the best so far (kept in meta, so across --resume)."""
    if reward is None or not np.isfinite(reward):
        return
    recent = (list(meta.get("heldout_recent", [])) + [float(reward)])[-max(1, window):]
    meta["heldout_recent"] = recent
    mean = float(np.mean(recent))
    if mean > meta.get("heldout_best_mean", -np.inf):
        meta["heldout_best_mean"] = mean
        meta["heldout_best_iteration"] = meta["iterations"]
        save_checkpoint(best_path(output), model, meta)


def _default_workers() -> int:
    return min(2, available_cpus())


def train(circuits: list[Circuit], ecc_set, *, cost="gates", minutes: float = 1.0,
          output: str | os.PathLike | None = None, resume: str | os.PathLike | None = None,
          seed: int = 0, workers: int | None = None, config: TrainConfig | None = None,
          max_iterations: int | None = None, progress: bool = True,
          heldout: list[Circuit] | None = None, eval_every: int = 5,
          log: str | os.PathLike | None = None) -> TrainResult:
    """Train (or keep training) a policy for `ecc_set` on `circuits` for `minutes` of wall time.

    `heldout`: circuits never trained on, scored every `eval_every` iterations (and at the start
    and end) by quartz.rl.learning_curve.heldout_reward, as given and (when the config
    scrambles starts) one scrambled copy of each; `log`: a CSV file that gets one row per
    iteration (appended, so a resumed run continues it)."""
    if not circuits:
        raise QuartzError("no training circuits")
    cfg = config or TrainConfig()
    xfers = ecc_set.transformations()
    if not xfers:
        raise QuartzError("the ECC set has no proven transformations to learn")
    allowed = set(ecc_set.gate_set)
    for c in circuits:
        extra = set(c.count_ops()) - allowed
        if extra:
            raise QuartzError(f"training circuit {c.name or '?'} has gates {sorted(extra)} outside "
                              f"the ECC set's gate set {sorted(allowed)}")
    torch.set_num_threads(1)  # small graphs: threads only add overhead on a shared CPU
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    dev = device()
    names = [c.name or f"circuit{i}" for i, c in enumerate(circuits)]
    if resume is not None:
        model, meta, opt_state = load_checkpoint(resume, dev)
        check_compatible(meta, xfers, f"checkpoint {resume}")
    else:
        model = ActorCritic(ModelConfig(len(xfers) + 1, cfg.hidden, cfg.layers)).to(dev).eval()
        meta, opt_state = {}, None
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.ppo.lr)
    if opt_state is not None:
        optimizer.load_state_dict(opt_state)
    meta.update({"gate_set": list(ecc_set.gate_set), "ecc_fingerprint": ecc_fingerprint(xfers),
                 "xfer_keys": xfer_keys(xfers),
                 "num_transformations": len(xfers), "cost": cost if isinstance(cost, str) else "custom",
                 "train_circuits": names, "train_config": asdict(cfg)})
    for key in ("episodes", "iterations", "train_seconds"):
        meta.setdefault(key, 0)
    cost_fn = cost_function(cost)
    start_costs = [float(cost_fn(c)) for c in circuits]
    best = list(circuits)
    best_costs = list(start_costs)
    history: list[dict] = []
    budget = minutes * 60.0
    t0 = last_save = time.monotonic()
    workers = _default_workers() if workers is None else max(1, workers)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=round(budget), unit="s", desc="rl train", file=sys.stderr, leave=False)
    eval_env = None
    heldout_scrambled: list[Circuit] = []
    if heldout:
        from quartz.rl.scramble import scrambled_copies
        from quartz.rl.workers import make_env

        eval_env = make_env(xfers, cost, cfg.max_steps, cfg.max_rise, cfg.min_steps, cfg.reward)
        if cfg.scramble_moves > 0 and cfg.scramble_share > 0:
            # the same copies in every run and across --resume (seed 0, not the run's seed)
            heldout_scrambled = scrambled_copies(eval_env, heldout, cfg.scramble_moves)

    def score() -> dict:
        """Held-out rewards of the current model: of the circuits as given and, when training
        scrambles, of their scrambled copies (empty without held-out circuits)."""
        if eval_env is None:
            return {}
        from quartz.rl.learning_curve import heldout_reward

        out = {"heldout_reward": heldout_reward(model, eval_env, heldout, dev)}
        if heldout_scrambled:
            out["heldout_scrambled"] = heldout_reward(model, eval_env, heldout_scrambled, dev)
        return out

    def seconds() -> float:
        return meta["train_seconds"] + time.monotonic() - last_save

    if log is not None and heldout and meta["iterations"] == 0:
        from quartz.rl.learning_curve import append_log

        append_log(log, {"iteration": 0, "episodes": 0, "train_seconds": 0.0, **score()})
    with RolloutPool(workers, xfers, cost, cfg.max_steps, cfg.max_rise, model.config,
                     cfg.min_steps, cfg.reward) as pool:
        it = 0
        while time.monotonic() - t0 < budget and (max_iterations is None or it < max_iterations):
            jobs = []
            for k in range(cfg.episodes_per_iter):
                ci = (meta["episodes"] + k) % len(circuits)
                start = best[ci] if rng.random() < cfg.restart_from_best else circuits[ci]
                moves = cfg.scramble_moves if rng.random() < cfg.scramble_share else 0
                jobs.append((ci, start, int(rng.integers(2**31)), cfg.temperature, moves))
            episodes = pool.play(model, jobs, dev)
            for ep in episodes:
                if ep.best is not None and ep.best_cost < best_costs[ep.circuit_index]:
                    best[ep.circuit_index] = ep.best
                    best_costs[ep.circuit_index] = ep.best_cost
            transitions = [t for ep in episodes for t in ep.transitions]
            stats = ppo_update(model, optimizer, transitions, model.config.num_actions, cfg.ppo,
                               rng, dev)
            it += 1
            meta["episodes"] += len(episodes)
            meta["iterations"] += 1
            rewards = [ep.total_reward for ep in episodes]
            rec = {"iteration": meta["iterations"], "episodes": meta["episodes"],
                   "mean_reward": float(np.mean(rewards)), "steps": len(transitions),
                   "best_costs": dict(zip(names, best_costs)), **stats}
            last = time.monotonic() - t0 >= budget or (max_iterations is not None
                                                        and it >= max_iterations)
            if heldout and (meta["iterations"] % max(1, eval_every) == 0 or last):
                rec.update(score())
                if output is not None:  # kept by the sum of both scores
                    _keep_best(output, model, meta, rec["heldout_reward"]
                               + rec.get("heldout_scrambled", 0.0), cfg.best_window)
            history.append(rec)
            if log is not None:
                from quartz.rl.learning_curve import append_log

                append_log(log, {**rec, "train_seconds": seconds()})
            now = time.monotonic()
            if bar is not None:
                bar.update(min(round(now - t0), bar.total) - bar.n)
                bests = " ".join(f"{n}:{s:g}->{b:g}" for n, s, b in zip(names, start_costs, best_costs))
                bar.write(f"iter {rec['iteration']} episodes {rec['episodes']} mean reward "
                          f"{rec['mean_reward']:.2f} loss {stats.get('loss', 0):.3f} best {bests}",
                          file=sys.stderr)
            if output is not None and now - last_save >= cfg.checkpoint_every_s:
                meta["train_seconds"] += now - last_save
                meta["best_costs"] = dict(zip(names, best_costs))
                save_checkpoint(output, model, meta, optimizer)
                last_save = now
    if bar is not None:
        bar.close()
    meta["train_seconds"] += time.monotonic() - last_save
    meta["best_costs"] = dict(zip(names, best_costs))
    if output is not None:
        save_checkpoint(output, model, meta, optimizer)
    model.eval()
    return TrainResult(model, meta, history)
