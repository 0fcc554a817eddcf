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
