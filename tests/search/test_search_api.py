"""quartz.optimize: every input kind, conversion, method dispatch, the equivalence guard."""
from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator

import quartz
from quartz import Circuit, QuartzError
from search_rules import same_unitary

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "nam"


def redundant() -> Circuit:
    return (Circuit(2).h(0).h(0).rz(math.pi / 4, 1).rz(math.pi / 4, 1).cx(0, 1).x(1).cx(0, 1)
            .x(1).rz(0.3, 0))


def test_quartz_circuit_in_and_out(small_set):
    c = redundant()
    out = quartz.optimize(c, ecc_set=small_set, timeout=1, seed=0)
    assert isinstance(out, Circuit)
    assert len(out) < len(c) and same_unitary(out, c)


def test_qiskit_in_and_out_keeps_global_phase_exact(small_set):
    qc = QuantumCircuit(2, global_phase=0.25)
    qc.rz(math.pi, 0)
    qc.cx(0, 1)
    qc.rz(math.pi, 0)  # rz(2pi) = -I: the optimizer must move the sign into global_phase
    qc.h(1)
    qc.h(1)
    out = quartz.optimize(qc, ecc_set=small_set, timeout=1, seed=0)
    assert isinstance(out, QuantumCircuit)
    assert out.size() < qc.size()
    assert np.allclose(Operator(out).data, Operator(qc).data, atol=1e-9)


def test_qasm_text_and_path_give_qasm_text(small_set, tmp_path):
    text = redundant().to_qasm()
    out = quartz.optimize(text, ecc_set=small_set, timeout=1, seed=0)
    assert isinstance(out, str) and out.startswith("OPENQASM")
    assert same_unitary(quartz.loads(out), redundant())
    p = tmp_path / "in.qasm"
    p.write_text(text)
    for arg in (str(p), p):
        res = quartz.optimize(arg, ecc_set=small_set, timeout=1, seed=0)
        assert isinstance(res, str) and len(quartz.loads(res)) < len(redundant())


def test_inputs_outside_the_gate_set_are_converted(small_set):
    c = Circuit(3).h(2).ccx(0, 1, 2).s(0).h(2)
    out = quartz.optimize(c, "nam", ecc_set=small_set, timeout=1, seed=0)
    assert {g.name for g in out} <= {"h", "x", "rz", "cx"}
    assert same_unitary(out, c)


def test_method_rl_dispatches_to_quartz_rl(monkeypatch, small_set):
    import quartz.rl

    seen = {}

    def fake_rl(circuit, ecc_set, cost, timeout, seed, model=None, threads=None, polish=None,
                check=True, exact_1q=False):
        seen.update(ecc_set=ecc_set, cost=cost.name, timeout=timeout, seed=seed, model=model,
                    threads=threads, check=check, exact_1q=exact_1q)
        return circuit

    monkeypatch.setattr(quartz.rl, "optimize_rl", fake_rl)
    out = quartz.optimize(redundant(), ecc_set=small_set, method="rl", timeout=2, seed=5,
                          model="m.pt", cost="cx", preprocess=False, threads=2)
    # the RL run gets the budget less what the final equivalence check keeps back
    assert 0 < seen.pop("timeout") < 2
    # optimize checks the result itself, so the RL run does not check it a second time
    assert seen == {"ecc_set": small_set, "cost": "cx", "seed": 5, "model": "m.pt", "threads": 2,
                    "check": False, "exact_1q": False}  # (Nam: no rx runs to merge)
    assert same_unitary(out, redundant())


def test_no_seed_draws_one_the_report_names_and_every_method_gets(monkeypatch, small_set):
    import quartz.rl
    import quartz.search.driver as driver

    seen = []
    real = driver.search

    def spy(circuit, rules, **kw):
        seen.append(kw["seed"])
        return real(circuit, rules, **kw)

    def fake_rl(circuit, ecc_set, cost, timeout, seed, **kw):
        seen.append(seed)
        return circuit

    monkeypatch.setattr(driver, "search", spy)
    monkeypatch.setattr(quartz.rl, "optimize_rl", fake_rl)
    reports = []
    for method in ("search", "rl"):
        for _ in range(2):
            reports.append({})
            quartz.optimize(redundant(), ecc_set=small_set, method=method, timeout=0.5,
                            report=reports[-1], preprocess=False)
    # None is a fresh seed per call, for rl as for search (rl used to take 0), and the report
    # says which, so the run can be repeated
    assert [r["seed"] for r in reports] == seen
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in seen) and len(set(seen)) == 4
    r: dict = {}
    quartz.optimize(redundant(), ecc_set=small_set, timeout=0.5, seed=np.int64(12), report=r)
    assert r["seed"] == 12 and seen[-1] == 12 and type(seen[-1]) is int
    for bad in (1.5, "3", True):
        with pytest.raises(QuartzError, match=f"seed must be an int or None, got {bad!r}"):
            quartz.optimize(redundant(), ecc_set=small_set, seed=bad)


def test_a_wrong_result_is_caught_and_the_input_returned(monkeypatch, small_set, caplog):
    import quartz.search.driver as driver

    real = driver.search

    def broken(circuit, rules, **kw):
        r = real(circuit, rules, **kw)
        r.circuit = Circuit(circuit.num_qubits).x(0)  # cheaper, but wrong
        return r

    monkeypatch.setattr(driver, "search", broken)
    c = redundant()
    with caplog.at_level(logging.ERROR, logger="quartz"), pytest.warns(RuntimeWarning, match="not equivalent"):
        out = quartz.optimize(c, ecc_set=small_set, timeout=0.5)
    assert out is c
    assert "BUG" in caplog.text


def test_bad_arguments():
    with pytest.raises(QuartzError, match="unknown method"):
        quartz.optimize(Circuit(1), method="anneal")
    with pytest.raises(QuartzError, match="timeout"):
        quartz.optimize(Circuit(1), timeout=-2)
    with pytest.raises(QuartzError, match="no such QASM file"):
        quartz.optimize("missing.qasm")
    with pytest.raises(QuartzError, match="takes a quartz.Circuit"):
        quartz.optimize(12)
    with pytest.raises(QuartzError, match="unknown cost"):
        quartz.optimize(Circuit(1), cost="area", ecc_set=[])


def test_optimize_reports_the_final_check(small_set):
    report: dict = {}
    out = quartz.optimize(redundant(), ecc_set=small_set, timeout=1, seed=0, report=report)
    assert same_unitary(out, redundant())
    assert report["returned"] == "optimized"
    chk = report["check"]
    assert chk["ok"] is True and chk["method"] == "unitary" and chk["proof"] is True
    assert 0 <= chk["seconds"] < 5 and "difference" in chk["detail"]
    with pytest.raises(QuartzError, match="check_timeout must be a non-negative"):
        quartz.optimize(redundant(), ecc_set=small_set, check_timeout=-1)


def test_optimize_reports_an_unconcluded_check(small_set, caplog):
    c = Circuit(26).h(0)
    for q in range(25):
        c.cx(q, q + 1)
    c.u3(0.1, 0.2, 0.3, 5).h(3).h(3)
    report: dict = {}
    with caplog.at_level(logging.WARNING, logger="quartz"):
        out = quartz.optimize(c, "ibm", ecc_set=[], timeout=0.2, check_timeout=0.1,
                              preprocess=False, report=report)
    assert len(out) == len(c)
    assert report["check"]["ok"] is None and report["check"]["method"] == "none"
    assert "not checked" in caplog.text
