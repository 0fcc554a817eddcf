"""CCZ/CCX decomposition with greedy polarity."""
import random
import time

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param
from quartz.search.preprocess import decompose_ccz_greedy, rotation_merge

from pp_helpers import BENCH, assert_same_unitary, random_circuit


@pytest.mark.parametrize("style", ["rz", "p", "u1", "t"])
def test_ccz_and_ccx_decompositions_are_exact(style):
    for c in (Circuit(3).ccz(0, 1, 2), Circuit(3).ccz(2, 0, 1), Circuit(3).ccx(0, 1, 2),
              Circuit(4).ccx(3, 1, 0)):
        d = decompose_ccz_greedy(c, style)
        assert d.cx_count == 6 and len(d) == (13 if c[0].name == "ccz" else 15)
        assert_same_unitary(c, d)


def test_both_polarities_are_exact_and_greedy_picks_the_cancelling_one():
    for pre, expect_negative in ((Param.pi(-1, 4), 0), (Param.pi(1, 4), 1)):
        c = Circuit(3).rz(pre, 0).ccz(0, 1, 2)
        st = {}
        d = decompose_ccz_greedy(c, "rz", stats=st)
        assert st["num_ccz"] == 1 and st["negative"] == expect_negative
        assert st["rotation_cost"] == 6
        assert_same_unitary(c, d)
        assert len(rotation_merge(d)) == 12


def test_rotation_cost_prediction_matches_rotation_merging():
    c = quartz.load(str(BENCH / "nam-ccz" / "barenco_tof_4.qasm"))
    for refine in (0, 3):
        st = {}
        m = rotation_merge(decompose_ccz_greedy(c, refine=refine, stats=st))
        assert m.count_ops()["rz"] == st["rotation_cost"]


@pytest.mark.parametrize("seed", range(30))
def test_random_circuits_with_toffolis(seed):
    rng = random.Random(77 + seed)
    c = random_circuit(rng, rng.randint(3, 5), rng.randint(1, 40),
                       ("h", "x", "rz", "cx", "ccz", "t"))
    if seed % 2:
        c.ccx(0, 1, 2)
    d = decompose_ccz_greedy(c, refine=seed % 3)
    assert "ccz" not in d.count_ops() and "ccx" not in d.count_ops()
    assert_same_unitary(c, d)


def test_large_ccz_file_is_fast():
    c = quartz.load(str(BENCH / "nam-ccz" / "gf2^163_mult.qasm"))
    t = time.perf_counter()
    st = {}
    d = decompose_ccz_greedy(c, stats=st)
    assert time.perf_counter() - t < 5.0
    assert st["num_ccz"] == c.count_ops()["ccz"] > 20000
    assert len(d) == len(c) + 12 * st["num_ccz"]


def test_bad_refine():
    with pytest.raises(ValueError, match="refine"):
        decompose_ccz_greedy(Circuit(3), refine=-1)
    assert np.allclose(decompose_ccz_greedy(Circuit(3)).unitary(), np.eye(8))


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("style", ["rz", "p", "t"])
def test_resynthesis_is_exact_on_random_circuits(seed, style):
    rng = random.Random(500 + seed)
    gates = ("h", "x", "rz", "cx", "ccz") if seed % 2 else ("h", "x", "rz", "cx", "ccz", "t", "s",
                                                            "swap", "cz")
    c = random_circuit(rng, rng.randint(3, 5), rng.randint(1, 30), gates)
    if seed % 3 == 0:
        c.ccx(2, 0, 1)
    st = {}
    d = decompose_ccz_greedy(c, style, refine=seed % 3, resynthesize=True, stats=st)
    assert_same_unitary(c, d)
    assert st["cx"] <= 6 * st["num_ccz"]


def test_resynthesis_drops_cancelled_toffolis_and_shortens_ladders():
    c = Circuit(3).ccz(0, 1, 2).ccz(1, 2, 0)  # CCZ twice is the identity
    st = {}
    d = decompose_ccz_greedy(c, resynthesize=True, stats=st)
    assert len(d) == 0 and st["cx"] == 0
    assert_same_unitary(c, d)
    # csum_mux_9: fewer cx than the fixed 6 per Toffoli.
    c = quartz.load(str(BENCH / "nam-ccz" / "csum_mux_9.qasm"))
    st = {}
    d = decompose_ccz_greedy(c, resynthesize=True, stats=st)
    assert st["cx"] < 6 * st["num_ccz"]
    assert d.count_ops()["rz"] == st["rotation_cost"]


@pytest.mark.parametrize("seed", range(40))
def test_resynthesis_keeps_the_phase_of_classes_summing_to_2pi(seed):
    # Many Toffolis on 4 qubits: some parity classes add up to rz(2 pi) = -I and vanish.
    rng = random.Random(seed)
    c = random_circuit(rng, 4, 40, ("ccz", "ccz", "ccz", "cx", "x"))
    for style in ("rz", "p", "t"):
        assert_same_unitary(c, decompose_ccz_greedy(c, style, resynthesize=True))
