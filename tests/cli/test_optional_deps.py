"""Optional dependencies (extras of quartz-superopt) are checked before any work: a command that
needs a missing one exits 2 with one line naming the `pip install 'quartz-superopt[extra]'` to
run; `quartz bench` without matplotlib or mqt.qcec still runs and says up front what it leaves
out (`--plots` makes the plots required)."""
from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

import quartz
from quartz.cli import main

REPO = Path(__file__).resolve().parents[2]
BENCH_HINT = "pip install 'quartz-superopt[bench]'"
RL_HINT = "pip install 'quartz-superopt[rl]'"


def boom(*a, **k):
    raise AssertionError("work started although an optional dependency is missing")


def without(monkeypatch, *modules: str) -> None:
    """Make `import MODULE` fail, as when the package is not installed."""
    for m in modules:
        monkeypatch.setitem(sys.modules, m, None)


def one_error_line(capsys, command: str) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"quartz {command}: error: "), lines
    return lines[0]


@pytest.fixture
def qasm(tmp_path) -> Path:
    p = tmp_path / "in.qasm"
    p.write_text(quartz.dumps(quartz.Circuit(2).h(0).h(0).cx(0, 1)))
    return p


def test_install_hints_name_extras_that_hold_the_packages():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {k: {re.split(r"[<>=!~ \[]", r)[0].lower() for r in v} for k, v in extras.items()}
    assert {"matplotlib", "pytket", "mqt.qcec"} <= names["bench"]
    assert {"torch", "torch-geometric"} <= names["rl"]
    from quartz.bench.plots import INSTALL_HINT
    from quartz.rl import INSTALL_HINT as RL

    assert (INSTALL_HINT, RL) == (BENCH_HINT, RL_HINT)
    name = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["name"]
    assert BENCH_HINT == f"pip install '{name}[bench]'"


def test_bench_without_matplotlib_runs_and_says_so_up_front(tmp_path, capsys, monkeypatch):
    without(monkeypatch, "matplotlib", "matplotlib.pyplot")
    monkeypatch.setattr("quartz.bench.plots.plot_reduction", boom)
    out = tmp_path / "rep"
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "qiskit", "--timeout", "1",
                 "-o", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    note = f"quartz bench: note: no plots: matplotlib is not installed ({BENCH_HINT};"
    assert note in err and err.index(note) < err.index("circuits from tof")  # before the work
    assert "report in" in err and "reduction.png" not in err
    assert (out / "results.csv").is_file() and not (out / "reduction.png").exists()
    assert "no plots: matplotlib is not installed" in (out / "results.md").read_text()


def test_bench_plots_required_without_matplotlib_refuses_before_work(tmp_path, capsys,
                                                                      monkeypatch):
    without(monkeypatch, "matplotlib")
    monkeypatch.setattr("quartz.bench.suite.load_suite", boom)
    monkeypatch.setattr("quartz.bench.runner.run_suite", boom)
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "qiskit", "--plots",
                 "-o", str(tmp_path / "rep"), "--no-progress"]) == 2
    line = one_error_line(capsys, "bench")
    assert f"--plots needs matplotlib, which is not installed: run {BENCH_HINT}" in line
    assert not (tmp_path / "rep").exists()


def test_bench_no_plots(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("quartz.bench.plots.plot_reduction", boom)
    out = tmp_path / "rep"
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "qiskit", "--timeout", "1",
                 "--no-plots", "-o", str(out), "--no-progress"]) == 0
    assert "note: no plots" not in capsys.readouterr().err
    assert not (out / "reduction.png").exists()
    assert "--no-plots" in (out / "results.md").read_text()  # the command that reproduces it


def test_bench_tket_without_pytket(tmp_path, capsys, monkeypatch):
    without(monkeypatch, "pytket")
    monkeypatch.setattr("quartz.bench.suite.load_suite", boom)
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "tket",
                 "-o", str(tmp_path / "rep"), "--no-progress"]) == 2
    assert BENCH_HINT in one_error_line(capsys, "bench")
    monkeypatch.undo()
    without(monkeypatch, "pytket")
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "auto", "--timeout", "1",
                 "--no-plots", "-o", str(tmp_path / "rep"), "--no-progress"]) == 0
    assert f"note: baseline(s) tket skipped: not installed ({BENCH_HINT})" in capsys.readouterr().err


def test_bench_without_qcec_checks_with_the_rest_and_says_so(tmp_path, capsys, monkeypatch):
    without(monkeypatch, "mqt.qcec")
    out = tmp_path / "rep"
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "qiskit", "--timeout", "1",
                 "--no-plots", "-o", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "note: mqt.qcec is not installed" in err and BENCH_HINT in err
    row = (out / "results.csv").read_text().splitlines()[1]
    assert "equivalent" in row and "skipped (mqt.qcec is not installed)" in row


def test_bench_rl_without_torch_refuses_before_work(tmp_path, capsys, monkeypatch):
    without(monkeypatch, "torch", "torch_geometric")
    monkeypatch.setattr("quartz.bench.suite.load_suite", boom)
    assert main(["bench", "tof:3", "--methods", "search,rl", "--baselines", "none",
                 "-o", str(tmp_path / "rep"), "--no-progress"]) == 2
    assert RL_HINT in one_error_line(capsys, "bench")


def test_optimize_rl_without_torch_refuses_before_work(qasm, capsys, monkeypatch):
    without(monkeypatch, "torch", "torch_geometric")
    monkeypatch.setattr("quartz.qasm.load", boom)
    monkeypatch.setattr("quartz.api.optimize", boom)
    assert main(["optimize", str(qasm), "--method", "rl", "--no-progress"]) == 2
    assert RL_HINT in one_error_line(capsys, "optimize")


def test_rl_train_without_torch_refuses_before_work(tmp_path, capsys, monkeypatch):
    import quartz.cli.rl_cmd as rl_cmd

    without(monkeypatch, "torch", "torch_geometric")
    monkeypatch.setattr(rl_cmd, "load_training_circuits", boom)
    assert main(["rl", "train", "--circuits", str(tmp_path), "--minutes", "1",
                 "-o", str(tmp_path / "m.pt")]) == 2
    assert RL_HINT in one_error_line(capsys, "rl")
