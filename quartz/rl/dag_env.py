"""The rewriting environment on the search's working DAG: a step costs O(neighbourhood).

`DagRewriteEnv` has the interface of `quartz.rl.env.RewriteEnv` (which recomputes the whole
applicable set from a Circuit every step and stays as the reference), but keeps the circuit in
`quartz._core.rl.RewriteEnv`: applying a transformation and updating the applicable
(gate, transformation) set touch only the gates within a pattern's reach of the rewrite, and
the GNN's arrays come straight from the DAG. Gates are addressed by position (see
`graph()`), so `applicable()`, `graph()` and `step()` of one state agree with each other.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from quartz import _core
from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.rl.env import EpisodeRules, StepResult, check_reward, step_reward
from quartz.rl.graph import GraphArrays


class DagRewriteEnv(EpisodeRules):
    """One episode of rewriting a circuit with an ECC set's transformations, incrementally.

    `matcher`: a quartz.search.Matcher; `cost`: an additive cost ('gates', 'cx', 't_count',
    a weight dict...); `reward`: 'step' or 'best' (quartz.rl.env.step_reward); `mapping`: model action j is real transformation mapping[j] (-1: none),
    for models trained on a related ECC set (quartz.rl.checkpoint.action_map).
    """

    def __init__(self, matcher, cost, num_xfers: int, max_steps: int = 60,
                 max_rise: float = 6.0, min_steps: int = 0,
                 mapping: Sequence[int] | None = None, reward: str = "step"):
        from quartz.search.costs import get_cost

        self.matcher = matcher
        self.cost_spec = get_cost(cost)
        if not self.cost_spec.spec.additive:
            raise QuartzError(f"the RL environment needs an additive cost (gate weights); "
                              f"{self.cost_spec.name!r} is not")
        self.reward = check_reward(reward)
        self.num_xfers = num_xfers
        self.max_steps, self.max_rise, self.min_steps = max_steps, max_rise, min_steps
        self.to_real = None if mapping is None else np.asarray(mapping, dtype=np.int64)
        self.to_model = None
        if self.to_real is not None:
            self.to_model = np.full(len(matcher.transformations), -1, dtype=np.int64)
            ok = self.to_real >= 0
            self.to_model[self.to_real[ok]] = np.nonzero(ok)[0]
        self.core: _core.rl.RewriteEnv | None = None
        self.start_cost = self.cost = self.best_cost = 0.0
        self.steps = 0
        self.best: Circuit | None = None  # the cheapest circuit of the episode so far

    def reset(self, circuit: Circuit) -> Circuit:
        """Start an episode at `circuit`."""
        if self.core is None:
            self.core = _core.rl.RewriteEnv(self.matcher.native, circuit.native, self.cost_spec.spec)
        else:
            self.core.reset(circuit.native)
        self.start_cost = self.cost = self.best_cost = float(self.core.cost)
        self.best = circuit
        self.steps = 0
        return circuit

    @property
    def circuit(self) -> Circuit:
        """The current circuit (built from the DAG, O(n))."""
        return Circuit._wrap(self.core.circuit())

    def graph(self) -> GraphArrays:
        """The GNN's arrays of the current state, gates in position order."""
        return GraphArrays(*self.core.graph())

    def applicable(self) -> dict[int, list[int]]:
        """Position -> applicable actions (model indices), for positions with at least one."""
        nodes, offsets, xfers = self.core.applicable()
        if self.to_model is not None:
            xfers = self.to_model[xfers]
        out: dict[int, list[int]] = {}
        for k, node in enumerate(nodes.tolist()):
            acts = xfers[offsets[k]:offsets[k + 1]]
            if self.to_model is not None:
                acts = np.sort(acts[acts >= 0])
                if not len(acts):
                    continue
            out[node] = acts.tolist()
        return out

    def step(self, gate: int, action: int) -> StepResult:
        """Apply `action` at position `gate` (or stop) and return the outcome (its `circuit` is
        None: read `env.circuit` when it is needed)."""
        self.steps += 1
        if action == self.stop_action:
            return StepResult(None, self.cost, 0.0, True)
        real = action if self.to_real is None else int(self.to_real[action])
        applied, delta = self.core.step(gate, real) if real >= 0 else (False, 0.0)
        if not applied:  # listed, but a far rewrite changed its convexity: the list is fixed
            return StepResult(None, self.cost, 0.0, self.steps >= self.max_steps)
        new_cost = self.cost + delta
        reward = step_reward(self.reward, self.cost, self.best_cost, new_cost)
        self.cost = new_cost
        if new_cost < self.best_cost - 1e-12:
            self.best_cost, self.best = new_cost, self.circuit
        done = self.steps >= self.max_steps or new_cost > self.start_cost + self.max_rise
        return StepResult(None, new_cost, reward, done)
