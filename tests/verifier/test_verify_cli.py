"""`quartz verify`: ECC files (Quartz's JSON, corrupted classes included) and QASM pairs."""
import json

import pytest

from quartz.cli import main

QUARTZ_FILE = [
    [[4, "", "", ["add", ["P2"], ["P0", "P1"]], ["add", ["P3"], ["P0", "P0"]]], [2, "1/3", "1/5"]],
    {
        "0_2": [[[1, 1], [["rz", ["Q0"], ["Q0", "P2"]]]],
                [[1, 2], [["rz", ["Q0"], ["Q0", "P0"]], ["rz", ["Q0"], ["Q0", "P1"]]]]],
        "1_2": [[[2, 0], []], [[2, 2], [["cx", ["Q0", "Q1"], ["Q0", "Q1"]], ["cx", ["Q0", "Q1"], ["Q0", "Q1"]]]]],
        # Quartz's rz(t) is our rz(2t): rz(P0) = e^{-i p0} u1(2 p0) = e^{-i p0} u1(P3)
        "2_2": [[[1, 1], [["rz", ["Q0"], ["Q0", "P0"]]]], [[1, 1], [["u1", ["Q0"], ["Q0", "P3"]]]]],
        "3_2": [[[2, 1], [["cx", ["Q0", "Q1"], ["Q0", "Q1"]]]], [[2, 1], [["cx", ["Q1", "Q0"], ["Q1", "Q0"]]]]],
        "4_2": [[[1, 1], [["foo", ["Q0"], ["Q0"]]]], [[1, 0], []]],
        "5_2": [[[2, 1], [["cx", ["Q0"], ["Q0"]]]], [[1, 0], []]],
        "6_2": [[[1, 1], [["rz", ["Q0"], ["Q0", "P9"]]]], [[1, 0], []]],
    },
]


@pytest.fixture
def quartz_file(tmp_path):
    p = tmp_path / "ecc.json"
    p.write_text(json.dumps(QUARTZ_FILE))
    return str(p)


def test_verify_quartz_file_text(quartz_file, capsys):
    rc = main(["verify", quartz_file, "--jobs", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "7 classes: 3 proven, 1 refuted, 0 unknown, 3 corrupt" in out
    assert "class 3_2: refuted" in out and "counterexample" in out
    assert "class 4_2: corrupt" in out and "'foo'" in out
    assert "class 5_2: corrupt" in out and "cx" in out
    assert "class 6_2: corrupt" in out


def test_verify_quartz_file_json(quartz_file, capsys):
    rc = main(["verify", quartz_file, "--jobs", "2", "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert (rep["proven"], rep["refuted"], rep["unknown"], rep["corrupt"]) == (3, 1, 0, 3)
    by_id = {c["id"]: c for c in rep["classes"]}
    assert by_id["0_2"]["status"] == "proven" and by_id["4_2"]["status"] == "corrupt"


def test_verify_all_proven_exit_zero(tmp_path, capsys):
    data = [QUARTZ_FILE[0], {k: QUARTZ_FILE[1][k] for k in ("0_2", "1_2", "2_2")}]
    p = tmp_path / "good.json"
    p.write_text(json.dumps(data))
    assert main(["verify", str(p), "--jobs", "1", "--no-progress"]) == 0
    assert "3 proven, 0 refuted" in capsys.readouterr().out


def test_verify_bad_files(tmp_path, capsys):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    assert main(["verify", str(p)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    p.write_text(json.dumps([[[1, ["bogus", ["P0"], []]]], {}]))
    assert main(["verify", str(p)]) == 2
    assert "bogus" in capsys.readouterr().err


def test_verify_qasm_pair(tmp_path, capsys):
    a = tmp_path / "a.qasm"
    b = tmp_path / "b.qasm"
    c = tmp_path / "c.qasm"
    hdr = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\n'
    a.write_text(hdr + "cx q[0],q[1];\n")
    b.write_text(hdr + "h q[0];\nh q[1];\ncx q[1],q[0];\nh q[0];\nh q[1];\n")
    c.write_text(hdr + "cx q[1],q[0];\n")
    assert main(["verify", str(a), str(b)]) == 0
    assert capsys.readouterr().out.startswith("proven (exact")
    assert main(["verify", str(a), str(c), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "refuted" and out["counterexample"] == []


def test_verify_usage_errors(tmp_path, capsys):
    assert main(["verify", "a", "b", "c"]) == 2
    assert "one ECC file" in capsys.readouterr().err
    assert main(["verify", "x.json", "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
