"""The QGNN actor-critic: shapes, batching, and edge features influencing node states."""
import quartz
from quartz.rl.agent import torch
from quartz.rl.graph import circuit_to_data
from quartz.rl.model import ActorCritic, ModelConfig, QConv
from torch_geometric.data import Batch


def test_heads_give_per_node_logits_and_values():
    torch.manual_seed(0)
    m = ActorCritic(ModelConfig(num_actions=11, hidden=32, layers=5))
    assert len(m.convs) == 5 and all(isinstance(c, QConv) for c in m.convs)
    c1 = quartz.Circuit(2).h(0).cx(0, 1).rz(0.3, 1)
    c2 = quartz.Circuit(3).cx(0, 2).cx(2, 1)
    logits, values = m(circuit_to_data(c1))
    assert logits.shape == (3, 11) and values.shape == (3,)
    b = Batch.from_data_list([circuit_to_data(c1), circuit_to_data(c2)])
    bl, bv = m(b)
    assert bl.shape == (5, 11) and bv.shape == (5,)
    torch.testing.assert_close(bl[:3], logits, atol=1e-5, rtol=1e-5)  # batching keeps graphs apart


def test_ports_matter():
    torch.manual_seed(0)
    m = ActorCritic(ModelConfig(num_actions=3, hidden=16, layers=2))
    a = circuit_to_data(quartz.Circuit(2).h(0).cx(0, 1))  # h feeds the control
    b = circuit_to_data(quartz.Circuit(2).h(1).cx(0, 1))  # h feeds the target
    assert not torch.allclose(m(a)[1][0], m(b)[1][0])
