"""Partitioned optimization (quartz.optimize(..., workers=N), quartz.pipeline.partition)."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param, QuartzError
from quartz.pipeline import partition
from quartz.pipeline.partition import PartitionReport, default_segment_gates, optimize_partitioned


def same(a: Circuit, b: Circuit) -> bool:
    """Equal unitaries, global phase included."""
    return bool(np.max(np.abs(a.unitary() - b.unitary())) <= 1e-9)


def redundant(seed: int, n: int = 4, m: int = 160) -> Circuit:
    """A Nam circuit with cancelling pairs and mergeable rotations spread over all of it."""
    rng = random.Random(seed)
    c = Circuit(n)
    c.global_phase = Param.pi(1, 4)
    for _ in range(m // 4):
        a, b = rng.sample(range(n), 2)
        r = rng.random()
        if r < 0.3:
            c.cx(a, b).cx(a, b)
        elif r < 0.6:
            c.rz(Param.pi(1, 4), a).cx(b, a).rz(Param.pi(1, 4), a).cx(b, a)
        else:
            c.h(a).x(b).h(a).cx(a, b)
    return c


def test_segments_in_process_keep_the_unitary_and_shrink():
    c = redundant(1)
    out, rep = optimize_partitioned(c, "nam", workers=1, timeout=8, segment_gates=24)
    assert isinstance(rep, PartitionReport) and rep.engine == "in-process"
    assert same(out, c) and len(out) < len(c)
    assert rep.rounds >= 2 and rep.improved >= 1 and rep.segments >= 2 * (len(c) // 24)
    assert [g for _, g in rep.history] == sorted((g for _, g in rep.history), reverse=True)
    assert rep.history[-1][1] == len(out)


def test_optimize_with_two_workers_uses_processes_and_reports_segments():
    c = redundant(2)
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=8, workers=2, report=report, seed=0)
    assert same(out, c) and len(out) < len(c)
    assert report["check"]["method"] == "segments" and report["check"]["ok"] is True
    assert report["partition"]["engine"] == "processes" and report["partition"]["workers"] == 2
    assert "whole-circuit preprocessing: equivalent" in report["check"]["detail"]


def test_qasm_in_qasm_out_and_the_name_kept():
    c = redundant(3, m=60)
    c.name = "mine"
    text = quartz.optimize(c.to_qasm(), "nam", timeout=4, workers=2)
    assert isinstance(text, str) and same(quartz.qasm.loads(text), c)


def test_bad_arguments_are_refused():
    c = redundant(4, m=20)
    with pytest.raises(QuartzError, match="workers must be at least 1"):
        quartz.optimize(c, "nam", workers=0)
    with pytest.raises(QuartzError, match="gates only"):
        quartz.optimize(c, "nam", workers=2, cost="cx")
    with pytest.raises(QuartzError, match="method='search'"):
        quartz.optimize(c, "nam", workers=2, method="rl")
    with pytest.raises(QuartzError, match="segment_gates"):
        optimize_partitioned(c, "nam", segment_gates=1)
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        optimize_partitioned("x", "nam")


def test_default_segments_split_the_circuit_evenly_over_the_workers():
    import doctest

    assert doctest.testmod(partition).failed == 0
    assert default_segment_gates(2000, 2) == 1000 and default_segment_gates(100, 4) == 600


def test_preprocess_off_and_history_are_honoured():
    c = redundant(5, m=80)
    history: list = []
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=4, workers=2, preprocess=False, history=history,
                          report=report)
    assert same(out, c) and len(out) < len(c)
    assert "whole-circuit preprocessing" not in report["check"]["detail"]
    assert history and history[-1][1] == len(out)


# A caller whose __main__ the workers cannot import (stdin, `python -c`) or should not run (a
# script without the `if __name__ == "__main__":` guard): the processes start all the same.
# SCRIPT prints the marker once, at its top level: the workers do not run it again.
SCRIPT = '''
import json, sys
import quartz
print("caller's main ran", file=sys.stderr)
c = quartz.qasm.loads({qasm!r})
report = {{}}
out = quartz.optimize(c, "nam", timeout=3, workers=2, report=report, seed=0)
print(json.dumps({{"out": quartz.qasm.dumps(out), "ok": report["check"]["ok"],
                  "engine": report["partition"]["engine"]}}))
'''


@pytest.mark.parametrize("how", ["stdin", "-c", "unguarded script"])
def test_two_workers_from_stdin_python_c_and_a_script_without_the_main_guard(how, tmp_path):
    import json

    from script_runs import run_python

    c = redundant(2, m=60)
    proc = run_python(SCRIPT.format(qasm=quartz.qasm.dumps(c)), how, tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("caller's main ran") == 1, proc.stderr
    assert "BrokenProcessPool" not in proc.stderr and "Traceback" not in proc.stderr
    got = json.loads(proc.stdout.splitlines()[-1])
    out = quartz.qasm.loads(got["out"])
    assert got["engine"] == "processes" and got["ok"] is True
    assert same(out, c) and len(out) < len(c)
