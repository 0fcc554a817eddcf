"""Rotation merging: the X-sign case, merges through CX parities, exact phase, random circuits."""
import random

import numpy as np
import pytest

from quartz import Circuit, Param, QuartzError
from quartz.search.preprocess import infer_style, rotation_merge

from pp_helpers import angle, assert_same_unitary, random_circuit


def test_x_gate_flips_the_sign_quartz_bug_case():
    c = Circuit(2).cx(0, 1).rz(0.3, 1).x(1).rz(0.5, 1).cx(0, 1)
    r = rotation_merge(c)
    rz = [g for g in r if g.name == "rz"]
    assert len(rz) == 1 and abs(angle(rz[0]) - (-0.2)) < 1e-12  # not 0.8
    assert r.count_ops() == {"cx": 2, "rz": 1, "x": 1}
    assert_same_unitary(c, r)


def test_x_sign_exact_angles_and_last_placement():
    c = Circuit(2).cx(0, 1).rz(Param.pi(1, 4), 1).x(1).rz(Param.pi(3, 4), 1).cx(0, 1)
    for placement, expect in (("first", Param.pi(-1, 2)), ("last", Param.pi(1, 2))):
        r = rotation_merge(c, placement=placement)
        (rz,) = [g for g in r if g.name == "rz"]
        assert rz.params[0] == expect  # first sees f, last sees NOT f
        assert_same_unitary(c, r)


def test_merges_across_cx_parity_on_different_wires():
    # q1 holds q0^q1 after cx(0,1); later q0 holds q0^q1 after cx(1,0).
    c = (Circuit(3).cx(0, 1).rz(Param.pi(1, 8), 1).cx(0, 1).h(2)
         .cx(1, 0).rz(Param.pi(1, 8), 0).cx(1, 0))
    r = rotation_merge(c)
    rz = [g for g in r if g.name == "rz"]
    assert len(rz) == 1 and rz[0].params[0] == Param.pi(1, 4) and rz[0].qubits == (1,)
    assert_same_unitary(c, r)


def test_hadamard_separates_rotations():
    c = Circuit(1).rz(0.4, 0).h(0).rz(0.4, 0)
    r = rotation_merge(c)
    assert r.count_ops()["rz"] == 2
    assert_same_unitary(c, r)


def test_opposite_rotations_vanish_and_2pi_becomes_phase():
    c = Circuit(2).rz(Param.pi(1, 3), 0).cx(0, 1).rz(Param.pi(-1, 3), 0)
    assert rotation_merge(c).count_ops() == {"cx": 1}
    d = Circuit(1).rz(Param.pi(1, 1), 0).rz(Param.pi(1, 1), 0)  # rz(2pi) = -I
    r = rotation_merge(d)
    assert len(r) == 0 and r.global_phase == Param.pi(1, 1)
    assert_same_unitary(d, r)


def test_phase_gates_keep_the_global_phase_exactly():
    c = Circuit(2).t(0).cx(0, 1).s(1).x(1).p(Param.pi(1, 3), 1).cx(0, 1).z(0).tdg(0).u1(0.7, 1)
    for style in ("rz", "p", "u1"):
        r = rotation_merge(c, style)
        assert_same_unitary(c, r)
    r = rotation_merge(c, "rz")
    assert set(r.count_ops()) <= {"cx", "x", "rz"}
    exact = Circuit(1).t(0).s(0).x(0).t(0)
    r = rotation_merge(exact, "rz")
    assert r.global_phase.pi_fraction is not None  # exact pi fraction, not a float
    assert_same_unitary(exact, r)


def test_clifford_t_style_writes_t_and_s_gates():
    c = Circuit(2).t(0).cx(1, 0).t(0).cx(1, 0).t(1).x(0).t(0)
    for style, zname in (("t", "z"), ("t_noz", "s")):
        r = rotation_merge(c, style)
        assert set(r.count_ops()) <= {"t", "tdg", "s", "sdg", zname, "cx", "x"}
        assert_same_unitary(c, r)
    # t t on the same parity becomes s.
    r = rotation_merge(Circuit(1).t(0).t(0), "t")
    assert r.count_ops() == {"s": 1}


def test_symbolic_angles_merge_with_sign():
    c = Circuit(1).rz(Param.symbol(0), 0).x(0).rz(Param.symbol(1), 0)
    r = rotation_merge(c)
    (rz,) = [g for g in r if g.name == "rz"]
    assert rz.params[0] == Param.symbol(0) - Param.symbol(1)
    for vals in ([0.3, 1.1], [-2.0, 0.25]):
        assert_same_unitary(c, r, vals)


def test_diagonal_multi_qubit_gates_do_not_block():
    c = Circuit(3).rz(0.5, 2).ccz(0, 1, 2).cz(1, 2).rz(0.25, 2)
    r = rotation_merge(c)
    assert r.count_ops() == {"rz": 1, "ccz": 1, "cz": 1}
    assert_same_unitary(c, r)


@pytest.mark.parametrize("seed", range(150))
def test_random_circuits_keep_the_unitary(seed):
    rng = random.Random(seed)
    n, m = rng.randint(1, 6), rng.randint(1, 60)
    gates = ("h", "x", "rz", "cx") if seed < 100 else ("h", "x", "rz", "cx", "t", "s", "p", "z",
                                                       "swap", "cz", "ccz", "y", "tdg")
    c = random_circuit(rng, n, m, gates)
    for placement in ("first", "last"):
        r = rotation_merge(c, placement=placement)
        assert len(r) <= len(c) or "rz" not in c.count_ops()
        assert_same_unitary(c, r)


def test_infer_style_and_errors():
    assert infer_style(Circuit(1).t(0)) == "t"
    assert infer_style(Circuit(1).u1(0.1, 0)) == "u1"
    assert infer_style(Circuit(1).h(0)) == "rz"
    with pytest.raises(QuartzError, match="rotation style"):
        rotation_merge(Circuit(1), "zz")
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        rotation_merge("h q[0];")
    with pytest.raises(ValueError, match="placement"):
        rotation_merge(Circuit(1), placement="middle")
    assert np.allclose(rotation_merge(Circuit(2)).unitary(), np.eye(4))
