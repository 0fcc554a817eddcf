"""quartz.optimize(work=...): a search budget in work units gives the same circuit on an idle
or a loaded machine; bad budgets and combinations it cannot honour are refused."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit, QuartzError

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"


@pytest.fixture
def search_calls(monkeypatch):
    """search_calls(key): a list that receives `key` of every quartz.search.driver.search call."""
    import quartz.search.driver as driver

    real = driver.search

    def watch(key: str) -> list:
        seen: list = []

        def spy(*a, **k):
            seen.append(k.get(key))
            return real(*a, **k)

        monkeypatch.setattr(driver, "search", spy)
        return seen

    return watch


def _tof3() -> Circuit:
    return quartz.load(str(BENCH / "nam" / "barenco_tof_3.qasm"))


def _busy(n: int) -> list[subprocess.Popen]:
    """n processes that spin, so the search runs on a loaded machine."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def test_same_circuit_on_an_idle_and_a_loaded_machine():
    c = _tof3()
    first, second = {}, {}
    a = quartz.optimize(c, timeout=120, seed=5, work=3_000_000, patience=None, threads=2,
                        report=first)
    hogs = _busy(2)
    try:
        b = quartz.optimize(c, timeout=120, seed=5, work=3_000_000, patience=None, threads=2,
                            report=second)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert a.to_qasm() == b.to_qasm() and len(a) < len(c)
    assert first["search"]["work"] == 3_000_000 and first["search"]["cut"] is False
    assert second["search"]["moves"] == first["search"]["moves"]  # the very same search
    assert first["check"]["ok"]


def test_a_deadline_before_the_work_is_done_is_reported_and_the_result_equal():
    c = _tof3()
    report = {}
    out = quartz.optimize(c, timeout=2, seed=1, work=10**12, patience=None, report=report)
    assert report["search"]["cut"] is True and report["check"]["ok"]
    assert np.allclose(out.unitary(), c.unitary(), atol=1e-8) and len(out) <= len(c)


def test_raced_starts_share_the_work_and_stay_repeatable():
    # IonQ races two starts (quartz.pipeline.race): each gets RACE_SHARE of the work.
    c = quartz.load(str(BENCH / "nam-ccz" / "tof_3.qasm"))
    runs = [quartz.optimize(c, "ionq", timeout=120, seed=2, work=1_000_000, patience=None,
                            threads=1, report=r) for r in ({}, {})]
    assert runs[0].to_qasm() == runs[1].to_qasm()
    assert np.allclose(runs[0].unitary(), c.unitary(), atol=1e-8)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"])
def test_bad_work_values_are_refused(bad):
    with pytest.raises(QuartzError, match="work must be a non-negative number of work units"):
        quartz.optimize(Circuit(1).h(0), work=bad)


@pytest.mark.parametrize("kw, what", [
    (dict(method="rl"), "needs method='search'"),
    (dict(algorithm="best_first"), "needs method='search'"),
    (dict(exact=False), "needs method='search'"),
    (dict(cost="depth"), "needs an additive cost"),
    (dict(workers=2), "does not apply to partitioned optimization"),
])
def test_combinations_it_cannot_honour_are_refused(kw, what):
    with pytest.raises(QuartzError, match=what):
        quartz.optimize(Circuit(2).h(0).h(0).cx(0, 1), work=1000, timeout=1, **kw)


def test_cli_optimize_work_gives_the_same_file_and_notes_a_cut(tmp_path, capsys):
    from quartz.cli import main

    src = str(BENCH / "nam" / "tof_3.qasm")
    outs = [tmp_path / "a.qasm", tmp_path / "b.qasm"]
    for out in outs:
        assert main(["optimize", src, "-o", str(out), "--work", "1e6", "--seed", "4",
                     "--threads", "2", "--no-progress"]) == 0  # patience auto is off
    assert outs[0].read_text() == outs[1].read_text()
    assert "before its --work was done" not in capsys.readouterr().err
    assert main(["optimize", src, "-o", str(tmp_path / "c.qasm"), "--work", "1e15",
                 "--timeout", "1", "--seed", "4", "--no-progress"]) == 0
    assert "--timeout ended the search before its --work was done" in capsys.readouterr().err
    assert main(["optimize", src, "--work", "1e6", "--method", "rl"]) != 0
    assert "needs method='search'" in capsys.readouterr().err


def test_each_stretch_of_a_measured_circuit_gets_the_work(search_calls):
    seen = search_calls("work")
    text = ("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[2];\ncreg c[2];\n"
            "h q[0];\nh q[0];\ncx q[0],q[1];\nmeasure q[0] -> c[0];\n"
            "x q[1];\nx q[1];\ncx q[0],q[1];\nmeasure q[1] -> c[1];\n")
    runs = [quartz.optimize(text, timeout=60, seed=1, work=200_000, patience=None, threads=1)
            for _ in range(2)]
    assert runs[0] == runs[1] and "measure q[0] -> c[0];" in runs[0]
    assert seen and set(seen) == {200_000}
    assert "h q[0];\nh q[0];" not in runs[0]  # each stretch optimized


def test_patience_auto_is_off_with_work_and_an_explicit_one_is_kept(search_calls):
    seen = search_calls("patience")
    c = Circuit(2).h(0).h(0).cx(0, 1)
    quartz.optimize(c, timeout=10, seed=0, work=10_000)  # patience left at 'auto'
    quartz.optimize(c, timeout=10, seed=0, work=10_000, patience=5.0)
    quartz.optimize(c, timeout=1, seed=0)
    assert seen == [None, 5.0, "auto"]
