"""Folding decomposed CCZ patterns back into ccz (quartz.search.preprocess.recognize)."""
from __future__ import annotations

import random

import pytest

import quartz
from quartz import Circuit
from quartz.errors import QuartzError
from quartz.search.preprocess.recognize import ccz_pattern, recognize_ccz

from pp_helpers import BENCH, assert_same_unitary, random_circuit


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("rotation", ["rz", "p", "u1"])
def test_pattern_folds_to_one_ccz_with_phase(sign, rotation):
    c = ccz_pattern(sign, rotation)
    out = recognize_ccz(c)
    assert [g.name for g in out] == ["ccz"]
    assert_same_unitary(c, out)


@pytest.mark.parametrize("sign", [1, -1])
def test_clifford_t_pattern_folds(sign):
    """Both polarities with t for +pi/4 and tdg for -pi/4 (before, the pattern for sign -1
    was written with the two swapped, i.e. it was the sign +1 pattern again)."""
    c = Circuit(3)
    for g in ccz_pattern(sign):
        c.append(("t" if float(g.params[0]) > 0 else "tdg") if g.name == "rz" else g.name, g.qubits)
    out = recognize_ccz(c)
    assert out.count_ops() == {"ccz": 1}
    assert_same_unitary(c, out)


@pytest.mark.parametrize("name", ["vbe_adder_3", "tof_3", "mod5_4"])
def test_clifford_t_suite_toffolis_are_all_found(name):
    c = quartz.load(str(BENCH / "clifford-t" / f"{name}.qasm"))
    expected = quartz.load(str(BENCH / "nam-ccz" / f"{name}.qasm")).count_ops()["ccz"]
    out = recognize_ccz(c)
    assert out.count_ops()["ccz"] == expected  # vbe_adder_3: 6 of 10 before
    assert_same_unitary(c, out)


def test_pattern_embedded_among_other_gates_and_relabelled():
    rng = random.Random(3)
    c = random_circuit(rng, 5, 12)
    for g in ccz_pattern(1):
        c.append(g.name, [(3, 0, 4)[q] for q in g.qubits], g.params)
    c.extend(random_circuit(rng, 5, 12))
    out = recognize_ccz(c)
    assert out.count_ops()["ccz"] == 1 and len(out) == len(c) - 12
    assert_same_unitary(c, out)


def test_broken_pattern_is_left_alone():
    c = ccz_pattern(1)
    gates = list(c)
    broken = Circuit(3)
    for i, g in enumerate(gates):
        broken.append(g.name, g.qubits, g.params)
        if i == 4:
            broken.h(2)  # inside the pattern on the target wire
    assert recognize_ccz(broken).count_ops().get("ccz", 0) == 0


@pytest.mark.parametrize("name", ["tof_3", "barenco_tof_3", "mod5_4", "gf2^4_mult"])
def test_nam_suite_toffolis_are_all_found(name):
    c = quartz.load(str(BENCH / "nam" / f"{name}.qasm"))
    expected = quartz.load(str(BENCH / "nam-ccz" / f"{name}.qasm")).count_ops()["ccz"]
    out = recognize_ccz(c)
    assert out.count_ops()["ccz"] == expected
    assert len(out) == len(c) - 12 * expected
    if c.num_qubits <= 8:
        assert_same_unitary(c, out)


def test_rejects_non_circuits():
    with pytest.raises(QuartzError, match="recognize_ccz expects a quartz.Circuit"):
        recognize_ccz("h q[0];")
