"""Mutated QASM text gives a clear QuartzError or exactly the circuit Qiskit reads; never a crash or hang."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.fuzz.harness import FuzzWorker, report
from tests.fuzz.mutate import mutate

BENCHMARKS = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"
SEED_FILES = ["nam/tof_3.qasm", "nam/barenco_tof_3.qasm", "nam-ccz/mod5_4.qasm",
              "rigetti/tof_3.qasm", "clifford-t/tof_3.qasm", "nam/grover_5.qasm"]
HAND_MADE = [
    'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\nu3(pi/2,-pi/4,0.3) q[0];\ncp(3*pi/8) q[0],q[1];\n'
    'rzz(0.25) q[1],q[2];\nsx q[2];\nccx q[0],q[1],q[2];\nswap q[0],q[2];\nu2(0,pi) q[1];\n',
    'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg a[2];\nqreg b[1];\nh a;\ncx a[0],b[0];\n'
    'rx(-pi*0.5) b[0];\nid a[1];\nu1(1e-3) a[1];\nry1 b[0];\nrx3 a[0];\n',
]
CASES = int(os.environ.get("QUARTZ_FUZZ_CASES", "150"))


def _seeds() -> list[str]:
    texts = [(BENCHMARKS / f).read_text() for f in SEED_FILES]
    # Keep the benchmark seeds short so that mutations hit the header and the gates alike.
    texts = ["\n".join(t.splitlines()[:40]) + "\n" for t in texts]
    return texts + HAND_MADE


def _run(cases: int, seed: int) -> None:
    rng = random.Random(seed)
    seeds = _seeds()
    failures, outcomes = [], {}
    with FuzzWorker(time_limit=30.0) as worker:
        # The unmutated seeds must all parse.
        for text in seeds:
            r = worker.run("qasm", text)
            assert r.outcome == "ok", report([r])
        for _ in range(cases):
            r = worker.run("qasm", mutate(rng.choice(seeds), rng))
            outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
            if r.failed:
                failures.append(r)
    assert not failures, report(failures)
    # The mutations exercise both paths: some inputs are rejected, some still parse.
    assert outcomes.get("rejected", 0) > 0 and outcomes.get("ok", 0) > 0, outcomes


def test_mutated_qasm_is_rejected_clearly_or_parsed_exactly():
    _run(CASES, seed=20261202)


@pytest.mark.slow
def test_mutated_qasm_many_cases():
    _run(5000, seed=7)


@pytest.mark.parametrize("text", [
    "rz(1e308) q[0];", "rz(1e400) q[0];", "rz(-1e400) q[0];", "rz(99999999999999999999) q[0];",
    "rz(pi*1e300) q[0];", "u3(1e308,1e308,-1e308) q[0];", "rz(1/0) q[0];",
    "h q[1];", "h q[-1];", "cx q[0],q[0];", "qreg r[0]; h r;",
])
def test_extreme_angles_and_qubits_give_quartz_errors_or_exact_circuits(text):
    header = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\n'
    with FuzzWorker() as worker:
        r = worker.run("qasm", header + text + "\n")
    assert not r.failed, report([r])


def test_harness_reports_a_segfault_and_a_hang_and_recovers():
    # A native crash or a hang is a failed case, not a dead pytest; the next case runs normally.
    with FuzzWorker(time_limit=3.0) as worker:
        r = worker.run("_segfault", "")
        assert r.failed and r.outcome == "crash" and "-11" in r.detail
        r = worker.run("_hang", "")
        assert r.failed and r.outcome == "hang"
        r = worker.run("qasm", 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\nh q[0];\n')
        assert r.outcome == "ok", r.detail
