"""PPO: GAE by hand, and one update on a fixed batch lowers the loss."""
import copy

import numpy as np
import pytest

import quartz
from quartz.rl.agent import Decision, action_mask, decide, torch
from quartz.rl.graph import circuit_arrays
from quartz.rl.model import ActorCritic, ModelConfig
from quartz.rl.ppo import PPOConfig, gae, make_batch, ppo_loss, ppo_update
from quartz.rl.rollout import Transition


def test_gae_matches_hand_computation():
    r = np.array([1.0, 0.0, 2.0], dtype=np.float32)
    v = np.array([0.5, 0.2, 0.1], dtype=np.float32)
    d = np.array([False, True, True])
    g, lam = 0.9, 0.8
    adv, ret = gae(r, v, d, g, lam)
    d1 = 0.0 - 0.2
    d0 = 1.0 + g * 0.2 - 0.5
    np.testing.assert_allclose(adv, [d0 + g * lam * d1, d1, 2.0 - 0.1], rtol=1e-6)
    np.testing.assert_allclose(ret, adv + v, rtol=1e-6)


def fixed_transitions(model, num_actions, n=24):
    rng = np.random.default_rng(1)
    g = torch.Generator().manual_seed(1)
    out = []
    for k in range(n):
        c = quartz.Circuit(3)
        for _ in range(6):
            a, b = rng.choice(3, 2, replace=False)
            c.h(int(a)) if rng.random() < 0.4 else c.cx(int(a), int(b))
        arrays = circuit_arrays(c)
        applicable = {int(i): sorted(rng.choice(num_actions - 1, 3, replace=False).tolist())
                      for i in rng.choice(len(c), 2, replace=False)}
        d = decide(model, arrays, applicable, generator=g)
        assert isinstance(d, Decision) and d.action in d.allowed
        out.append(Transition(arrays, d.node, d.action, d.allowed, d.logp, d.value,
                              float(rng.normal()), k % 4 == 3))
    return out


def test_one_update_lowers_the_loss():
    torch.manual_seed(0)
    num_actions = 9
    model = ActorCritic(ModelConfig(num_actions, hidden=32, layers=4)).eval()
    trans = fixed_transitions(model, num_actions)
    cfg = PPOConfig(epochs=1, minibatch=len(trans), lr=1e-3)
    rewards = np.array([t.reward for t in trans], dtype=np.float32)
    values = np.array([t.value for t in trans], dtype=np.float32)
    dones = np.array([t.done for t in trans])
    adv, ret = gae(rewards, values, dones, cfg.gamma, cfg.lam)
    batch = make_batch(trans, adv, ret, num_actions)
    with torch.no_grad():
        before, _ = ppo_loss(model, batch, cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    stats = ppo_update(model, opt, trans, num_actions, cfg)
    assert {"loss", "policy", "value", "entropy"} <= set(stats)
    with torch.no_grad():
        after, _ = ppo_loss(model, batch, cfg)
    assert float(after) < float(before)


def test_mask_and_decide_respect_allowed_actions():
    m = action_mask(np.array([0, 4]), 6)
    assert m.tolist() == [True, False, False, False, True, False]
    torch.manual_seed(0)
    model = ActorCritic(ModelConfig(6, hidden=16, layers=2)).eval()
    arrays = circuit_arrays(quartz.Circuit(2).h(0).cx(0, 1).h(1))
    g = torch.Generator().manual_seed(0)
    assert decide(model, arrays, {}) is None
    for _ in range(30):
        d = decide(model, arrays, {2: [1, 3]}, generator=g)
        assert d.node == 2 and d.action in (1, 3, 5) and d.allowed.tolist() == [1, 3, 5]
    for _ in range(10):
        d = decide(model, arrays, {2: [1, 3]}, generator=g, allow_stop=False)
        assert d.allowed.tolist() == [1, 3] and d.action in (1, 3)
    d = decide(model, arrays, {0: [2], 2: [1, 3]}, greedy=True)
    assert d.action != 5  # greedy never picks stop


def test_quarl_temperature_gives_the_best_node_its_hit_rate():
    from quartz.rl.agent import quarl_temperature

    for n in (5, 40, 300):
        t = quarl_temperature(n)
        values = torch.zeros(n)
        values[0] = 1.0
        p = torch.softmax(values / t, 0)
        assert abs(float(p[0]) - 0.9) < 1e-4
    assert quarl_temperature(1) == 1.0


DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.mark.parametrize("dev", DEVICES)
def test_decide_and_update_on_a_device_match_the_cpu(dev):
    # The CUDA path (device chosen once, graphs and batches moved to it) gives what the CPU
    # gives; on a machine without a GPU this runs the same code with an explicit CPU device.
    num_actions = 9
    torch.manual_seed(0)
    ref = ActorCritic(ModelConfig(num_actions, hidden=32, layers=4)).eval()
    on_dev = copy.deepcopy(ref).to(torch.device(dev))
    arrays = circuit_arrays(quartz.Circuit(3).h(0).cx(0, 1).cx(1, 2).h(2).cx(0, 2))
    applicable = {1: [0, 3, 5], 3: [2, 7]}
    a = decide(ref, arrays, applicable, generator=torch.Generator().manual_seed(3))
    b = decide(on_dev, arrays, applicable, generator=torch.Generator().manual_seed(3),
               dev=torch.device(dev))
    assert (a.node, a.action, a.allowed.tolist()) == (b.node, b.action, b.allowed.tolist())
    assert abs(a.logp - b.logp) < 1e-4 and abs(a.value - b.value) < 1e-4
    trans = fixed_transitions(ref, num_actions)
    cfg = PPOConfig(epochs=1, minibatch=len(trans), lr=1e-3)
    st_ref = ppo_update(ref, torch.optim.Adam(ref.parameters(), lr=cfg.lr), trans, num_actions, cfg)
    st_dev = ppo_update(on_dev, torch.optim.Adam(on_dev.parameters(), lr=cfg.lr), trans,
                        num_actions, cfg, dev=torch.device(dev))
    for k in ("loss", "policy", "value", "entropy"):
        assert abs(st_ref[k] - st_dev[k]) < 1e-3, k
    for p, q in zip(ref.parameters(), on_dev.parameters()):
        assert q.device.type == dev
        np.testing.assert_allclose(p.detach().numpy(), q.detach().cpu().numpy(), atol=1e-4)
