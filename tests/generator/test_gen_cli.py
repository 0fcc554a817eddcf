"""`quartz gen`: output files, summary, --json, and one clear error for bad input."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quartz.cli import main
from quartz.ecc_sets import read

REPO = Path(__file__).resolve().parents[2]


def test_gen_writes_native_and_quartz(tmp_path, capsys):
    out = tmp_path / "nam.json.gz"
    assert main(["gen", "--gateset", "nam", "-n", "3", "-q", "2", "-m", "2", "-o", str(out),
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "before pruning" in text and "139 circuits" in text and "wrote" in text
    s = read(out)
    assert all(e.proven for e in s.classes) and s.q == 2
    q = tmp_path / "q.json"
    assert main(["gen", "--gates", "h,cx,rz", "-n", "2", "-q", "2", "-m", "1", "-o", str(q),
                 "--format", "quartz", "--json", "--no-progress"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["format"] == "quartz" and rep["final"]["classes"] == len(read(q).classes)
    assert isinstance(json.loads(q.read_text()), list)


def test_gen_progress_goes_to_stderr(tmp_path, capsys):
    assert main(["gen", "--gateset", "nam", "-n", "2", "-q", "2", "-m", "2", "--json"]) == 0
    cap = capsys.readouterr()
    json.loads(cap.out)  # stdout holds only the report
    assert "enumerate" in cap.err


@pytest.mark.parametrize("args,msg", [
    (["--gates", "h,foo", "-n", "2", "-q", "2"], "unknown gate 'foo'"),
    (["--gateset", "nam", "-n", "2", "-q", "9"], "q (qubits) must be between"),
    (["--gateset", "nam", "-n", "0", "-q", "2"], "n (gates per circuit) must be between"),
    (["--gates", "ccz", "-n", "2", "-q", "2", "-m", "0"], "acts on 3 qubits"),
    (["--gateset", "nam", "-n", "2", "-q", "2", "-m", "0"], "needs m >= 1"),
    (["--gateset", "nam", "-n", "2", "-q", "2", "--jobs", "0"], "--jobs must be at least 1"),
])
def test_gen_bad_input(args, msg, tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["gen", *args, "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1
    assert not out.exists()


def test_gen_unwritable_output(tmp_path, capsys):
    out = tmp_path / "missing" / "x.json"
    assert main(["gen", "--gateset", "nam", "-n", "2", "-q", "2", "-o", str(out), "--no-progress"]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert not out.exists() and not (tmp_path / "missing").exists()
    d = tmp_path / "adir"
    d.mkdir()
    assert main(["gen", "--gateset", "nam", "-n", "2", "-q", "2", "-o", str(d), "--no-progress"]) == 2
    assert list(d.iterdir()) == []


def test_gen_constants_option(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert main(["gen", "--gates", "h,rz", "-n", "3", "-q", "1", "-m", "0", "--constants",
                 "rz=1/4,-1/4", "-o", str(out), "--no-progress"]) == 0
    s = read(out)
    assert s.classes and s.metadata["generator"]["constants"] == {"rz": ["1/4", "-1/4"]}
    assert main(["gen", "--gateset", "rigetti", "-n", "2", "-q", "2", "-m", "1", "--constants",
                 "none", "--json", "--no-progress"]) == 0
    capsys.readouterr()
    for bad in ("rz", "rz=abc", "rz=1/0"):
        assert main(["gen", "--gates", "h,rz", "-n", "2", "-q", "1", "--constants", bad,
                     "--no-progress"]) == 2
        assert "--constants" in capsys.readouterr().err


def test_gen_interrupted_writes_nothing(tmp_path, capsys, monkeypatch):
    import quartz.generator

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(quartz.generator, "generate", interrupted)
    out = tmp_path / "nam.json.gz"
    assert main(["gen", "--gateset", "nam", "-n", "3", "-q", "2", "-o", str(out),
                 "--no-progress"]) == 130
    assert "interrupted by SIGINT; nothing written" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_gen_signal_stops_it_and_leaves_no_file(tmp_path, sig, code):
    out = tmp_path / "nam.json.gz"
    proc = subprocess.Popen([sys.executable, "-m", "quartz", "gen", "--gateset", "nam", "-n", "7",
                             "-q", "3", "-m", "2", "--jobs", "2", "-o", str(out)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(3)  # enumerating (nam (7,3) takes about 30 s)
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code, err
        assert time.monotonic() - sent < 20
    finally:
        if proc.poll() is None:
            proc.kill()
    err = err.decode()
    assert f"interrupted by {sig.name}; nothing written" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
