"""`quartz optimize` faults: a bad -o is one clear line before any work, the input is not
overwritten without --in-place, and SIGINT/SIGTERM save the best circuit so far (130/143)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz.cli import main

REPO = Path(__file__).resolve().parents[1]
TOF3 = REPO.parent / "shared" / "benchmarks" / "nam" / "tof_3.qasm"


@pytest.fixture
def qasm(tmp_path) -> Path:
    p = tmp_path / "in.qasm"
    p.write_text(quartz.dumps(quartz.Circuit(2).h(0).h(0).cx(0, 1).x(1).x(1)))
    return p


@pytest.fixture
def no_work(monkeypatch):
    """Fail the test if the optimizer is ever called."""
    def boom(*a, **k):
        raise AssertionError("optimize() ran although the output was bad")
    monkeypatch.setattr("quartz.api.optimize", boom)


def one_error_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("quartz optimize: error: ")
    return lines[0]


def unwritable_dir(tmp_path: Path) -> Path:
    if os.geteuid() == 0:  # root writes through any mode bits; /sys refuses even root
        return Path("/sys")
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    return d


def test_missing_output_directory(qasm, tmp_path, capsys, no_work):
    out = tmp_path / "no" / "such" / "out.qasm"
    assert main(["optimize", str(qasm), "-o", str(out), "--timeout", "1"]) == 2
    assert f"directory {out.parent} does not exist" in one_error_line(capsys)


def test_output_is_a_directory(qasm, tmp_path, capsys, no_work):
    assert main(["optimize", str(qasm), "-o", str(tmp_path), "--timeout", "1"]) == 2
    assert "it is a directory" in one_error_line(capsys)


def test_unwritable_output_directory(qasm, tmp_path, capsys, no_work):
    d = unwritable_dir(tmp_path)
    try:
        assert main(["optimize", str(qasm), "-o", str(d / "out.qasm"), "--timeout", "1"]) == 2
        line = one_error_line(capsys)
        assert f"cannot write {d / 'out.qasm'}: directory {d}: Permission denied" in line
        assert not (d / "out.qasm").exists()
    finally:
        if d != Path("/sys"):
            d.chmod(0o700)


def test_same_file_as_input_and_output_is_refused(qasm, tmp_path, capsys, no_work, monkeypatch):
    before = qasm.read_text()
    link = tmp_path / "link.qasm"
    link.symlink_to(qasm)
    monkeypatch.chdir(tmp_path)
    for out in (str(qasm), "in.qasm", "./in.qasm", str(link)):
        assert main(["optimize", str(qasm), "-o", out, "--timeout", "1"]) == 2
        assert "is also the input; pass --in-place" in one_error_line(capsys)
    assert qasm.read_text() == before


@pytest.mark.parametrize("extra", [[], ["-o", "in.qasm"]])
def test_in_place_overwrites_the_input(qasm, tmp_path, monkeypatch, extra):
    monkeypatch.chdir(tmp_path)
    original = quartz.load(str(qasm))
    assert main(["optimize", "in.qasm", "--in-place", "--timeout", "2", "--no-progress", *extra]) == 0
    out = quartz.load(str(qasm))
    assert len(out) == 1 and out[0].name == "cx"  # h h and x x cancel
    np.testing.assert_allclose(out.unitary(), original.unitary(), atol=1e-9)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.qasm"]  # no temporary left


def test_interrupt_outside_the_search_writes_the_input(qasm, tmp_path, capsys, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr("quartz.api.optimize", interrupted)
    out = tmp_path / "out.qasm"
    assert main(["optimize", str(qasm), "-o", str(out), "--timeout", "5"]) == 130
    assert quartz.load(str(out)) == quartz.load(str(qasm))
    assert "interrupted by SIGINT; wrote the input unchanged" in capsys.readouterr().err


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_saves_the_best_so_far(tmp_path, sig, code):
    out = tmp_path / "out.qasm"
    proc = subprocess.Popen([sys.executable, "-m", "quartz", "optimize", str(TOF3), "-o", str(out),
                             "--timeout", "60", "--patience", "none"], cwd=REPO,
                            stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL)
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.extend(iter(lambda: proc.stderr.read1(4096), b"")))
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while b"moves/s" not in b"".join(err):  # the search's progress line: it is running
            assert proc.poll() is None and time.monotonic() < deadline, b"".join(err)
            time.sleep(0.1)
        time.sleep(1.0)
        sent = time.monotonic()
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == code
        assert time.monotonic() - sent < 15  # stopped, not run to the 60 s budget
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join()
    text = b"".join(err).decode()
    assert f"interrupted by {sig.name}; wrote the best circuit found so far to {out}" in text
    assert "Traceback" not in text
    a, b = quartz.load(str(TOF3)), quartz.load(str(out))
    assert len(b) < len(a)
    np.testing.assert_allclose(b.unitary(), a.unitary(), atol=1e-8)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.qasm"]
