"""The incremental DAG environment agrees with the reference one (the matcher on a Circuit)."""
import numpy as np
import pytest

import quartz
from rl_helpers import bench, random_nam_circuit
from quartz.errors import QuartzError
from quartz.rl.dag_env import DagRewriteEnv
from quartz.rl.env import applicable_by_node
from quartz.rl.graph import circuit_arrays


def by_circuit_index(env: DagRewriteEnv) -> dict[int, list[int]]:
    """env.applicable() with positions turned into gate indices of env.circuit."""
    topo = env.core.topo_order().tolist()
    index = {p: i for i, p in enumerate(topo)}
    return dict(sorted((index[p], x) for p, x in env.applicable().items()))


def test_applicable_set_is_the_matchers_after_every_step(nam_matcher):
    """After each step the incremental lists equal a full recomputation on the circuit."""
    rng = np.random.default_rng(2)
    n = len(nam_matcher.transformations)
    circuits = [bench("tof_3"), bench("barenco_tof_3")] + [
        random_nam_circuit(rng, qubits=int(rng.integers(2, 5)), gates=40) for _ in range(4)]
    steps = refreshed = 0
    for c in circuits:
        env = DagRewriteEnv(nam_matcher, "gates", n, max_steps=10**6, max_rise=1e9)
        env.reset(c)
        assert by_circuit_index(env) == applicable_by_node(nam_matcher, c)
        for _ in range(60):
            app = env.applicable()
            if not app:
                break
            pos = list(app)[rng.integers(len(app))]
            before = env.circuit
            res = env.step(pos, app[pos][rng.integers(len(app[pos]))])
            steps += 1
            refreshed += env.core.last_refreshed
            cur = env.circuit
            assert res.reward == pytest.approx(len(before) - len(cur))
            assert env.cost == len(cur) and env.core.num_gates == len(cur)
            assert by_circuit_index(env) == applicable_by_node(nam_matcher, cur)
        np.testing.assert_allclose(env.circuit.unitary(), c.unitary(), atol=1e-8)
    assert steps > 200
    assert refreshed / steps < 60  # a neighbourhood, not the circuit


def test_graph_arrays_are_the_circuits_up_to_gate_order(nam_matcher):
    rng = np.random.default_rng(4)
    n = len(nam_matcher.transformations)
    env = DagRewriteEnv(nam_matcher, "gates", n, max_steps=100)
    env.reset(bench("mod5_4"))
    for _ in range(20):
        app = env.applicable()
        pos = list(app)[rng.integers(len(app))]
        env.step(pos, app[pos][0])
    g, ref = env.graph(), circuit_arrays(env.circuit)
    topo = env.core.topo_order()
    np.testing.assert_array_equal(g.gate_type[topo], ref.gate_type)
    np.testing.assert_allclose(g.angles[topo], ref.angles, atol=1e-6)
    index = np.empty_like(topo)
    index[topo] = np.arange(len(topo))  # position -> gate index
    edges = {(int(index[a]), int(index[b]), *map(int, attr))
             for (a, b), attr in zip(g.edge_index.T, g.edge_attr)}
    want = {(int(a), int(b), *map(int, attr)) for (a, b), attr in zip(ref.edge_index.T, ref.edge_attr)}
    assert edges == want and g.edge_index.shape == ref.edge_index.shape


def test_episode_bounds_stop_and_best(nam_matcher):
    n = len(nam_matcher.transformations)
    c = bench("tof_3")
    env = DagRewriteEnv(nam_matcher, "gates", n, max_steps=3, max_rise=6, min_steps=1)
    env.reset(c)
    assert not env.stop_allowed and env.start_cost == len(c)
    app = env.applicable()
    res = env.step(*next((p, x[0]) for p, x in app.items()))
    assert env.stop_allowed and not res.done and res.circuit is None
    assert env.step(0, env.stop_action).done
    assert env.best is c or env.best_cost < len(c)


def test_unlisted_action_is_refused_and_costs_only_a_step(nam_matcher):
    n = len(nam_matcher.transformations)
    env = DagRewriteEnv(nam_matcher, "gates", n, max_steps=10)
    c = quartz.Circuit(2).h(0).h(0).cx(0, 1)
    env.reset(c)
    app = env.applicable()
    not_here = next(x for x in range(n) if x not in app.get(0, []))
    res = env.step(0, not_here)
    assert res.reward == 0.0 and env.circuit == c and env.steps == 1
    with pytest.raises(IndexError):
        env.step(99, 0)


def test_model_action_mapping(nam_matcher):
    from quartz.rl.actions import RemappedMatcher

    rng = np.random.default_rng(5)
    n = len(nam_matcher.transformations)
    mapping = [int(v) for v in rng.permutation(n)] + [-1]  # model action j = real xfer mapping[j]
    env = DagRewriteEnv(nam_matcher, "gates", n + 1, mapping=mapping)
    c = random_nam_circuit(rng, gates=25)
    env.reset(c)
    rm = RemappedMatcher(nam_matcher, mapping)
    want: dict[int, list[int]] = {}
    for g, a in rm.applicable(c):
        want.setdefault(g, []).append(a)
    assert by_circuit_index(env) == {g: sorted(a) for g, a in sorted(want.items())}
    topo = env.core.topo_order()
    g, a = rm.applicable(c)[0]
    env.step(int(topo[g]), a)
    assert env.circuit == rm.apply(c, g, a)


def test_needs_an_additive_cost(nam_matcher):
    with pytest.raises(QuartzError, match="additive cost"):
        DagRewriteEnv(nam_matcher, "depth", 3)


def test_best_reward_adds_up_to_the_episodes_gain(nam_matcher):
    """reward='best': each step earns how far it gets below the best so far, never < 0; the sum
    over an episode is start cost - best cost; the reference environment agrees step by step."""
    from quartz.rl.env import RewriteEnv, cost_function

    rng = np.random.default_rng(8)
    n = len(nam_matcher.transformations)
    c = bench("barenco_tof_3")
    env = DagRewriteEnv(nam_matcher, "gates", n, max_steps=80, max_rise=4, reward="best")
    ref = RewriteEnv(nam_matcher, cost_function("gates"), n, max_steps=80, max_rise=4,
                     reward="best")
    env.reset(c)
    ref.reset(c)
    total, rewards = 0.0, []
    for _ in range(80):
        app = by_circuit_index(env)
        if not app:
            break
        gate = list(app)[rng.integers(len(app))]
        x = app[gate][rng.integers(len(app[gate]))]
        res = env.step(int(env.core.topo_order()[gate]), x)
        want = ref.step(gate, x)
        assert res.reward == want.reward >= 0 and res.done == want.done
        rewards.append(res.reward)
        total += res.reward
        if res.done:
            break
    assert total == env.start_cost - env.best_cost and len(rewards) > 5
    with pytest.raises(QuartzError, match="unknown reward 'gain'; choose one of step, best"):
        DagRewriteEnv(nam_matcher, "gates", n, reward="gain")
