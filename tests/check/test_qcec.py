"""Phase-exact equivalence on many qubits: ZX proof + decision-diagram phase (quartz.check.qcec)."""
from __future__ import annotations

import math

import pytest

pytest.importorskip("mqt.qcec")

from qiskit import QuantumCircuit

from quartz.circuits import FAMILIES
from quartz.check.qcec import basis_state_overlaps, phase_as_gates, prove_equal


def _gf2(n: int) -> QuantumCircuit:
    return FAMILIES["gf2_mult"](n).to_qiskit()


def test_equal_small_circuits():
    a = QuantumCircuit(2)
    a.h(0)
    a.cx(0, 1)
    assert prove_equal(a, a.copy()) == ("equivalent", "zx+dd-phase")


def test_global_phase_difference_is_reported():
    a = _gf2(6)
    b = a.copy()
    b.global_phase += 0.5
    assert prove_equal(a, b)[0] == "equivalent_up_to_global_phase"


def test_counterexample_from_a_basis_state():
    a = _gf2(6)
    b = a.copy()
    b.x(3)
    assert prove_equal(a, b) == ("not_equivalent", "dd-states")


def test_small_rotation_change_is_not_equivalent():
    a = _gf2(6)
    b = a.copy()
    b.rz(1e-4, 0)
    assert prove_equal(a, b)[0] == "not_equivalent"


def test_48_qubit_multiplier_rewritten_is_proven_quickly():
    # The alternating checker alone did not decide gf2^16_mult in 120 s; this takes seconds.
    import quartz

    a = _gf2(16)
    b = quartz.optimize(quartz.Circuit.from_qiskit(a), "nam", timeout=5, seed=0).to_qiskit()
    assert len(b.data) < len(a.data)
    assert prove_equal(a, b, timeout=60) == ("equivalent", "zx+dd-phase")


def test_phase_as_gates_keeps_the_unitary():
    from qiskit.quantum_info import Operator

    a = QuantumCircuit(1)
    a.h(0)
    a.global_phase = math.pi / 3
    b = phase_as_gates(a)
    assert b.global_phase == 0 and Operator(a).equiv(b) and Operator(a) == Operator(b)


def test_overlaps_of_equal_circuits_are_one():
    a = _gf2(4)
    overlaps = basis_state_overlaps(a, a.copy(), deadline=float("inf"), states=3)
    assert len(overlaps) == 3 and all(abs(o - 1) < 1e-9 for o in overlaps)
