"""`quartz optimize`: output file, stdout, summary and progress on stderr, errors."""
from __future__ import annotations

import pytest

import quartz
import quartz.pipeline.matchers
from quartz.cli import main
from quartz.search import Matcher
from search_rules import random_nam_circuit, same_unitary


@pytest.fixture
def nam_rules(monkeypatch, small_set):
    monkeypatch.setitem(quartz.pipeline.matchers._matchers, "nam", Matcher(small_set))


def test_writes_output_and_summary(nam_rules, tmp_path, capsys):
    c = random_nam_circuit(3, 40, 9)
    src, dst = tmp_path / "in.qasm", tmp_path / "out.qasm"
    quartz.dump(c, str(src))
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "1", "--seed", "3"]) == 0
    out = quartz.load(str(dst))
    assert len(out) < len(c) and same_unitary(out, c)
    err = capsys.readouterr().err
    assert "before:" in err and "after:" in err and "optimize" in err
    assert "seed:   3\n" in err
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "1"]) == 0
    drawn = [line for line in capsys.readouterr().err.splitlines() if line.startswith("seed:")]
    assert len(drawn) == 1 and int(drawn[0].split()[1]) >= 0  # a fresh seed, printed


def test_saving_is_counted_from_the_input_in_the_gate_set(tmp_path, capsys):
    # One Toffoli is 15 Nam gates: the summary said "-1400.0% fewer gates" against the one
    # ccx; it now names the converted count and measures the saving from it.
    src, dst = tmp_path / "t.qasm", tmp_path / "o.qasm"
    quartz.dump(quartz.Circuit(3).ccx(0, 1, 2), str(src))
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "2", "--seed", "1",
                 "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "before: 1 gates, 0 cx, 0 T, depth 1 (15 gates in nam after conversion)" in err
    assert "after:  15 gates" in err and "(0.0% fewer gates," in err


def test_stdout_and_costs(nam_rules, tmp_path, capsys):
    c = random_nam_circuit(3, 30, 4)
    src = tmp_path / "in.qasm"
    quartz.dump(c, str(src))
    assert main(["optimize", str(src), "--timeout", "0.5", "--cost", "two_qubit", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert same_unitary(quartz.loads(captured.out), c)
    assert "best" not in captured.err


def test_errors_are_one_line(nam_rules, tmp_path, capsys):
    assert main(["optimize", str(tmp_path / "nope.qasm")]) == 2
    assert "error" in capsys.readouterr().err
    src = tmp_path / "in.qasm"
    quartz.dump(random_nam_circuit(2, 5, 1), str(src))
    assert main(["optimize", str(src), "--cost", "area"]) == 2
    assert "unknown cost" in capsys.readouterr().err
    assert main(["optimize", str(src), "--model", "x.pt"]) == 2


def test_prints_how_the_result_was_checked(nam_rules, tmp_path, capsys):
    c = random_nam_circuit(3, 30, 4)
    src, dst = tmp_path / "in.qasm", tmp_path / "out.qasm"
    quartz.dump(c, str(src))
    assert main(["optimize", str(src), "-o", str(dst), "--timeout", "0.5", "--no-progress",
                 "--require-check"]) == 0
    lines = [l for l in capsys.readouterr().err.splitlines() if l.startswith("check: ")]
    assert len(lines) == 1 and lines[0].startswith("check: equivalent by unitary (proof;")
    assert same_unitary(quartz.load(str(dst)), c)


def wide_u3_circuit() -> quartz.Circuit:
    """26 qubits with a u3: no path sum, too wide to simulate, so only qcec could decide."""
    c = quartz.Circuit(26).h(0)
    for q in range(25):
        c.cx(q, q + 1)
    return c.u3(0.1, 0.2, 0.3, 5).h(3).h(3)


def test_require_check_exits_3_and_writes_nothing_when_no_check_concluded(tmp_path, capsys):
    from quartz.cli.optimize_cmd import NOT_CHECKED_EXIT

    src, dst = tmp_path / "in.qasm", tmp_path / "out.qasm"
    quartz.dump(wide_u3_circuit(), str(src))
    args = ["optimize", str(src), "-o", str(dst), "--gateset", "ibm", "--timeout", "0.2",
            "--check-timeout", "0.1", "--no-progress"]
    assert main(args + ["--require-check"]) == NOT_CHECKED_EXIT == 3
    err = capsys.readouterr().err
    assert "check: not checked (" in err and "--require-check" in err
    assert not dst.exists()
    assert main(args) == 0  # without the flag the unchecked result is written, and says so
    assert "check: not checked (" in capsys.readouterr().err and dst.exists()
    assert main(args[:-1] + ["--check-timeout", "-1"]) == 2
