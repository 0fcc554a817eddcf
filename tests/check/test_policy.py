"""One policy: the optimizer's final check, the bench's check and the Qiskit stage's check of a
block all call the entry points of quartz.check.policy, which picks the methods."""
from __future__ import annotations

import sys

import pytest
from qiskit import QuantumCircuit
from qiskit.transpiler import PassManager

import quartz
import quartz.check
from quartz.check import policy


@pytest.fixture
def spy(monkeypatch):
    """spy(name): replace the policy function `name` wherever a loaded module holds it (the
    package quartz.check, a caller's module-level import) by a wrapper that records the
    arguments of every call and then runs it."""

    def install(name: str) -> list[tuple]:
        original = getattr(policy, name)
        calls: list[tuple] = []

        def wrapper(*args, **kwargs):
            calls.append(args)
            return original(*args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, wrapper)
        return calls

    return install


def test_the_package_s_names_are_the_policy_s():
    for name in quartz.check.__all__:
        assert getattr(quartz.check, name) is getattr(policy, name), name


def test_the_optimizer_s_final_check_goes_through_the_policy(spy):
    calls = spy("check_equivalent")
    c = quartz.Circuit(2).h(0).h(0).cx(0, 1)
    report: dict = {}
    out = quartz.optimize(c, timeout=0.5, seed=0, report=report)
    assert calls and calls[0][0] == c and calls[0][1] == out
    assert report["check"]["ok"] is True and report["check"]["method"] == "unitary"


def test_the_bench_s_check_goes_through_the_policy(spy):
    from quartz.bench.runner import run_suite

    calls = spy("check_equivalence")
    c = quartz.Circuit(2).h(0).h(0).cx(0, 1)
    results = run_suite([("tiny", c)], "nam", methods=["search"], timeout=0.5, progress=False,
                        check_timeout=10)
    assert len(calls) == 1 and calls[0][0] == c
    assert results[0].outcomes[0].equivalence == "equivalent"


def test_the_qiskit_stage_s_block_check_goes_through_the_policy(spy):
    from quartz import qiskit_plugin as qp

    calls = spy("check_block")
    qc = QuantumCircuit(2)
    qc.h(0)
    qc.h(0)
    qc.cx(0, 1)
    qc.x(1)
    qc.x(1)
    opt = qp.QuartzOptimization(timeout=1, seed=0, basis_gates=["h", "x", "rz", "cx"])
    out = PassManager([opt]).run(qc)
    assert out.size() < qc.size() and opt.last_report == ["improved"]
    assert len(calls) == 1
    original, result = calls[0][:2]
    assert original == quartz.Circuit.from_qiskit(qc) and isinstance(result, QuantumCircuit)


def test_check_block_is_the_random_state_check_of_small_blocks():
    a = quartz.Circuit(2).h(0).cx(0, 1)
    assert policy.check_block(a, a.copy()) is True
    assert policy.check_block(a, a.to_qiskit()) is True
    d = a.copy()
    d.global_phase = 0.1
    assert policy.check_block(a, d) is False  # phase counts
    big = quartz.Circuit(policy.BLOCK_MAX_QUBITS + 1).h(0)
    assert policy.check_block(big, big.copy().x(1)) is None  # not checked here


def test_what_counts_as_a_proof():
    assert policy.Check(True, "unitary").proof and policy.Check(False, "path sum").proof
    assert not policy.Check(True, "random states").proof
    assert not policy.Check(None, "none").proof
    numeric = policy.as_numeric(policy.Check(True, "unitary", "max entry difference 0"))
    assert numeric.numeric and not numeric.proof and "not an exact proof" in numeric.detail
    assert "evidence, not a proof" in numeric.summary()
    assert policy.as_numeric(policy.Check(None, "none", "x")) == policy.Check(None, "none", "x")
