"""PPO: generalized advantage estimation and the clipped-objective update with entropy bonus."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from quartz.rl._deps import require_torch
from quartz.rl.graph import to_data
from quartz.rl.rollout import Transition

torch, _ = require_torch()
from torch_geometric.data import Batch  # noqa: E402


@dataclass
class PPOConfig:
    """PPO hyper-parameters."""

    gamma: float = 0.95
    lam: float = 0.9
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.02  # Quarl's
    lr: float = 3e-4
    epochs: int = 3
    minibatch: int = 64
    max_grad_norm: float = 1.0


def gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float,
        lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(advantages, returns) for a sequence of steps (episodes separated by `dones`)."""
    n = len(rewards)
    adv = np.zeros(n, dtype=np.float32)
    last = 0.0
    for t in range(n - 1, -1, -1):
        nonterminal = 0.0 if dones[t] else 1.0
        next_value = values[t + 1] if t + 1 < n else 0.0
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values.astype(np.float32)


@dataclass
class PPOBatch:
    """Tensors of a set of transitions, ready for `ppo_loss`."""

    graphs: object
    index: object      # global node index of each chosen node in the batched graph
    mask: object       # bool [B, num_actions]
    actions: object
    old_logp: object
    advantages: object
    returns: object


def make_batch(transitions: list[Transition], advantages: np.ndarray, returns: np.ndarray,
               num_actions: int, dev=None) -> PPOBatch:
    """Collate transitions into one torch_geometric batch plus per-step tensors."""
    graphs = Batch.from_data_list([to_data(t.graph) for t in transitions])
    offsets = graphs.ptr[:-1]
    nodes = torch.tensor([t.node for t in transitions], dtype=torch.long)
    mask = torch.zeros(len(transitions), num_actions, dtype=torch.bool)
    rows = np.concatenate([np.full(len(t.allowed), i) for i, t in enumerate(transitions)])
    cols = np.concatenate([t.allowed for t in transitions])
    mask[torch.from_numpy(rows), torch.from_numpy(cols)] = True
    b = PPOBatch(graphs, offsets + nodes, mask,
               torch.tensor([t.action for t in transitions], dtype=torch.long),
               torch.tensor([t.logp for t in transitions], dtype=torch.float32),
               torch.as_tensor(advantages, dtype=torch.float32),
               torch.as_tensor(returns, dtype=torch.float32))
    if dev is not None:
        for k, v in vars(b).items():
            setattr(b, k, v.to(dev))
    return b


def ppo_loss(model, b: PPOBatch, cfg: PPOConfig):
    """(total loss, stats dict) of the clipped PPO objective on a batch."""
    h = model.node_states(b.graphs)[b.index]  # chosen nodes only
    sel = model.logits(h).masked_fill(~b.mask, float("-inf"))
    logp_all = torch.log_softmax(sel, dim=-1)
    logp = logp_all.gather(1, b.actions[:, None]).squeeze(1)
    p = logp_all.exp()
    entropy = -(p * logp_all.masked_fill(~b.mask, 0.0)).sum(-1).mean()
    adv = b.advantages
    if adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ratio = torch.exp(logp - b.old_logp)
    policy = -torch.min(ratio * adv, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
    value = ((model.values(h) - b.returns) ** 2).mean()
    loss = policy + cfg.value_coef * value - cfg.entropy_coef * entropy
    return loss, {"policy": policy.item(), "value": value.item(), "entropy": entropy.item()}


def ppo_update(model, optimizer, transitions: list[Transition], num_actions: int, cfg: PPOConfig,
               generator: np.random.Generator | None = None, dev=None) -> dict:
    """Run `cfg.epochs` of minibatch PPO on the transitions; returns mean stats."""
    if not transitions:
        return {}
    rewards = np.array([t.reward for t in transitions], dtype=np.float32)
    values = np.array([t.value for t in transitions], dtype=np.float32)
    dones = np.array([t.done for t in transitions], dtype=bool)
    adv, ret = gae(rewards, values, dones, cfg.gamma, cfg.lam)
    rng = generator or np.random.default_rng(0)
    stats: dict[str, list[float]] = {}
    model.train()
    for _ in range(cfg.epochs):
        order = rng.permutation(len(transitions))
        for start in range(0, len(order), cfg.minibatch):
            idx = order[start:start + cfg.minibatch]
            b = make_batch([transitions[i] for i in idx], adv[idx], ret[idx], num_actions, dev)
            loss, st = ppo_loss(model, b, cfg)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
            optimizer.step()
            st["loss"] = loss.item()
            for k, v in st.items():
                stats.setdefault(k, []).append(v)
    model.eval()
    return {k: float(np.mean(v)) for k, v in stats.items()}
