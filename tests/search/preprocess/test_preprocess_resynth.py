"""Shortest-cx resynthesis of small {cx, x, rotation} blocks."""
import random

import pytest

from quartz import Circuit, Param, QuartzError
from quartz.search.preprocess import resynthesize_blocks

from pp_helpers import assert_same_unitary, random_circuit


def test_cx_pairs_and_cycles_shrink():
    c = Circuit(3).cx(0, 1).cx(1, 2).cx(0, 1).cx(1, 2)  # = cx(0, 2)
    r = resynthesize_blocks(c)
    assert r.count_ops() == {"cx": 1}
    assert_same_unitary(c, r)


def test_toffoli_ladder_with_cancelled_terms_gets_shorter():
    # The Nam CCZ ladder with the a^c and a terms gone needs only 4 cx (on wire b), not 6.
    q = Param.pi(1, 4)
    c = (Circuit(3).cx(1, 2).rz(-q, 2).cx(0, 2).rz(q, 2).cx(1, 2).cx(0, 2).cx(0, 1)
         .rz(q, 2).rz(-q, 1).cx(0, 1).rz(q, 1))
    r = resynthesize_blocks(c)
    assert r.cx_count == 4 and r.count_ops()["rz"] == 5
    assert_same_unitary(c, r)


def test_negations_move_to_the_end_with_the_right_signs():
    c = Circuit(2).x(0).cx(0, 1).rz(0.3, 1).cx(0, 1).x(0).cx(0, 1).cx(0, 1)
    r = resynthesize_blocks(c)
    assert len(r) < len(c)
    assert_same_unitary(c, r)


def test_blocks_stop_at_other_gates():
    c = Circuit(2).cx(0, 1).h(1).cx(0, 1)
    assert resynthesize_blocks(c) == c


@pytest.mark.parametrize("seed", range(120))
def test_random_circuits_keep_the_unitary(seed):
    rng = random.Random(3000 + seed)
    gates = ("cx", "cx", "x", "rz", "h") if seed % 2 else ("h", "x", "rz", "cx", "t", "s", "swap",
                                                           "cz", "ccz", "p")
    c = random_circuit(rng, rng.randint(2, 6), rng.randint(1, 60), gates)
    for style in ("rz", "p", "t"):
        r = resynthesize_blocks(c, style)
        if style == "rz":
            assert len(r) <= len(c)
        assert_same_unitary(c, r)


def test_errors():
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        resynthesize_blocks([])
    with pytest.raises(QuartzError, match="style"):
        resynthesize_blocks(Circuit(1), "q")
