"""A short seeded PPO run on tof_3 beats the random policy's mean episode reward."""
import numpy as np

from rl_helpers import bench
from quartz.rl.agent import torch
from quartz.rl.env import RewriteEnv, cost_function
from quartz.rl.ppo import PPOConfig
from quartz.rl.rollout import random_episode, run_episode
from quartz.rl.train import TrainConfig, train


def test_training_beats_random_policy(nam_ecc, nam_matcher, tmp_path):
    circ = bench("tof_3")
    cfg = TrainConfig(hidden=32, layers=4, max_steps=6, min_steps=3, episodes_per_iter=8,
                      restart_from_best=0.0, reward="step",  # the reward compared below
                      ppo=PPOConfig(lr=2e-3, epochs=4, minibatch=64))
    res = train([circ], nam_ecc, minutes=5, max_iterations=4, seed=0, workers=1, config=cfg,
                output=tmp_path / "m.pt", progress=False)
    assert (tmp_path / "m.pt").is_file() and res.meta["episodes"] == 32
    n = len(nam_matcher.transformations)
    env = RewriteEnv(nam_matcher, cost_function("gates"), n, max_steps=cfg.max_steps,
                     max_rise=6, min_steps=cfg.min_steps)  # both policies in the training env
    rng = np.random.default_rng(0)
    random_mean = np.mean([random_episode(env, circ, rng) for _ in range(16)])
    g = torch.Generator().manual_seed(1)
    trained_mean = np.mean([run_episode(res.model, env, circ, generator=g).total_reward
                            for _ in range(16)])
    assert trained_mean > random_mean, (trained_mean, random_mean)
    assert res.history[-1]["best_costs"]["tof_3"] <= len(circ)


def test_log_heldout_reward_and_learning_curve(nam_ecc, tmp_path):
    """The CSV log gets a row per iteration (plus the untrained score), the held-out reward at
    the start, every eval_every iterations and at the end; a resumed run appends to it."""
    from quartz.rl.learning_curve import plot_learning_curve, read_log

    cfg = TrainConfig(hidden=16, layers=2, max_steps=6, min_steps=3, episodes_per_iter=4,
                      ppo=PPOConfig(epochs=1, minibatch=32))
    log, model = tmp_path / "train.csv", tmp_path / "m.pt"
    held = [bench("tof_4"), bench("barenco_tof_3")]
    train([bench("tof_3")], nam_ecc, minutes=5, max_iterations=3, seed=0, workers=1, config=cfg,
          output=model, progress=False, heldout=held, eval_every=2, log=log)
    rows = read_log(log)
    assert [int(r["iteration"]) for r in rows] == [0, 1, 2, 3]
    scored = [int(r["iteration"]) for r in rows if not np.isnan(r["heldout_reward"])]
    assert scored == [0, 2, 3]
    # a greedy episode's best is never above its start, so the score is a gain >= 0
    assert all(r["heldout_reward"] >= 0 for r in rows if not np.isnan(r["heldout_reward"]))
    assert rows[-1]["episodes"] == 12 and rows[-1]["train_seconds"] > 0
    train([bench("tof_3")], nam_ecc, minutes=5, max_iterations=1, seed=1, workers=1, config=cfg,
          output=model, resume=model, progress=False, heldout=held, eval_every=2, log=log)
    rows = read_log(log)
    assert [int(r["iteration"]) for r in rows] == [0, 1, 2, 3, 4]  # no second iteration-0 row
    assert rows[-1]["train_seconds"] >= rows[-2]["train_seconds"]
    png = tmp_path / "curve.png"
    plot_learning_curve(log, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_heldout_trend_is_the_running_mean_of_the_evaluations():
    from quartz.rl.learning_curve import heldout_trend

    nan = float("nan")
    rows = [{"train_seconds": 60.0 * i, "heldout_reward": v}
            for i, v in enumerate([0.0, nan, 1.0, 2.0, nan, 0.0, 3.0])]
    x, y = heldout_trend(rows, window=2)
    np.testing.assert_allclose(x, [0, 2, 3, 5, 6])
    np.testing.assert_allclose(y, [0.0, 0.5, 1.5, 1.0, 1.5])
    x, y = heldout_trend(rows)  # window 20: the mean of all so far
    np.testing.assert_allclose(y, [0.0, 0.5, 1.0, 0.75, 1.2])


def test_training_keeps_the_model_with_the_best_heldout_running_mean(nam_ecc, tmp_path,
                                                                       monkeypatch):
    """The shipped Nam model came from a low point of its learning curve; train() now also
    writes OUTPUT.best.pt whenever the held-out running mean is the best so far."""
    import quartz.rl.learning_curve as lc
    from quartz.rl.checkpoint import load_checkpoint
    from quartz.rl.train import best_path

    scores = iter([0.0, 1.0, 3.0, 0.0, 0.0, 0.0])
    monkeypatch.setattr(lc, "heldout_reward", lambda *a, **k: next(scores))
    cfg = TrainConfig(hidden=8, layers=1, max_steps=4, min_steps=2, episodes_per_iter=2,
                      best_window=2, scramble_moves=0, ppo=PPOConfig(epochs=1, minibatch=16))
    out = tmp_path / "m.pt"
    train([bench("tof_3")], nam_ecc, minutes=5, max_iterations=5, seed=0, workers=1, config=cfg,
          output=out, progress=False, heldout=[bench("tof_4")], eval_every=1)
    best = best_path(out)
    assert best == tmp_path / "m.best.pt"
    _, meta, opt = load_checkpoint(best)
    # scores of iterations 1..5: 0, 1, 3, 0, 0; running means over 2: 0, 0.5, 2, 1.5, 0
    assert opt is None and meta["heldout_best_mean"] == 2.0 and meta["iterations"] == 3
    _, last, _ = load_checkpoint(out)
    assert last["iterations"] == 5 and last["heldout_best_iteration"] == 3


def test_scrambled_heldout_copies_are_scored_logged_and_count_for_the_best(nam_ecc, tmp_path,
                                                                           monkeypatch):
    """With scrambled starts, every evaluation scores the held-out circuits as given and their
    scrambled copies (logged as heldout_scrambled, drawn as a second curve); the best model is
    kept by the sum of the two."""
    import quartz.rl.learning_curve as lc
    from quartz.rl.checkpoint import load_checkpoint
    from quartz.rl.learning_curve import plot_learning_curve, read_log
    from quartz.rl.train import best_path

    held = [bench("tof_4")]
    seen = []

    def fake(model, env, circuits, dev=None):
        seen.append([len(c) for c in circuits])
        return [0.0, 0.0, 1.0, 4.0, 0.0, 0.0][len(seen) - 1]  # plain, scrambled per evaluation

    monkeypatch.setattr(lc, "heldout_reward", fake)
    cfg = TrainConfig(hidden=8, layers=1, max_steps=4, min_steps=2, episodes_per_iter=2,
                      best_window=1, scramble_moves=6, scramble_share=1.0,
                      ppo=PPOConfig(epochs=1, minibatch=16))
    out, log = tmp_path / "m.pt", tmp_path / "t.csv"
    train([bench("tof_3")], nam_ecc, minutes=5, max_iterations=2, seed=0, workers=1, config=cfg,
          output=out, progress=False, heldout=held, eval_every=1, log=log)
    # iteration 0 (log only), 1 and 2: each the circuit as given, then its scrambled copy
    assert len(seen) == 6 and all(p == [len(held[0])] for p in seen[0::2])
    assert all(s[0] > len(held[0]) for s in seen[1::2])  # scrambled: more gates
    rows = read_log(log)
    assert [r["heldout_scrambled"] for r in rows] == [0.0, 4.0, 0.0]
    assert [r["heldout_reward"] for r in rows] == [0.0, 1.0, 0.0]
    _, meta, _ = load_checkpoint(best_path(out))
    assert meta["heldout_best_mean"] == 5.0 and meta["iterations"] == 1
    plot_learning_curve(log, tmp_path / "c.png")
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
