"""The Circuit IR: building, counts, wires, identity, hashing, inverse."""
from __future__ import annotations

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param, QuartzError


def test_build_and_iterate():
    c = Circuit(3).h(0).cx(0, 1).rz(-np.pi / 4, 1).ccz(0, 1, 2)
    assert len(c) == c.gate_count == 4
    assert [g.name for g in c] == ["h", "cx", "rz", "ccz"]
    assert c[1].qubits == (0, 1)
    assert c[2].params == (Param.pi(-1, 4),)
    assert c[-1].name == "ccz"
    with pytest.raises(IndexError):
        c[4]


def test_counts_and_depth():
    c = Circuit(3).h(0).cx(0, 1).t(1).tdg(2).rz("pi/4", 0).rz("pi/2", 0).cx(1, 2).cz(0, 2)
    assert c.cx_count == 2
    assert c.two_qubit_count == 3
    assert c.t_count == 3  # t, tdg, rz(pi/4); rz(pi/2) is not a T
    # depth: h(0)=1, cx(0,1)=2, t(1)=3, tdg(2)=1, rz0=3, rz0=4, cx(1,2)=4, cz(0,2)=5
    assert c.depth == 5
    assert c.count_ops() == {"cx": 2, "rz": 2, "cz": 1, "h": 1, "t": 1, "tdg": 1}
    assert Circuit(2).depth == 0


def test_bad_gates_raise_quartz_error():
    c = Circuit(2)
    with pytest.raises(QuartzError, match="unknown gate 'foo'"):
        c.append("foo", [0])
    with pytest.raises(QuartzError, match="out of range"):
        c.cx(0, 2)
    with pytest.raises(QuartzError, match="used twice"):
        c.cx(1, 1)
    with pytest.raises(QuartzError, match="takes 1 parameter"):
        c.append("rz", [0], [])
    with pytest.raises(QuartzError):
        Circuit(-1)
    assert len(c) == 0


def test_equality_includes_angles_and_phase():
    a = Circuit(2).h(0).rz(0.3, 1).cx(0, 1)
    b = Circuit(2).rz(0.3, 1).h(0).cx(0, 1)  # commuting order differs: same DAG
    assert a == b
    assert hash(a) == hash(b)
    d = Circuit(2).h(0).rz(0.30000000000000004, 1).cx(0, 1)
    assert a != d
    assert a.structural_hash() != d.structural_hash()
    e = a.copy()
    e.global_phase = Param.pi(1, 2)
    assert e != a
    assert Circuit(2).cx(0, 1) != Circuit(2).cx(1, 0)
    assert Circuit(2) != Circuit(3)


def test_hash_includes_angles():
    base = Circuit(1).rz("pi/4", 0)
    other = Circuit(1).rz("pi/8", 0)
    assert base.structural_hash() != other.structural_hash()
    assert base.structural_hash() == Circuit(1).rz("pi*0.25", 0).structural_hash()


def test_inverse_gives_identity():
    rng = np.random.default_rng(1)
    c = Circuit(3)
    for name in quartz.circuit.GATE_NAMES:
        nq, npar, _, _ = quartz._core.gate_info(name)
        qs = [int(q) for q in rng.permutation(3)[:nq]]
        c.append(name, qs, [float(x) for x in rng.uniform(-4, 4, npar)])
    c.global_phase = 0.7
    u = (c + c.inverse()).unitary()
    assert np.allclose(u, np.eye(8), atol=1e-10)
    assert np.allclose(c.inverse().unitary(), c.unitary().conj().T, atol=1e-10)


def test_wires_prev_next():
    c = Circuit(3).h(0).cx(0, 1).t(2).ccz(0, 1, 2).x(1)
    assert c.predecessor(0, 0) is None and c.successor(0, 0) == 1
    assert c.predecessor(1, 0) == 0 and c.predecessor(1, 1) is None
    assert c.successor(1, 0) == 3 and c.successor(1, 1) == 3
    assert [c.predecessor(3, k) for k in range(3)] == [1, 1, 2]
    assert [c.successor(3, k) for k in range(3)] == [None, 4, None]
    assert c.predecessor(4, 0) == 3 and c.successor(4, 0) is None
    prev, nxt = c.native.wire_arrays()
    assert prev.shape == (5, 3) and prev[3].tolist() == [1, 1, 2] and nxt[0].tolist() == [1, -1, -1]
    types, qubits = c.native.gate_arrays()
    assert types.tolist() == [GATE_INDEX[g.name] for g in c]
    assert qubits[3].tolist() == [0, 1, 2] and qubits[0].tolist() == [0, -1, -1]
    with pytest.raises(IndexError):
        c.predecessor(0, 1)  # h has one qubit slot
    with pytest.raises(IndexError):
        c.successor(9, 0)
    c.h(2)  # appending keeps the wire view valid
    assert c.successor(3, 2) == 5 and c.predecessor(5, 0) == 3


GATE_INDEX = {name: i for i, name in enumerate(quartz.circuit.GATE_NAMES)}


def test_canonical_order():
    # Ready gates are taken smallest minimum qubit first, whatever the input order.
    a = Circuit(3).x(2).h(1).cx(1, 2).h(0)
    can = a.canonical()
    assert [(g.name, g.qubits) for g in can] == [("h", (0,)), ("h", (1,)), ("x", (2,)), ("cx", (1, 2))]
    assert can == a and can.canonical() == can and list(can.canonical()) == list(can)
    assert a.native.canonical_order() == [3, 1, 0, 2]
    b = Circuit(3).h(0).h(1).x(2).cx(1, 2)
    assert list(b.canonical()) == list(can) and b.structural_hash() == a.structural_hash()
    # dependent gates keep their order
    c = Circuit(1).h(0).t(0)
    assert [g.name for g in c.canonical()] == ["h", "t"]
    assert c != Circuit(1).t(0).h(0)


def test_copy_add_slice_extend_pickle():
    import pickle

    c = Circuit(2, name="bell").h(0).cx(0, 1).rz(Param.symbol(0), 1)
    c.global_phase = Param.pi(1, 4)
    d = c.copy()
    d.x(0)
    assert len(c) == 3 and len(d) == 4 and d.name == "bell"
    both = c + c
    assert len(both) == 6 and both.global_phase == Param.pi(1, 2)
    part = c[1:3]
    assert [g.name for g in part] == ["cx", "rz"] and part.global_phase == Param()
    assert len(c[5:]) == 0 and [g.name for g in c[:-1]] == ["h", "cx"] and len(c[2:1]) == 0
    with pytest.raises(QuartzError, match="step 1"):
        c[::2]
    e = Circuit(2).extend(list(c))
    assert list(e) == list(c)
    assert c.num_symbols == 1 and Circuit(1).num_symbols == 0
    back = pickle.loads(pickle.dumps(c))
    assert back == c and back.name == "bell"
    assert repr(c) == "Circuit('bell', 2 qubits, 3 gates)"
    assert c.summary() == "2 qubits, 3 gates, 1 cx, 0 T, depth 3 [cx:1 h:1 rz:1]"
    with pytest.raises(QuartzError, match="takes 1 angle"):
        c.rz(0)
    with pytest.raises(AttributeError):
        c.not_a_gate
    with pytest.raises(QuartzError, match="cannot concatenate a 2-qubit and a 1-qubit"):
        c + Circuit(1)


def test_global_phase_must_be_constant():
    c = Circuit(1)
    with pytest.raises(ValueError, match="constant"):
        c.global_phase = Param.symbol(0)
    c.global_phase = "pi/3"
    assert c.global_phase == Param.pi(1, 3)
    assert np.allclose(c.unitary(), np.exp(1j * np.pi / 3) * np.eye(2))


def test_symbolic_unitary():
    c = Circuit(1).rz(Param.symbol(0) + Param.symbol(1, -2), 0)
    assert np.allclose(c.unitary([0.5, 0.2]), Circuit(1).rz(0.1, 0).unitary())
    with pytest.raises(QuartzError, match="no value given for symbol p1"):
        c.unitary([0.5])


def test_qiskit_round_trip_symbols_and_phase():
    from qiskit import QuantumCircuit
    from qiskit.circuit import Parameter
    from qiskit.quantum_info import Operator

    c = Circuit(2).rz(Param.symbol(1), 0).rx(Param.symbol(0, 2) + Param.pi(1, 4), 1).cx(0, 1)
    c.global_phase = Param.pi(-1, 8)
    qc = c.to_qiskit()
    assert sorted(p.name for p in qc.parameters) == ["p0", "p1"]
    assert Circuit.from_qiskit(qc) == c
    t = Parameter("t")
    q2 = QuantumCircuit(1)
    q2.rz(t * 3 - 1.0, 0)
    with pytest.raises(QuartzError, match="not an integer-linear"):
        Circuit.from_qiskit(_rz(t * 0.5))
    with pytest.raises(QuartzError, match="not linear"):
        Circuit.from_qiskit(_rz(t * t))
    assert Circuit.from_qiskit(q2)[0].params[0] == Param.symbol(0, 3) + Param.radians(-1.0)
    # a custom gate is inlined through its definition, phase included
    sub = QuantumCircuit(2, global_phase=0.3, name="mine")
    sub.h(0)
    sub.cx(0, 1)
    outer = QuantumCircuit(3)
    outer.append(sub.to_gate(), [2, 0])
    outer.ccx(0, 1, 2)
    got = Circuit.from_qiskit(outer)
    assert [(g.name, g.qubits) for g in got] == [("h", (2,)), ("cx", (2, 0)), ("ccx", (0, 1, 2))]
    assert np.allclose(got.unitary(), Operator(outer).data)


def _rz(expr):
    from qiskit import QuantumCircuit

    qc = QuantumCircuit(1)
    qc.rz(expr, 0)
    return qc


def test_from_qiskit_rejects_non_unitary():
    from qiskit import QuantumCircuit

    from quartz.qiskit_convert import UnsupportedInstruction

    qc = QuantumCircuit(1, 1)
    qc.h(0)
    qc.barrier()
    qc.measure(0, 0)
    with pytest.raises(UnsupportedInstruction, match="instruction 'measure' \\(operation 2\\)"):
        Circuit.from_qiskit(qc)
    qc = QuantumCircuit(1)
    qc.reset(0)
    with pytest.raises(UnsupportedInstruction, match="'reset'"):
        Circuit.from_qiskit(qc)


def test_global_phase_is_reduced_mod_two_pi():
    c = Circuit(1).h(0)
    for given, kept in [(Param.pi(3), Param.pi(1)), (Param.pi(-1), Param.pi(1)),
                        (Param.pi(15, 8), Param.pi(-1, 8)), (Param.pi(2), Param())]:
        c.global_phase = given
        assert c.global_phase == kept
    assert Circuit(1).h(0) == c
    d = Circuit(1)
    d.global_phase = Param.pi(3, 4)
    assert (d + d).global_phase == Param.pi(-1, 2)
    assert d.inverse().global_phase == Param.pi(-3, 4)


def _random_circuit(rng, n=4, m=30):
    c = Circuit(n)
    names = quartz.circuit.GATE_NAMES
    for _ in range(m):
        name = names[rng.integers(len(names))]
        nq, npar, _, _ = quartz._core.gate_info(name)
        c.append(name, [int(q) for q in rng.permutation(n)[:nq]],
                 [Param.pi(int(k), 4) for k in rng.integers(-8, 9, npar)])
    return c


def _random_topological_order(c, rng):
    """The same DAG with its gates listed in a random topological order."""
    gates = list(c)
    pending = list(range(len(gates)))
    out = Circuit(c.num_qubits)
    while pending:
        # a gate is ready when no earlier pending gate shares a qubit with it
        ready = [i for k, i in enumerate(pending)
                 if not any(set(gates[i].qubits) & set(gates[j].qubits) for j in pending[:k])]
        i = ready[rng.integers(len(ready))]
        pending.remove(i)
        out.append(*gates[i])
    out.global_phase = c.global_phase
    return out


def test_hash_and_equality_ignore_commuting_order_only():
    rng = np.random.default_rng(11)
    for _ in range(40):
        c = _random_circuit(rng)
        d = _random_topological_order(c, rng)
        assert d == c and d.structural_hash() == c.structural_hash()
        assert list(d.canonical()) == list(c.canonical())
        assert np.allclose(d.unitary(), c.unitary())
        # changing one angle or one qubit changes equality and (almost surely) the hash
        i = next((k for k, g in enumerate(c) if g.params), None)
        if i is not None:
            e = Circuit(c.num_qubits)
            for k, g in enumerate(c):
                ps = g.params if k != i else (g.params[0] + Param.pi(1, 8),) + g.params[1:]
                e.append(g.name, g.qubits, ps)
            assert e != c and e.structural_hash() != c.structural_hash()
