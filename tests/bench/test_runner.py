"""The suite runner: every output checked, wrong outputs and errors reported, parallel jobs."""
from __future__ import annotations

import time

import pytest

import quartz
from quartz.errors import QuartzError
from quartz.bench.runner import bench_circuit, failures, quartz_method, run_suite
from quartz.bench.suite import load_suite
from quartz.gatesets import convert


def _drop_last_gate(circuit, gate_set, timeout, seed):
    """A deliberately wrong optimizer: the output lacks the input's last gate."""
    return quartz.Circuit(circuit.num_qubits).extend(list(circuit)[:-1]), []


def _convert_with_trace(circuit, gate_set, timeout, seed):
    """A correct 'optimizer' (exact conversion) that reports a two-point trace."""
    start = time.perf_counter()
    out = convert(circuit, gate_set)
    return out, [(0.0, float(len(circuit))), (time.perf_counter() - start, float(len(out)))]


def _fails(circuit, gate_set, timeout, seed):
    raise RuntimeError("optimizer blew up")


def test_wrong_output_is_caught_and_named():
    suite = load_suite("tof:3")
    results = run_suite(suite.circuits, "nam", methods=["broken"], baselines=["qiskit"],
                        progress=False, method_fns={"broken": _drop_last_gate})
    (r,) = results
    broken, qiskit = r.outcome("broken"), r.outcome("qiskit")
    assert broken.equivalence == "not_equivalent" and broken.gates == r.gates - 1
    assert qiskit.equivalence == "equivalent" and qiskit.kind == "baseline"
    assert failures(results) == ["tof_3 (broken): not_equivalent (path sum: no proof; "
                                 "qcec: not_equivalent; operator: not_equivalent)"]


def test_correct_output_with_trace_and_an_error():
    c = quartz.Circuit(3).ccz(0, 1, 2).h(2)
    r = bench_circuit("ccz", c, "nam", {"conv": _convert_with_trace, "bad": _fails}, [], 1.0)
    conv, bad = r.outcome("conv"), r.outcome("bad")
    assert conv.verified and conv.status == "ok" and len(conv.trace) == 2
    assert conv.gates == len(convert(c, "nam")) and conv.qasm.startswith("OPENQASM 2.0;")
    assert bad.status == "error" and "RuntimeError: optimizer blew up" in bad.error
    assert failures([r]) == ["ccz (bad): error: RuntimeError: optimizer blew up"]


def test_off_target_output_is_flagged():
    c = quartz.Circuit(3).ccz(0, 1, 2)
    same = lambda circuit, gs, t, s: (circuit.copy(), [])  # noqa: E731 - the input, unchanged
    r = bench_circuit("ccz", c, "nam", {"same": same}, [], 1.0)
    o = r.outcome("same")
    assert o.status == "off_target" and "ccz" in o.error and o.verified


def test_parallel_jobs_keep_suite_order():
    suite = load_suite("tof:3,4,5")
    seen = []
    results = run_suite(suite.circuits, "nam", methods=[], baselines=["qiskit"], jobs=2,
                        progress=False, on_result=lambda rs: seen.append(len(rs)))
    assert [r.circuit for r in results] == ["tof_3", "tof_4", "tof_5"]
    assert seen == [1, 2, 3]
    assert all(r.outcome("qiskit").verified for r in results)


def test_parallel_jobs_from_a_script_on_stdin(tmp_path):
    # the workers do not run the caller's __main__ (quartz.pools): from stdin it has no file
    import json
    import subprocess
    import sys

    script = """
import json
from quartz.bench.runner import run_suite
from quartz.bench.suite import load_suite
rs = run_suite(load_suite("tof:3,4").circuits, "nam", timeout=1, jobs=2, progress=False)
print(json.dumps([(r.circuit, r.gates, r.outcome("search").gates,
                   r.outcome("search").equivalence) for r in rs]))
"""
    proc = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.splitlines()[-1])
    assert [g[0] for g in got] == ["tof_3", "tof_4"]
    assert all(out < gates and eq == "equivalent" for _, gates, out, eq in got), got


def test_quartz_search_method_reports_its_trace():
    from tests.search.search_rules import make_set, small_nam_classes

    c = load_suite("tof:3").circuits[0][1]
    method = quartz_method("search", make_set(small_nam_classes()))
    r = bench_circuit("tof_3", c, "nam", {"search": method}, [], 1.0)
    o = r.outcome("search")
    assert o.verified and o.status == "ok" and o.gates < len(c)
    assert o.trace and o.trace[-1][1] == o.gates  # cost 'gates': the trace ends at the output
    assert all(a[0] <= b[0] and a[1] >= b[1] for a, b in zip(o.trace, o.trace[1:]))


def test_threads_reach_each_search_and_bad_values_are_refused(monkeypatch):
    import quartz.api as api

    seen = []
    real = api.optimize

    def spy(*a, **k):
        seen.append(k.get("threads"))
        return real(*a, **k)

    monkeypatch.setattr(api, "optimize", spy)
    suite = load_suite("tof:3")
    (r,) = run_suite(suite.circuits, "nam", methods=["search"], timeout=1.0, progress=False,
                     threads=1)
    assert seen == [1] and r.outcome("search").verified
    run_suite(suite.circuits, "nam", methods=["search"], timeout=0.5, progress=False)
    assert seen == [1, None]  # by default quartz.optimize picks
    for bad in (0, -2, True, 1.5):
        with pytest.raises(QuartzError, match="--threads must be a positive integer"):
            run_suite(suite.circuits, "nam", methods=["search"], progress=False, threads=bad)


def test_threads_per_job_shares_the_cpus_out_among_local_jobs(monkeypatch):
    import quartz.bench.runner as runner

    monkeypatch.setattr(runner, "available_cpus", lambda: 8)
    assert runner.threads_per_job(1) is None  # one job: quartz.optimize's default
    assert runner.threads_per_job(2) == 4 and runner.threads_per_job(3) == 2
    assert runner.threads_per_job(16) == 1  # at least one
    assert runner.threads_per_job(2, on_ray=True) is None  # a cluster's nodes differ
    assert runner.threads_per_job(4, threads=3) == 3  # given: kept
    assert runner.threads_per_job(2, work=10) == 1 and runner.threads_per_job(1, work=10) == 1
    assert runner.threads_per_job(2, threads=2, work=10) == 2
