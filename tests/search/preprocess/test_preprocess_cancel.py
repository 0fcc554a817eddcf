"""Inverse cancellation and rotation merging on the DAG, with exact commutation."""
import random

import pytest

from quartz import Circuit, Param
from quartz.search.preprocess import cancel_inverses

from pp_helpers import assert_same_unitary, random_circuit


@pytest.mark.parametrize("build", [
    lambda c: c.h(0).h(0), lambda c: c.x(0).x(0), lambda c: c.cx(0, 1).cx(0, 1),
    lambda c: c.s(0).sdg(0), lambda c: c.tdg(1).t(1), lambda c: c.cz(0, 1).cz(1, 0),
    lambda c: c.swap(0, 1).swap(1, 0), lambda c: c.sx(0).sxdg(0), lambda c: c.y(1).y(1),
])
def test_adjacent_inverse_pairs_vanish(build):
    c = build(Circuit(2))
    r = cancel_inverses(c)
    assert len(r) == 0
    assert_same_unitary(c, r)


def test_opposite_cx_orientation_is_kept():
    c = Circuit(2).cx(0, 1).cx(1, 0)
    assert len(cancel_inverses(c)) == 2


def test_rotations_add_exactly_and_identity_vanishes():
    c = Circuit(1).rz(Param.pi(1, 8), 0).rz(Param.pi(1, 8), 0)
    (g,) = list(cancel_inverses(c))
    assert g.params[0] == Param.pi(1, 4)
    d = Circuit(1).rx(Param.pi(3, 2), 0).rx(Param.pi(1, 2), 0)  # rx(2pi) = -I
    r = cancel_inverses(d)
    assert len(r) == 0 and r.global_phase == Param.pi(1, 1)
    assert_same_unitary(d, r)
    e = Circuit(1).p(Param.pi(3, 2), 0).p(Param.pi(1, 2), 0)  # p(2pi) = I
    r = cancel_inverses(e)
    assert len(r) == 0 and r.global_phase == Param.pi(0, 1)


def test_commutes_through_controls_and_targets():
    # rz on the control commutes with cx; x on the target commutes with cx.
    c = Circuit(2).rz(0.3, 0).cx(0, 1).rz(-0.3, 0).x(1).cx(0, 1).x(1)
    r = cancel_inverses(c)
    assert len(r) == 0
    assert_same_unitary(c, r)
    # cx gates sharing a control commute, so the outer pair cancels.
    d = Circuit(3).cx(0, 1).cx(0, 2).cx(0, 1)
    assert cancel_inverses(d).count_ops() == {"cx": 1}


def test_does_not_commute_where_it_is_not_exact():
    for c in (Circuit(2).cx(0, 1).h(1).cx(0, 1), Circuit(2).x(0).cx(0, 1).x(0),
              Circuit(2).rz(0.2, 1).cx(0, 1).rz(0.2, 1), Circuit(2).cx(0, 1).cx(1, 0).cx(0, 1)):
        r = cancel_inverses(c)
        assert len(r) == len(c)


def test_cascade_reaches_a_fixpoint():
    c = Circuit(2).h(0).cx(0, 1).x(1).x(1).cx(0, 1).h(0)
    assert len(cancel_inverses(c)) == 0


@pytest.mark.parametrize("seed", range(100))
def test_random_circuits_keep_the_unitary(seed):
    rng = random.Random(1000 + seed)
    gates = ("h", "x", "rz", "cx") if seed < 50 else ("h", "x", "rz", "cx", "t", "tdg", "s", "sdg",
                                                      "cz", "rx", "swap", "p", "ccz")
    c = random_circuit(rng, rng.randint(1, 6), rng.randint(1, 60), gates)
    r = cancel_inverses(c, window=rng.choice([1, 4, 64]))
    assert len(r) <= len(c)
    assert_same_unitary(c, r)


def test_bad_window():
    with pytest.raises(ValueError, match="window"):
        cancel_inverses(Circuit(1), window=0)
