"""Training progress: held-out reward of a policy, the per-iteration CSV log and its PNG curve.

The held-out reward of a policy is the mean, over circuits never trained on, of how much one
greedy episode lowers each circuit's cost (start cost - best cost of the episode): greedy
acting is deterministic, so the curve moves only when the policy does.
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import numpy as np

from quartz.circuit import Circuit

LOG_COLUMNS = ["iteration", "episodes", "train_seconds", "mean_reward", "steps", "loss",
               "heldout_reward", "heldout_scrambled"]


def heldout_reward(model, env, circuits: list[Circuit], dev=None) -> float:
    """Mean cost decrease of one greedy episode per circuit (the module docstring)."""
    from quartz.rl.rollout import run_episode

    gains = []
    for c in circuits:
        ep = run_episode(model, env, c, greedy=True, dev=dev)
        gains.append(ep.start_cost - ep.best_cost)
    return float(np.mean(gains)) if gains else float("nan")


def append_log(path: str | os.PathLike, row: dict) -> None:
    """Append one iteration's row to the CSV log (with the header when the file is new)."""
    p = Path(path)
    new = not p.exists() or p.stat().st_size == 0
    with open(p, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=LOG_COLUMNS, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in LOG_COLUMNS})


def read_log(path: str | os.PathLike) -> list[dict]:
    """The rows of a CSV log, numbers as floats (missing values as NaN)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [{k: float(v) if v not in ("", None) else float("nan") for k, v in r.items()}
            for r in rows]


def _evaluations(rows: list[dict], column: str) -> tuple[np.ndarray, np.ndarray]:
    """(training minutes, score) of the rows that have a `column` score."""
    scored = [r for r in rows if not np.isnan(r.get(column, float("nan")))]
    return (np.array([r["train_seconds"] / 60 for r in scored]),
            np.array([r[column] for r in scored]))


def heldout_trend(rows: list[dict], window: int = 20,
                  column: str = "heldout_reward") -> tuple[np.ndarray, np.ndarray]:
    """(training minutes, mean held-out reward of the last `window` evaluations) at each
    evaluation of a read_log() result: one greedy episode per circuit is a noisy score, and
    its running mean is the trend the learning curve shows. `column`: heldout_reward (the
    circuits as given) or heldout_scrambled (their scrambled copies)."""
    x, y = _evaluations(rows, column)
    csum = np.concatenate([[0.0], np.cumsum(y)])
    k = np.arange(1, len(y) + 1)
    lo = np.maximum(0, k - max(1, window))
    return x, (csum[k] - csum[lo]) / (k - lo)


def plot_learning_curve(log: str | os.PathLike, png: str | os.PathLike) -> None:
    """The CSV log as a PNG: training episodes' mean reward and the held-out reward."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_log(log)
    x = np.array([r["train_seconds"] / 60 for r in rows])
    train = np.array([r["mean_reward"] for r in rows])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(x, train, color="0.7", lw=0.8, label="training episodes: mean reward")
    for column, what, dots, line in (("heldout_reward", "held-out", "C0", "C1"),
                                     ("heldout_scrambled", "held-out scrambled", "C2", "C3")):
        tx, held = _evaluations(rows, column)
        if not len(tx):
            continue
        _, ty = heldout_trend(rows, column=column)
        ax.plot(tx, held, "o", color=dots, ms=2, alpha=0.5,
                label=f"{what}: cost decrease, greedy episode")
        ax.plot(tx, ty, "-", color=line, lw=2, label=f"{what}: mean of the last 20 evaluations")
    ax.set_xlabel("training time (min)")
    ax.set_ylabel("gates removed per episode")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    tmp = Path(str(png) + ".tmp.png")
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    os.replace(tmp, png)
