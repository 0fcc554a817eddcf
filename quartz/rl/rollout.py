"""Rollouts: run one episode with the current policy and record PPO transitions."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from quartz.circuit import Circuit
from quartz.rl.agent import decide, torch
from quartz.rl.dag_env import DagRewriteEnv
from quartz.rl.env import RewriteEnv
from quartz.rl.graph import GraphArrays


@dataclass
class Transition:
    """One step of an episode, as PPO consumes it."""

    graph: GraphArrays
    node: int
    action: int
    allowed: np.ndarray
    logp: float
    value: float
    reward: float
    done: bool


@dataclass
class Episode:
    """The transitions of one episode plus its outcome."""

    circuit_index: int
    transitions: list[Transition] = field(default_factory=list)
    start_cost: float = 0.0
    best_cost: float = 0.0
    best: Circuit | None = None

    @property
    def total_reward(self) -> float:
        return float(sum(t.reward for t in self.transitions))


def run_episode(model, env: DagRewriteEnv | RewriteEnv, circuit: Circuit, *, circuit_index: int = 0,
                temperature: float | None = None, generator=None, greedy: bool = False,
                dev=None, deadline: float | None = None) -> Episode:
    """Play one episode from `circuit`; returns its transitions and the best circuit seen."""
    env.reset(circuit)
    ep = Episode(circuit_index, start_cost=env.start_cost)
    while deadline is None or time.monotonic() < deadline:
        applicable = env.applicable()
        arrays = env.graph()
        d = decide(model, arrays, applicable, temperature=temperature, generator=generator,
                   greedy=greedy, dev=dev, allow_stop=env.stop_allowed)
        if d is None:
            if ep.transitions:
                ep.transitions[-1].done = True
            break
        res = env.step(d.node, d.action)
        ep.transitions.append(Transition(arrays, d.node, d.action, d.allowed, d.logp, d.value,
                                         res.reward, res.done))
        if res.done:
            break
    if ep.transitions:
        ep.transitions[-1].done = True
    ep.best_cost, ep.best = env.best_cost, env.best
    return ep


def random_episode(env: DagRewriteEnv | RewriteEnv, circuit: Circuit, rng: np.random.Generator) -> float:
    """Total reward of one episode under the uniform random policy (a baseline)."""
    env.reset(circuit)
    total = 0.0
    while True:
        applicable = env.applicable()
        if not applicable:
            return total
        node = list(applicable)[rng.integers(len(applicable))]
        choices = applicable[node] + ([env.stop_action] if env.stop_allowed else [])
        res = env.step(node, choices[rng.integers(len(choices))])
        total += res.reward
        if res.done:
            return total


__all__ = ["Transition", "Episode", "run_episode", "random_episode", "torch"]
