"""`quartz bench` end to end: report files, exit codes, clear errors, and a fresh clone."""
from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quartz.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_bench_family_writes_report(tmp_path, capsys):
    out = tmp_path / "rep"
    rc = main(["bench", "tof:3,4", "--methods", "none", "--baselines", "qiskit", "--timeout",
               "1", "-o", str(out), "--no-progress"])
    assert rc == 0
    for name in ("results.csv", "results.md", "reduction.png"):
        assert (out / name).is_file(), name
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [(r["circuit"], r["optimizer"], r["equivalence"]) for r in rows] == [
        ("tof_3", "qiskit", "equivalent"), ("tof_4", "qiskit", "equivalent")]
    md = (out / "results.md").read_text()
    assert "# quartz bench: tof (nam)" in md
    assert "`quartz bench tof:3,4 --timeout 1 --methods none --baselines qiskit -o " in md
    assert "report in" in capsys.readouterr().err


def test_bench_folder_of_qasm(tmp_path, benchmarks_dir):
    suite = tmp_path / "rigetti"
    suite.mkdir()
    shutil.copy(benchmarks_dir / "rigetti" / "tof_3.qasm", suite)
    rc = main(["bench", str(suite), "--methods", "none", "--baselines", "qiskit,tket",
               "-o", str(tmp_path / "rep"), "--no-progress", "--no-qasm"])
    assert rc == 0
    rows = list(csv.DictReader(open(tmp_path / "rep" / "results.csv")))
    assert {r["optimizer"]: int(r["gates"]) for r in rows} == {"qiskit": 38, "tket": 100}
    assert not (tmp_path / "rep" / "qasm").exists()


@pytest.mark.parametrize("argv, message", [
    (["nope_family"], "neither a folder nor a circuit family"),
    (["tof:3", "--baselines", "pyzx"], "unknown baseline 'pyzx'"),
    (["tof:3", "--methods", "magic"], "unknown method 'magic'; methods: search, rl"),
    (["tof:3", "--methods", "none", "--baselines", "none"], "nothing to run"),
    (["tof:3", "--timeout", "-1"], "--timeout must be non-negative"),
    (["tof:3", "--jobs", "0", "--methods", "none"], "--jobs must be at least 1"),
    (["tof:3", "--threads", "0"], "--threads must be at least 1"),
])
def test_bad_arguments_are_one_line_errors(tmp_path, capsys, argv, message):
    rc = main(["bench", *argv, "-o", str(tmp_path / "rep"), "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("quartz bench: error: ") and message in err


def test_rl_for_a_gate_set_without_a_model_is_one_line_error(tmp_path, capsys, monkeypatch):
    import quartz.rl.optimize as rl_optimize

    monkeypatch.delitem(rl_optimize.DEFAULT_MODELS, ("cx", "rz", "sx", "x"))
    rc = main(["bench", "qft:4", "--gateset", "ibm_modern", "--methods", "search,rl",
               "-o", str(tmp_path / "rep"), "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("quartz bench: error: ")
    assert ("no shipped RL model for gate set ibm_modern {cx, rz, sx, x} (shipped models: nam, "
            "clifford_t, ibm, ibm_heron, rigetti, ionq)") in err


def _fresh_clone(dest: Path) -> Path:
    """The repository's tracked files (and the built core) in a folder with no ../shared."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split()
    for f in files + [p.name for p in (REPO / "quartz").glob("_core*.so")]:
        src = REPO / f if (REPO / f).exists() else REPO / "quartz" / f
        if src.is_file():
            target = dest / src.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def test_bench_family_on_a_fresh_clone_without_shared(tmp_path):
    clone = _fresh_clone(tmp_path / "box" / "quartz")
    assert not (clone.parent / "shared").exists()
    env = dict(os.environ, PYTHONPATH=str(clone))
    proc = subprocess.run([sys.executable, "-m", "quartz", "bench", "barenco_tof:3",
                           "--methods", "none", "--baselines", "qiskit", "--timeout", "0.5",
                           "-o", "rep", "--no-progress"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(open(clone / "rep" / "results.csv")))
    assert rows[0]["circuit"] == "barenco_tof_3" and rows[0]["equivalence"] == "equivalent"


def interrupt_bench(out: Path, sig: int, *extra: str) -> tuple[int, str]:
    """Run a 6-circuit bench, send `sig` 0.5 s after the first circuit's report is written;
    (exit status, stderr). The signal must end it within 10 s."""
    proc = subprocess.Popen([sys.executable, "-m", "quartz", "bench", "tof:3,4,5,6,7,8",
                             "--methods", "search", "--baselines", "none", "--timeout", "2",
                             "-o", str(out), "--no-progress", "--no-qasm", *extra],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (out / "results.csv").exists():  # the first circuit is done
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)  # inside the second circuit's search
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert time.monotonic() - sent < 10  # not the remaining circuits' 2 s each
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, err.decode()


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_writes_the_results_so_far_marked_interrupted(tmp_path, sig, code):
    out = tmp_path / "rep"
    rc, err = interrupt_bench(out, sig)
    assert rc == code, err
    assert f"interrupted by {sig.name}; wrote the report of 2 of 6 circuits" in err, err
    assert "Traceback" not in err
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [(r["circuit"], r["status"], r["equivalence"]) for r in rows] == [
        ("tof_3", "ok", "equivalent"), ("tof_4", "interrupted", "equivalent")]
    md = (out / "results.md").read_text()
    assert f"**Interrupted** by {sig.name}: 2 of 6 circuits; cut short: tof_4." in md
    assert "(interrupted)" in md and not (out / "reduction.png").exists()
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.md"]


def test_a_signal_stops_parallel_jobs_and_keeps_the_finished_circuits(tmp_path):
    out = tmp_path / "rep"
    rc, err = interrupt_bench(out, signal.SIGTERM, "--jobs", "2")
    assert rc == 143, err
    rows = list(csv.DictReader(open(out / "results.csv")))
    names = [r["circuit"] for r in rows]
    assert 1 <= len(rows) < 6 and names == sorted(names, key=lambda n: int(n.split("_")[1]))
    assert {(r["status"], r["equivalence"]) for r in rows} == {("ok", "equivalent")}
    assert f"wrote the report of {len(rows)} of 6 circuits" in err and "Traceback" not in err
