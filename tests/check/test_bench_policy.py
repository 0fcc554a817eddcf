"""The independent equivalence checker: proofs, refutations, global phase, sizes."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from qiskit import QuantumCircuit

import quartz
from quartz.check import EquivalenceResult, assert_equivalent, check_equivalence
from quartz.errors import EquivalenceError, QuartzError

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "benchmarks"


def _ghz(n: int) -> quartz.Circuit:
    c = quartz.Circuit(n).h(0)
    for i in range(n - 1):
        c.cx(i, i + 1)
    return c


def test_identical_and_rewritten_circuits_are_equivalent():
    a = quartz.Circuit(2).h(0).cx(0, 1).rz(math.pi / 4, 1)
    r = check_equivalence(a, a.copy())
    assert r.ok and r.verdict == "equivalent" and r.qcec == "equivalent" and r.operator == "equivalent"
    # H X H = Z: a different circuit with the same unitary.
    assert check_equivalence(quartz.Circuit(1).h(0).x(0).h(0), quartz.Circuit(1).z(0)).ok


def test_wrong_gate_is_not_equivalent():
    a = _ghz(3)
    r = check_equivalence(a, a.copy().rz(0.1, 2))
    assert r.verdict == "not_equivalent" and not r.ok
    assert r.qcec == "not_equivalent" and r.operator == "not_equivalent"


def test_global_phase_difference_is_caught_by_both_checkers():
    a = _ghz(3)
    b = a.copy()
    b.global_phase = 0.7
    r = check_equivalence(a, b)
    assert r.verdict == "not_equivalent"
    assert r.qcec == "equivalent_up_to_global_phase"
    assert r.operator == "equivalent_up_to_global_phase"
    # ... and with QCEC alone (no dense operator).
    assert check_equivalence(a, b, max_operator_qubits=0).qcec == "equivalent_up_to_global_phase"


def test_matching_global_phase_is_equivalent():
    # rz(t) = e^{-it/2} p(t): a p gate plus the matching global phase is exactly rz.
    a = quartz.Circuit(1).rz(0.3, 0)
    b = quartz.Circuit(1).p(0.3, 0)
    b.global_phase = -0.15
    r = check_equivalence(a, b)
    assert r.ok, r.describe()
    b.global_phase = 0.0
    assert check_equivalence(a, b).verdict == "not_equivalent"


def test_qiskit_circuits_are_accepted():
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.cx(0, 1)
    assert check_equivalence(qc, _ghz(2)).ok


def test_large_circuit_uses_qcec_only():
    a = _ghz(12)
    r = check_equivalence(a, a.copy())
    assert r.operator is None and r.qcec == "equivalent" and r.ok
    r = check_equivalence(a, a.copy().x(11))
    assert r.operator is None and r.verdict == "not_equivalent"


def test_benchmark_file_against_its_qiskit_parse():
    path = SHARED / "nam" / "tof_3.qasm"
    c = quartz.load(path)
    qc = QuantumCircuit.from_qasm_file(str(path))
    assert check_equivalence(c, qc).ok
    broken = quartz.Circuit(c.num_qubits).extend(list(c)[1:])
    assert check_equivalence(broken, qc).verdict == "not_equivalent"


def test_different_qubit_counts_are_not_equivalent():
    r = check_equivalence(quartz.Circuit(1), quartz.Circuit(2))
    assert r.verdict == "not_equivalent" and "qubit counts" in r.qcec


def test_symbolic_circuit_is_rejected():
    c = quartz.Circuit(1).rz(quartz.Param.symbol(0, 1), 0)
    with pytest.raises(QuartzError, match="concrete"):
        check_equivalence(c, c)


def test_assert_equivalent_names_the_circuit():
    a = _ghz(2)
    assert isinstance(assert_equivalent(a, a), EquivalenceResult)
    with pytest.raises(EquivalenceError, match="'my_circ'.*not_equivalent"):
        assert_equivalent(a, a.copy().x(0), name="my_circ")


def test_hard_deadline_mode_gives_same_verdicts():
    a = _ghz(3)
    assert check_equivalence(a, a.copy(), hard_deadline=60).qcec == "equivalent"
    assert check_equivalence(a, a.copy().x(0), hard_deadline=60).qcec == "not_equivalent"


def test_describe_mentions_each_checker():
    text = check_equivalence(_ghz(2), _ghz(2)).describe()
    assert text.startswith("equivalent") and "qcec: equivalent" in text and "operator: equivalent" in text


def test_48_qubit_multiplier_is_decided():
    # Regression: QCEC's alternating checker alone left gf2^16_mult "unknown" after 120 s.
    from pathlib import Path

    import quartz
    from quartz.search.preprocess import preprocess

    path = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "nam" / "gf2^16_mult.qasm"
    c = quartz.load(str(path))
    p = preprocess(c, "nam")
    r = check_equivalence(c, p, timeout=60)
    assert r.verdict == "equivalent" and r.qcec == "equivalent"
    bad = p.copy().rz(1e-3, 5)
    assert check_equivalence(c, bad, timeout=60).verdict == "not_equivalent"


def test_96_qubit_multiplier_is_proven_by_path_sums():
    # Regression: gf2^32_mult (96 qubits, 13.6k gates) against its preprocessed form was
    # "unknown": QCEC's ZX and alternating checkers give no answer, even in 900 s.
    from quartz.search.preprocess import preprocess

    c = quartz.load(str(SHARED / "nam" / "gf2^32_mult.qasm"))
    p = preprocess(c, "nam")
    # The path sum gets PATH_SUM_SHARE of the budget; it needs ~1-3 s here (machine-dependent).
    r = check_equivalence(c, p, timeout=20)
    assert r.verdict == "equivalent" and r.path_sum == "equivalent", r.describe()
    p.global_phase = 0.25
    r = check_equivalence(c, p, timeout=20)
    assert r.verdict == "not_equivalent" and r.path_sum == "equivalent_up_to_global_phase"


def test_path_sum_runs_beside_qcec_and_operator():
    a = _ghz(3)
    r = check_equivalence(a, a.copy())
    assert (r.path_sum, r.qcec, r.operator) == ("equivalent",) * 3
    r = check_equivalence(a, a.copy().x(0))
    assert r.path_sum == "no proof" and r.verdict == "not_equivalent"
    assert "path sum: no proof" in r.describe()
