"""Rollout workers: processes that each hold a matcher and a model copy and play episodes."""
from __future__ import annotations

import io

import numpy as np

from quartz.pools import spawn_context
from quartz.rl.agent import torch
from quartz.rl.dag_env import DagRewriteEnv
from quartz.rl.model import ActorCritic, ModelConfig
from quartz.rl.rollout import Episode, run_episode
from quartz.rl.scramble import scramble

_W: dict = {}


def make_env(transformations, cost, max_steps: int, max_rise: float,
             min_steps: int = 0, reward: str = "step") -> DagRewriteEnv:
    """An environment over the real matcher for these transformations and cost."""
    from quartz.search import Matcher

    return DagRewriteEnv(Matcher(transformations), cost, len(transformations),
                         max_steps, max_rise, min_steps, reward=reward)


def _init(transformations, cost, max_steps, max_rise, min_steps, reward, config: dict) -> None:
    torch.set_num_threads(1)
    _W["env"] = make_env(transformations, cost, max_steps, max_rise, min_steps, reward)
    _W["model"] = ActorCritic(ModelConfig(**config)).eval()


def _episode(model, env, job: tuple, dev=None) -> Episode:
    """Play one job (circuit_index, circuit, seed, temperature[, scramble moves])."""
    circuit_index, circuit, seed, temperature = job[:4]
    moves = job[4] if len(job) > 4 else 0
    if moves:  # the start scrambled first, from its own stream of the job's seed
        circuit = scramble(env, circuit, moves, np.random.default_rng([seed, 1]))
    g = torch.Generator().manual_seed(seed)
    return run_episode(model, env, circuit, circuit_index=circuit_index,
                       temperature=temperature, generator=g, dev=dev)


def _play(job) -> Episode:
    weights, *rest = job
    model = _W["model"]
    if weights is not None:
        model.load_state_dict(torch.load(io.BytesIO(weights), weights_only=True))
    return _episode(model, _W["env"], tuple(rest))


class RolloutPool:
    """Plays batches of episodes, in `workers` processes (or in-process when workers <= 1)."""

    def __init__(self, workers: int, transformations, cost, max_steps: int, max_rise: float,
                 config: ModelConfig, min_steps: int = 0, reward: str = "step"):
        self.workers = workers
        args = (transformations, cost, max_steps, max_rise, min_steps, reward, config.to_dict())
        if workers > 1:
            # spawned; they run the caller's __main__ only where it can be run (not from
            # stdin), so a cost function defined in a script reaches them
            self.pool = spawn_context(keep_main=True).Pool(workers, initializer=_init,
                                                           initargs=args)
        else:
            self.pool = None
            self.env = make_env(*args[:6])

    def play(self, model, jobs: list[tuple], dev=None) -> list[Episode]:
        """Run jobs (circuit_index, circuit, seed, temperature[, scramble moves]) with the
        model's current weights; a job with scramble moves starts from a scrambled copy of its
        circuit (quartz.rl.scramble)."""
        if self.pool is None:
            return [_episode(model, self.env, job, dev) for job in jobs]
        buf = io.BytesIO()
        torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, buf)
        weights = buf.getvalue()
        return self.pool.map(_play, [(weights, *j) for j in jobs], chunksize=1)

    def close(self) -> None:
        """Stop the worker processes."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
