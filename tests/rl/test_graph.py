"""The circuit graph: one node per gate, one edge per wire segment each way, port features."""
import math

import numpy as np

import quartz
from quartz.circuit import GATE_NAMES
from quartz.rl.graph import circuit_arrays, circuit_to_data


def hand_circuit():
    return quartz.Circuit(3).h(0).cx(0, 1).rz(math.pi / 4, 1).cx(1, 2).ccx(0, 1, 2)


def test_one_node_per_gate_with_types_and_angles():
    d = circuit_to_data(hand_circuit())
    assert d.num_nodes == 5
    assert [GATE_NAMES[i] for i in d.x.tolist()] == ["h", "cx", "rz", "cx", "ccx"]
    ang = d.angles.numpy()
    np.testing.assert_allclose(ang[2, [0, 3]], [math.cos(math.pi / 4), math.sin(math.pi / 4)],
                               atol=1e-6)
    assert not ang[[0, 1, 3, 4]].any()  # gates without angles have zero angle features


def test_edges_are_wire_segments_both_ways_with_ports():
    d = circuit_to_data(hand_circuit())
    edges = {(s, t, *map(int, a)) for (s, t), a in zip(d.edge_index.t().tolist(), d.edge_attr)}
    forward = {  # (src gate, dst gate, src port, dst port, reversed)
        (0, 1, 0, 0, 0),  # h q0 -> cx(0,1) control
        (1, 4, 0, 0, 0),  # cx(0,1) q0 -> ccx slot 0
        (1, 2, 1, 0, 0),  # cx(0,1) q1 -> rz
        (2, 3, 0, 0, 0),  # rz q1 -> cx(1,2) control
        (3, 4, 0, 1, 0),  # cx(1,2) q1 -> ccx slot 1
        (3, 4, 1, 2, 0),  # cx(1,2) q2 -> ccx slot 2
    }
    backward = {(t, s, tp, sp, 1) for s, t, sp, tp, _ in forward}
    assert edges == forward | backward
    assert d.edge_index.shape == (2, 12) and d.edge_attr.shape == (12, 3)


def test_arrays_of_empty_and_unconnected_circuits():
    a = circuit_arrays(quartz.Circuit(2))
    assert a.num_nodes == 0 and a.edge_index.shape == (2, 0)
    b = circuit_arrays(quartz.Circuit(2).h(0).x(1))
    assert b.num_nodes == 2 and b.edge_index.shape == (2, 0)
