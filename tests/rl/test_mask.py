"""The action mask is exactly the matcher's applicable set; env steps follow the matcher."""
import numpy as np

from rl_helpers import random_nam_circuit
from quartz.rl.agent import decide, torch
from quartz.rl.env import RewriteEnv, applicable_by_node, cost_function
from quartz.rl.graph import circuit_arrays
from quartz.rl.model import ActorCritic, ModelConfig


def test_mask_equals_matcher_applicable_set(nam_matcher):
    rng = np.random.default_rng(7)
    n = len(nam_matcher.transformations)
    torch.manual_seed(0)
    model = ActorCritic(ModelConfig(n + 1, hidden=16, layers=2)).eval()
    g = torch.Generator().manual_seed(0)
    seen = 0
    for _ in range(12):
        c = random_nam_circuit(rng, qubits=int(rng.integers(2, 5)), gates=int(rng.integers(5, 30)))
        by_node = applicable_by_node(nam_matcher, c)
        per_gate = {i: sorted(nam_matcher.applicable_at(c, i)) for i in range(len(c))}
        assert by_node == {i: x for i, x in per_gate.items() if x}
        d = decide(model, circuit_arrays(c), by_node, generator=g)
        if d is None:
            assert not by_node
            continue
        seen += 1
        assert d.allowed.tolist() == per_gate[d.node] + [n]  # applicable set plus stop
        assert d.action in d.allowed
    assert seen >= 8


def test_env_step_reward_is_cost_decrease(nam_matcher):
    rng = np.random.default_rng(3)
    c = random_nam_circuit(rng, gates=25)
    n = len(nam_matcher.transformations)
    env = RewriteEnv(nam_matcher, cost_function("gates"), n, max_steps=5, max_rise=6)
    env.reset(c)
    by_node = env.applicable()
    gate, xfers = next(iter(by_node.items()))
    res = env.step(gate, xfers[0])
    expected = nam_matcher.apply(c, gate, xfers[0])
    assert res.circuit == expected and res.reward == len(c) - len(expected)
    assert env.step(0, env.stop_action).done
    env2 = RewriteEnv(nam_matcher, cost_function("gates"), n, max_steps=5, min_steps=2)
    env2.reset(c)
    assert not env2.stop_allowed
    g2, x2 = next(iter(env2.applicable().items()))
    env2.step(g2, x2[0])
    env2.step(*next((g, x[0]) for g, x in env2.applicable().items()))
    assert env2.stop_allowed


def test_remapped_matcher_speaks_model_actions(nam_matcher):
    from quartz.rl.actions import RemappedMatcher

    rng = np.random.default_rng(5)
    n = len(nam_matcher.transformations)
    mapping = list(rng.permutation(n)) + [-1]  # model action j = real xfer mapping[j]
    rm = RemappedMatcher(nam_matcher, mapping)
    c = random_nam_circuit(rng, gates=25)
    pairs = rm.applicable(c)
    assert sorted((g, mapping[a]) for g, a in pairs) == sorted(nam_matcher.applicable(c))
    g, a = pairs[0]
    assert a in rm.applicable_at(c, g)
    assert rm.apply(c, g, a) == nam_matcher.apply(c, g, mapping[a])
    assert rm.apply(c, g, n) is None
