"""The policy network: QGNN-style message passing with edge features, actor and critic heads.

Quarl's QConv (OOPSLA'24), ported to torch-geometric: each message is
ReLU(W_m [h_neighbour || edge features]); messages are summed and combined with the node's own
state as ReLU(W_u [h_self || sum]). The actor gives per-node logits over the ECC set's
transformations plus a stop action (last column); the critic gives one value per node.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from quartz.rl._deps import require_torch
from quartz.rl.graph import NUM_ANGLE_FEATURES, NUM_EDGE_FEATURES, NUM_GATE_TYPES

torch, _pyg = require_torch()
from torch import nn  # noqa: E402
from torch_geometric.nn import MessagePassing  # noqa: E402


@dataclass
class ModelConfig:
    """Sizes of the network; num_actions = number of transformations + 1 (stop)."""

    num_actions: int
    hidden: int = 64
    layers: int = 4
    gate_types: int = NUM_GATE_TYPES

    def to_dict(self) -> dict:
        return asdict(self)


class QConv(MessagePassing):
    """One message-passing layer: summed MLP(neighbour || edge) messages, combined with self."""

    def __init__(self, hidden: int, edge_dim: int = NUM_EDGE_FEATURES):
        super().__init__(aggr="add")
        self.message_mlp = nn.Sequential(nn.Linear(hidden + edge_dim, hidden), nn.ReLU())
        self.update_mlp = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU())

    def forward(self, h, edge_index, edge_attr):
        agg = self.propagate(edge_index, h=h, edge_attr=edge_attr)
        return self.update_mlp(torch.cat([h, agg], dim=-1))

    def message(self, h_j, edge_attr):
        return self.message_mlp(torch.cat([h_j, edge_attr], dim=-1))


class ActorCritic(nn.Module):
    """GNN trunk with per-node actor logits [n, num_actions] and critic values [n]."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        h = config.hidden
        self.embed = nn.Embedding(config.gate_types, h)
        self.angle_proj = nn.Linear(NUM_ANGLE_FEATURES, h)
        self.convs = nn.ModuleList(QConv(h) for _ in range(config.layers))
        self.actor = nn.Sequential(nn.Linear(h, h), nn.ReLU(), nn.Linear(h, config.num_actions))
        self.critic = nn.Sequential(nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))

    def node_states(self, data):
        """Per-node embeddings after all message-passing layers."""
        h = torch.relu(self.embed(data.x) + self.angle_proj(data.angles))
        for conv in self.convs:
            h = h + conv(h, data.edge_index, data.edge_attr)  # residual keeps deep stacks stable
        return h

    def values(self, h):
        """Critic values [n] from node states."""
        return self.critic(h).squeeze(-1)

    def logits(self, h):
        """Actor logits [n, num_actions] from node states (call it on the chosen nodes only)."""
        return self.actor(h)

    def forward(self, data):
        """(actor logits [n, num_actions], critic values [n]) for a graph or a batch."""
        h = self.node_states(data)
        return self.logits(h), self.values(h)
