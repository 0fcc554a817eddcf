"""Compute/uncompute Toffoli pairs as Margolus gates (quartz.search.preprocess.relative_phase)."""
from __future__ import annotations

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.search.preprocess import preprocess
from quartz.search.preprocess.relative_phase import margolus, relative_phase_toffolis

from pp_helpers import BENCH, assert_same_unitary


def test_margolus_is_a_toffoli_times_a_diagonal():
    m = Circuit(3).extend(margolus(0, 1, 2)).unitary()
    d = m @ Circuit(3).ccx(0, 1, 2).unitary().conj().T
    assert np.allclose(d, np.diag(np.diag(d)), atol=1e-12)
    assert not np.allclose(d, np.eye(8) * d[0, 0])  # a real relative phase, not a global one


def _toffoli_hccz(c: Circuit, a: int, b: int, t: int) -> Circuit:
    return c.h(t).ccz(a, b, t).h(t)


@pytest.mark.parametrize("middle", [
    lambda c: c.cx(2, 3),                     # target used as a control
    lambda c: c.rz(0.3, 0).cx(1, 3).t(2),     # rotations and controls on all three wires
    lambda c: c.ccz(0, 2, 3),
    lambda c: _toffoli_hccz(c, 2, 3, 4),      # a nested Toffoli controlled by the target
])
def test_pairs_become_margolus_and_the_unitary_is_unchanged(middle):
    c = _toffoli_hccz(Circuit(5), 0, 1, 2)
    middle(c)
    _toffoli_hccz(c, 1, 0, 2)                 # same Toffoli, controls listed the other way
    out = relative_phase_toffolis(c)
    ops = out.count_ops()
    assert ops.get("ccz", 0) == c.count_ops()["ccz"] - 2
    assert_same_unitary(c, out)


@pytest.mark.parametrize("middle", [
    lambda c: c.x(2).cx(2, 3).x(2),                 # target flipped around a use as a control
    lambda c: c.x(0).x(2).ccz(0, 2, 3).x(2).x(0),   # both flipped, then back
    lambda c: c.cx(0, 1).rz(0.3, 1).cx(0, 1),       # a control flipped by the other, then back
    lambda c: c.ccx(0, 1, 2).t(2).ccx(0, 1, 2).cx(2, 3),  # the pair's own Toffoli twice between
])
def test_pairs_through_flips_that_add_up_to_the_identity(middle):
    c = _toffoli_hccz(Circuit(4), 0, 1, 2)
    middle(c)
    _toffoli_hccz(c, 0, 1, 2)
    out = relative_phase_toffolis(c)
    assert out.count_ops().get("ccz", 0) == c.count_ops().get("ccz", 0) - 2
    assert_same_unitary(c, out)


@pytest.mark.parametrize("middle", [
    lambda c: c.h(2),          # target not diagonal
    lambda c: c.x(0),          # control flipped
    lambda c: c.x(2),          # target flipped (once)
    lambda c: c.cx(0, 1),      # a control flipped by the other (once)
    lambda c: c.cx(3, 1),      # control is a cx target
    lambda c: c.x(3).cx(3, 1).x(3).cx(3, 1),  # flips controlled from outside the three wires
    lambda c: c.ccx(0, 3, 2),  # target of the pair is a ccx target
])
def test_no_pair_when_something_in_between_does_not_commute(middle):
    c = _toffoli_hccz(Circuit(4), 0, 1, 2)
    middle(c)
    _toffoli_hccz(c, 0, 1, 2)
    assert relative_phase_toffolis(c) is c


def test_different_targets_are_not_paired():
    c = _toffoli_hccz(Circuit(3), 0, 1, 2)
    _toffoli_hccz(c, 0, 2, 1)
    assert relative_phase_toffolis(c) is c


def test_shared_h_between_two_blocks_is_used_once():
    # h ccz h ccz h on the same target: the middle h cannot belong to two Toffolis.
    c = Circuit(4).h(2).ccz(0, 1, 2).h(2).ccz(0, 1, 2).h(2).cx(2, 3).h(2).ccz(0, 1, 2).h(2)
    out = relative_phase_toffolis(c)
    assert_same_unitary(c, out)


def test_ccx_gates_and_t_style():
    c = Circuit(4).ccx(0, 1, 2).cx(2, 3).ccx(1, 0, 2)
    out = relative_phase_toffolis(c, "t")
    assert set(out.count_ops()) == {"h", "t", "tdg", "cx"} and len(out) == 19
    assert_same_unitary(c, out)


def test_tof_3_reaches_33_gates_from_either_suite():
    # Quartz (60 s and 24 h) and Nam'18 stop at 35; relative-phase pairs give 33 before search.
    for suite in ("nam", "nam-ccz"):
        c = quartz.load(str(BENCH / suite / "tof_3.qasm"))
        p = preprocess(c, "nam")
        assert len(p) <= 33
        assert_same_unitary(c, p)


def test_tof_5_reaches_69_gates():
    c = quartz.load(str(BENCH / "nam" / "tof_5.qasm"))
    p = preprocess(c, "nam")
    assert len(p) <= 69
    assert_same_unitary(c, p)


def test_random_middles_keep_the_unitary():
    """Seeded: Toffoli, a random middle of flips, rotations and controls, the same Toffoli;
    whatever the pass pairs, the unitary is unchanged, and some middles are paired."""
    rng = np.random.default_rng(7)
    paired = 0
    for _ in range(150):
        c = _toffoli_hccz(Circuit(4), 0, 1, 2)
        for _ in range(int(rng.integers(1, 7))):
            kind = int(rng.integers(5))
            q = [int(x) for x in rng.permutation(4)]
            if kind == 0:
                c.x(q[0])
            elif kind == 1:
                c.cx(q[0], q[1])
            elif kind == 2:
                c.rz(float(rng.uniform(-3, 3)), q[0])
            elif kind == 3:
                c.ccz(q[0], q[1], q[2])
            else:
                c.ccx(q[0], q[1], q[2])
        _toffoli_hccz(c, 0, 1, 2)
        out = relative_phase_toffolis(c)
        if out is not c:
            paired += 1
            assert_same_unitary(c, out)
    assert paired >= 20
