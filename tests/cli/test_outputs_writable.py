"""Every sub-command that writes files checks its output before any work: an output it cannot
write (under a regular file, in a missing folder, a folder where a file goes) is one error
line and exit 2 at once, and nothing is created."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

import quartz
from quartz.cli import main

REPO = Path(__file__).resolve().parents[2]
NAM = REPO.parent / "shared" / "benchmarks" / "nam"


def boom(*a, **k):
    raise AssertionError("work started although the output cannot be written")


@pytest.fixture
def regular_file(tmp_path) -> Path:
    f = tmp_path / "plain.txt"
    f.write_text("not a folder\n")
    return f


@pytest.fixture
def qasm(tmp_path) -> Path:
    p = tmp_path / "in.qasm"
    p.write_text(quartz.dumps(quartz.Circuit(2).h(0).h(0).cx(0, 1)))
    return p


def bad_outputs(tmp_path: Path, regular_file: Path) -> list[tuple[Path, str]]:
    """(output path, what the error line says) for a file output."""
    return [(regular_file / "out", f"{regular_file} is not a directory"),
            (regular_file / "deeper" / "out", f"{regular_file} is not a directory"),
            (tmp_path / "missing" / "out", f"directory {tmp_path / 'missing'} does not exist"),
            (tmp_path, "it is a directory")]


def refused_fast(argv: list[str], capsys, command: str, expected: str) -> None:
    t0 = time.monotonic()
    assert main(argv) == 2
    assert time.monotonic() - t0 < 10
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"quartz {command}: error: cannot write"), lines
    assert expected in lines[0], lines[0]


def test_optimize(tmp_path, regular_file, qasm, capsys, monkeypatch):
    monkeypatch.setattr("quartz.api.optimize", boom)
    monkeypatch.setattr("quartz.qasm.load", boom)
    for out, expected in bad_outputs(tmp_path, regular_file):
        refused_fast(["optimize", str(qasm), "-o", str(out), "--timeout", "600"], capsys,
                     "optimize", expected)


def test_gen(tmp_path, regular_file, capsys, monkeypatch):
    monkeypatch.setattr("quartz.generator.generate", boom)
    for out, expected in bad_outputs(tmp_path, regular_file):
        # nam -n 7 -q 3 takes half a minute: only a check before the work returns at once
        refused_fast(["gen", "--gateset", "nam", "-n", "7", "-q", "3", "-o", str(out),
                      "--no-progress"], capsys, "gen", expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]


def test_verify(tmp_path, regular_file, capsys, monkeypatch):
    monkeypatch.setattr("quartz.verifier.ecc_input.load_tasks", boom)
    ecc = REPO / "quartz" / "data" / "nam_6_3.json.gz"
    for out, expected in bad_outputs(tmp_path, regular_file):
        refused_fast(["verify", str(ecc), "-o", str(out), "--no-progress"], capsys, "verify",
                     expected)


def test_bench(tmp_path, regular_file, capsys, monkeypatch):
    monkeypatch.setattr("quartz.bench.suite.load_suite", boom)
    monkeypatch.setattr("quartz.bench.runner.run_suite", boom)
    for out, expected in [(regular_file, "it is not a directory"),
                          (regular_file / "report", f"{regular_file} is not a directory"),
                          (regular_file / "a" / "b", f"{regular_file} is not a directory")]:
        refused_fast(["bench", "tof:3,4,5", "--methods", "search", "--baselines", "none",
                      "--timeout", "600", "-o", str(out), "--no-progress"], capsys, "bench",
                     expected)


def test_bench_creates_a_missing_report_folder_only_when_it_writes(tmp_path, capsys):
    out = tmp_path / "new" / "report"
    assert main(["bench", "tof:3", "--methods", "none", "--baselines", "qiskit", "--timeout", "1",
                 "-o", str(out), "--no-progress"]) == 0
    assert (out / "results.csv").is_file()


def test_rl_train(tmp_path, regular_file, capsys, monkeypatch):
    pytest.importorskip("torch")
    import quartz.cli.rl_cmd as rl_cmd

    monkeypatch.setattr(rl_cmd, "load_training_circuits", boom)
    monkeypatch.setattr("quartz.rl.train.train", boom)
    for out, expected in bad_outputs(tmp_path, regular_file):
        refused_fast(["rl", "train", "--circuits", str(NAM), "--minutes", "60", "-o", str(out)],
                     capsys, "rl", expected)


def test_rl_train_missing_resume_is_refused_before_work(tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    import quartz.cli.rl_cmd as rl_cmd

    monkeypatch.setattr(rl_cmd, "load_training_circuits", boom)
    assert main(["rl", "train", "--circuits", str(NAM), "--minutes", "60", "-o",
                 str(tmp_path / "m.pt"), "--resume", str(tmp_path / "nope.pt")]) == 2
    assert f"cannot read RL model {tmp_path / 'nope.pt'}" in capsys.readouterr().err


def test_rl_train_log_and_eval_every_are_checked_before_work(tmp_path, regular_file, capsys,
                                                            monkeypatch):
    pytest.importorskip("torch")
    import quartz.cli.rl_cmd as rl_cmd

    monkeypatch.setattr(rl_cmd, "load_training_circuits", boom)
    model = str(tmp_path / "m.pt")
    for out, expected in bad_outputs(tmp_path, regular_file):
        refused_fast(["rl", "train", "--circuits", str(NAM), "--minutes", "60", "-o", model,
                      "--log", str(out)], capsys, "rl", expected)
    assert main(["rl", "train", "--circuits", str(NAM), "--minutes", "60", "-o", model,
                 "--eval-every", "0"]) == 2
    assert "--eval-every must be at least 1, got 0" in capsys.readouterr().err
