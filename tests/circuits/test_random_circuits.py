"""Seeded random circuits are reproducible, in their gate set, and exact after conversion."""
import numpy as np
import pytest
from qiskit.quantum_info import Operator

from quartz.circuits.random_circuits import random_clifford_t, random_rotations
from quartz.errors import QuartzError


def test_seeded_and_reproducible():
    assert random_clifford_t(4, 30, seed=3) == random_clifford_t(4, 30, seed=3)
    assert random_clifford_t(4, 30, seed=3) != random_clifford_t(4, 30, seed=4)
    assert random_rotations(3, 25, seed=1) == random_rotations(3, 25, seed=1)


def test_gates_and_sizes():
    c = random_clifford_t(3, 40, seed=0)
    assert len(c) == 40 and set(c.count_ops()) <= {"h", "s", "sdg", "t", "tdg", "x", "cx"}
    r = random_rotations(3, 40, seed=0)
    assert len(r) == 40 and set(r.count_ops()) <= {"h", "x", "rz", "cx"}
    assert len(random_rotations(2)) == 20 and random_rotations(1, 5).num_qubits == 1
    assert all(g.params[0].pi_fraction is not None
               for g in random_rotations(3, 40, seed=0, exact=True) if g.name == "rz")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reference_unitary_and_conversion(seed):
    c = random_clifford_t(3, 30, seed=seed)
    ref = Operator(c.to_qiskit()).data
    assert np.allclose(c.unitary(), ref, atol=1e-9)
    assert np.allclose(random_clifford_t(3, 30, seed=seed, gate_set="nam").unitary(), ref, atol=1e-9)
    r = random_rotations(3, 30, seed=seed)
    assert np.allclose(r.unitary(), Operator(r.to_qiskit()).data, atol=1e-9)


def test_errors():
    with pytest.raises(QuartzError, match="n >= 1"):
        random_clifford_t(0)
    with pytest.raises(QuartzError, match="num_gates"):
        random_rotations(2, -1)
