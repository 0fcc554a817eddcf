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
                      restart_from_best=0.0, ppo=PPOConfig(lr=2e-3, epochs=4, minibatch=64))
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
