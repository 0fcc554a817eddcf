"""Acting: pick a node from softmax(critic values / temperature), then a masked transformation.

The default temperature is Quarl's 1/ln(h(N-1)/(1-h)) over the N candidate nodes (h = 0.9).

The node is drawn among gates where the matcher can apply something; the transformation is
drawn from the actor's logits at that node, masked to exactly the matcher's applicable set at
that gate plus the stop action.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from quartz.rl._deps import require_torch
from quartz.rl.graph import GraphArrays, to_data

torch, _ = require_torch()


@dataclass
class Decision:
    """One sampled action and what PPO needs to re-evaluate it."""

    node: int
    action: int
    allowed: np.ndarray  # int64 action indices allowed at the node (applicable xfers + stop)
    logp: float
    value: float


def action_mask(allowed: np.ndarray, num_actions: int):
    """Boolean mask [num_actions] that is True exactly at `allowed`."""
    m = torch.zeros(num_actions, dtype=torch.bool)
    m[torch.as_tensor(allowed, dtype=torch.long)] = True
    return m


def quarl_temperature(num_nodes: int, hit_rate: float = 0.9) -> float:
    """Quarl's node temperature 1/ln(h(N-1)/(1-h)): the best node gets about probability h."""
    x = hit_rate * (num_nodes - 1) / (1 - hit_rate)
    return 1.0 / math.log(x) if x > math.e else 1.0


@torch.no_grad()
def decide(model, arrays: GraphArrays, applicable: dict[int, list[int]], *,
           temperature: float | None = None,
           generator=None, greedy: bool = False, dev=None, allow_stop: bool = True) -> Decision | None:
    """Sample (node, action) for a state; None when no transformation applies anywhere.

    The stop action (the last logit) is allowed unless `allow_stop` is False."""
    if not applicable:
        return None
    data = to_data(arrays)
    if dev is not None:
        data = data.to(dev)
    h = model.node_states(data)
    values = model.values(h).cpu()
    nodes = torch.tensor(list(applicable), dtype=torch.long)
    if temperature is None:
        temperature = quarl_temperature(len(nodes))
    node_scores = values[nodes] / max(temperature, 1e-6)
    if greedy:
        k = int(torch.argmax(node_scores))
    else:
        k = int(torch.multinomial(torch.softmax(node_scores, 0), 1, generator=generator))
    node = int(nodes[k])
    logits = model.logits(h[node]).cpu()  # the actor runs on the chosen node only
    num_actions = logits.shape[0]
    allowed = np.array(applicable[node] + ([num_actions - 1] if allow_stop else []), dtype=np.int64)
    masked = logits.masked_fill(~action_mask(allowed, num_actions), float("-inf"))
    logp = torch.log_softmax(masked, 0)
    if greedy:
        probs = logp.clone()
        probs[num_actions - 1] = float("-inf")  # greedy mode never stops voluntarily
        action = int(torch.argmax(probs))
    else:
        action = int(torch.multinomial(logp.exp(), 1, generator=generator))
    return Decision(node, action, allowed, float(logp[action]), float(values[node]))
