"""The reference rewriting environment: a circuit state, the matcher's applicable set, bounded
episodes. The agent uses quartz.rl.dag_env.DagRewriteEnv, the same environment kept
incrementally on the search's DAG; this one recomputes everything from a Circuit every step
and is what the tests compare it with.

An action is (gate index, transformation index) or (gate index, stop). The reward is the cost
decrease of the step. An episode ends on stop, when nothing applies, after `max_steps`, or
when the cost rises more than `max_rise` above the start (Quarl bounds it by 6 gates). Stop is
only offered after `min_steps` steps: otherwise PPO quickly learns to stop at once, since on
already-simplified circuits almost every first move raises the cost.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from quartz.circuit import Circuit


def cost_function(cost) -> Callable[[Circuit], float]:
    """The number the agent lowers for a cost spec: quartz.search's cost (with tie-breaks)."""
    from quartz.search.costs import get_cost

    return get_cost(cost).search_value


def applicable_by_node(matcher, circuit: Circuit) -> dict[int, list[int]]:
    """Gate index -> sorted transformation indices that the matcher can apply there."""
    out: dict[int, list[int]] = {}
    for gate, xfer in matcher.applicable(circuit):
        out.setdefault(int(gate), []).append(int(xfer))
    return {g: sorted(set(x)) for g, x in sorted(out.items())}


@dataclass
class StepResult:
    """What one step did: the new circuit and cost, the reward, and whether the episode ended."""

    circuit: Circuit
    cost: float
    reward: float
    done: bool


REWARDS = ("step", "best")


def check_reward(reward: str) -> str:
    """`reward` when it is one of REWARDS, else a QuartzError naming them."""
    if reward not in REWARDS:
        from quartz.errors import QuartzError

        raise QuartzError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
    return reward


def step_reward(kind: str, cost: float, best: float, new_cost: float) -> float:
    """A step's reward: 'step' is the cost decrease of the step (negative when it rises);
    'best' is how far the step gets below the episode's best so far (0 when it does not), so
    an episode's rewards add up to start cost - best cost, the gain optimize_rl keeps, and
    moves that raise the cost on the way to a better circuit cost nothing."""
    if kind == "best":
        return max(0.0, best - new_cost)
    return cost - new_cost


class EpisodeRules:
    """The stop action's index and when it is offered (both environments share them)."""

    num_xfers: int
    steps: int
    min_steps: int

    @property
    def stop_action(self) -> int:
        return self.num_xfers

    @property
    def stop_allowed(self) -> bool:
        """Whether the stop action is available now (after `min_steps` steps)."""
        return self.steps >= self.min_steps


@dataclass
class RewriteEnv(EpisodeRules):
    """One episode of rewriting a circuit with an ECC set's transformations."""

    matcher: object
    cost_fn: Callable[[Circuit], float]
    num_xfers: int
    max_steps: int = 60
    max_rise: float = 6.0
    min_steps: int = 0  # steps before the stop action becomes available
    reward: str = "step"  # step_reward's kind
    circuit: Circuit = field(init=False, default=None)
    start_cost: float = field(init=False, default=0.0)
    cost: float = field(init=False, default=0.0)
    steps: int = field(init=False, default=0)
    best: Circuit = field(init=False, default=None)
    best_cost: float = field(init=False, default=0.0)

    def reset(self, circuit: Circuit) -> Circuit:
        """Start an episode at `circuit`."""
        self.circuit = circuit
        self.start_cost = self.cost = self.best_cost = float(self.cost_fn(circuit))
        self.best = circuit
        self.steps = 0
        return circuit

    def applicable(self) -> dict[int, list[int]]:
        """Applicable transformations of the current circuit, by gate."""
        return applicable_by_node(self.matcher, self.circuit)

    def graph(self):
        """The GNN's arrays of the current circuit (quartz.rl.graph.circuit_arrays)."""
        from quartz.rl.graph import circuit_arrays

        return circuit_arrays(self.circuit)

    def step(self, gate: int, action: int) -> StepResult:
        """Apply transformation `action` at `gate` (or stop) and return the outcome."""
        self.steps += 1
        if action == self.stop_action:
            return StepResult(self.circuit, self.cost, 0.0, True)
        new = self.matcher.apply(self.circuit, gate, action)
        if new is None:  # the mask comes from the matcher, so this means a matcher bug
            raise RuntimeError(f"matcher reported transformation {action} at gate {gate} "
                               "as applicable but could not apply it")
        new_cost = float(self.cost_fn(new))
        reward = step_reward(check_reward(self.reward), self.cost, self.best_cost, new_cost)
        self.circuit, self.cost = new, new_cost
        if new_cost < self.best_cost:
            self.best, self.best_cost = new, new_cost
        done = self.steps >= self.max_steps or new_cost > self.start_cost + self.max_rise
        return StepResult(new, new_cost, reward, done)
