"""Input files that are binary (not UTF-8 text) or huge (over $QUARTZ_MAX_INPUT_MB megabytes)
are refused with one QuartzError line naming the file and the problem, before any work and
before a huge file is read; from the command line that is exit 2 and no traceback."""
from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest

import quartz
from quartz import QuartzError
from quartz.cli import main

REPO = Path(__file__).resolve().parents[2]
BINARY = b"\xf0\x9f\x00\xff" + bytes(range(256))
NOT_TEXT = r"is not a text file \(not UTF-8\) at byte 0"
TOO_BIG = r"is 101 MB; the limit is 100 MB \(QUARTZ_MAX_INPUT_MB\)"
GOOD = quartz.dumps(quartz.Circuit(2).h(0).h(0).cx(0, 1))


def binary(tmp_path: Path, name: str) -> Path:
    p = tmp_path / name
    p.write_bytes(BINARY)
    return p


def huge(tmp_path: Path, name: str) -> Path:
    """A sparse 101 MB file (no disk blocks, nothing to read)."""
    p = tmp_path / name
    with open(p, "wb") as f:
        f.truncate(101 * 2**20)
    return p


@pytest.fixture
def good_qasm(tmp_path) -> Path:
    p = tmp_path / "good.qasm"
    p.write_text(GOOD)
    return p


@pytest.fixture
def nothing_opened(monkeypatch):
    """Fail the test if an input file is opened (a huge file must be refused from its size)."""
    import quartz.io_utils as io_utils

    def refuse(*a, **k):
        raise AssertionError(f"opened {a[0] if a else '?'} although it is too big")

    monkeypatch.setattr(io_utils, "open", refuse, raising=False)


def one_error_line(capsys, command: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"quartz {command}: error: "), lines[0]
    return lines[0]


# --- the library ----------------------------------------------------------------------------

@pytest.mark.parametrize("reader", [quartz.load, quartz.qasm.load,
                                    lambda p: quartz.optimize(p, timeout=1)])
def test_binary_qasm_file(tmp_path, reader):
    p = binary(tmp_path, "bin.qasm")
    with pytest.raises(QuartzError, match=f"^{p} {NOT_TEXT}$"):
        reader(str(p))


@pytest.mark.parametrize("reader", [quartz.load, quartz.qasm.load,
                                    lambda p: quartz.optimize(p, timeout=1)])
def test_huge_qasm_file_is_refused_from_its_size(tmp_path, reader, nothing_opened):
    p = huge(tmp_path, "huge.qasm")
    with pytest.raises(QuartzError, match=f"^{p} {TOO_BIG}$"):
        reader(str(p))


def test_nul_byte_in_otherwise_utf8_text(tmp_path):
    p = tmp_path / "nul.qasm"
    p.write_bytes(GOOD.encode() + b"\x00h q[0];\n")
    with pytest.raises(QuartzError, match=rf"not a text file \(a NUL byte\) at byte {len(GOOD)}"):
        quartz.load(p)


def test_limit_comes_from_the_environment(tmp_path, monkeypatch):
    p = tmp_path / "two_mb.qasm"
    p.write_text(GOOD + "// " + "x" * (2 * 2**20 - len(GOOD) - 4) + "\n")
    monkeypatch.setenv("QUARTZ_MAX_INPUT_MB", "1.5")
    with pytest.raises(QuartzError, match=rf"^{p} is 2 MB; the limit is 1.5 MB \(QUARTZ_MAX_INPUT_MB\)$"):
        quartz.load(p)
    monkeypatch.setenv("QUARTZ_MAX_INPUT_MB", "2")
    assert len(quartz.load(p)) == 3
    for bad in ("lots", "0", "-1", "nan", "inf"):
        monkeypatch.setenv("QUARTZ_MAX_INPUT_MB", bad)
        with pytest.raises(QuartzError, match="QUARTZ_MAX_INPUT_MB must be a positive number"):
            quartz.load(p)


def test_pipe_without_a_size_is_cut_off_at_the_limit(monkeypatch):
    from quartz.io_utils import read_input_bytes

    monkeypatch.setenv("QUARTZ_MAX_INPUT_MB", "0.001")
    with pytest.raises(QuartzError, match=r"^/dev/zero is more than 0.001 MB; the limit is 0.001 MB"):
        read_input_bytes("/dev/zero")


def test_binary_and_huge_ecc_files(tmp_path):
    from quartz import ecc_sets

    b = binary(tmp_path, "bin.json")
    for reader in (ecc_sets.read, ecc_sets.load):
        with pytest.raises(QuartzError, match=f"^{b} {NOT_TEXT}$"):
            reader(b)
    z = tmp_path / "bin.json.gz"
    z.write_bytes(gzip.compress(BINARY))
    with pytest.raises(QuartzError, match=f"^{z} {NOT_TEXT} of its decompressed data$"):
        ecc_sets.read(z)
    h = huge(tmp_path, "huge.json")
    with pytest.raises(QuartzError, match=f"^ECC set {h} {TOO_BIG}$"):
        ecc_sets.load(h)


def test_huge_rl_model_is_refused_before_torch_reads_it(tmp_path):
    pytest.importorskip("torch")
    from quartz.rl.checkpoint import load_checkpoint

    p = huge(tmp_path, "huge.pt")
    with pytest.raises(QuartzError, match=f"^RL model {p} {TOO_BIG}$"):
        load_checkpoint(p)


# --- the command line -----------------------------------------------------------------------

def test_optimize_binary_and_huge_inputs(tmp_path, capsys, good_qasm):
    out = tmp_path / "out.qasm"
    for bad in (binary(tmp_path, "bin.qasm"), huge(tmp_path, "huge.qasm")):
        assert main(["optimize", str(bad), "-o", str(out), "--no-progress"]) == 2
        assert str(bad) in one_error_line(capsys, "optimize")
    for bad, what in ((binary(tmp_path, "bin.json"), NOT_TEXT), (huge(tmp_path, "h.json"), TOO_BIG)):
        assert main(["optimize", str(good_qasm), "--ecc", str(bad), "-o", str(out),
                     "--no-progress"]) == 2
        line = one_error_line(capsys, "optimize")
        assert str(bad) in line and re.search(what, line), line
    assert not out.exists()


def test_optimize_huge_rl_model(tmp_path, capsys, good_qasm):
    pytest.importorskip("torch")
    model = huge(tmp_path, "huge.pt")
    assert main(["optimize", str(good_qasm), "--method", "rl", "--model", str(model),
                 "--no-progress"]) == 2
    assert f"RL model {model} is 101 MB" in one_error_line(capsys, "optimize")


def test_verify_binary_and_huge_inputs(tmp_path, capsys, good_qasm):
    for bad in (binary(tmp_path, "bin.json"), huge(tmp_path, "huge.json")):
        assert main(["verify", str(bad), "--no-progress"]) == 2
        assert str(bad) in one_error_line(capsys, "verify")
    for bad in (binary(tmp_path, "bin.qasm"), huge(tmp_path, "huge.qasm")):
        assert main(["verify", str(good_qasm), str(bad)]) == 2
        assert str(bad) in one_error_line(capsys, "verify")


def test_bench_folder_with_a_binary_file(tmp_path, capsys, good_qasm):
    suite = tmp_path / "nam"
    suite.mkdir()
    (suite / "good.qasm").write_text(GOOD)
    bad = binary(suite, "bad.qasm")
    assert main(["bench", str(suite), "--methods", "none", "--baselines", "qiskit",
                 "-o", str(tmp_path / "rep"), "--no-progress"]) == 2
    assert f"{bad} is not a text file" in one_error_line(capsys, "bench")
    assert not (tmp_path / "rep").exists()


def test_rl_train_binary_circuit_and_huge_resume(tmp_path, capsys, good_qasm):
    pytest.importorskip("torch")
    bad = binary(tmp_path, "bin.qasm")
    assert main(["rl", "train", "--circuits", str(bad), "--minutes", "1",
                 "-o", str(tmp_path / "m.pt")]) == 2
    assert f"{bad} is not a text file" in one_error_line(capsys, "rl")
    model = huge(tmp_path, "huge.pt")
    assert main(["rl", "train", "--circuits", str(good_qasm), "--minutes", "1",
                 "--resume", str(model), "-o", str(tmp_path / "m.pt")]) == 2
    assert f"RL model {model} is 101 MB" in one_error_line(capsys, "rl")
    assert not (tmp_path / "m.pt").exists()


def test_no_traceback_from_the_real_command(tmp_path):
    bad = binary(tmp_path, "bin.qasm")
    r = subprocess.run([sys.executable, "-m", "quartz", "optimize", str(bad), "--no-progress"],
                       cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip() == f"quartz optimize: error: {bad} is not a text file (not UTF-8) at byte 0"
