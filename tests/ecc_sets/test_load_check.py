"""ECC files are verified when they are loaded: shipped sets by the sha256 in the manifest,
any other file by quartz.verifier (verdicts cached by content hash); trust=True skips it."""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param, QuartzError
from quartz.ecc_sets import ECC, ECCSet, Phase, dumps, load, loads, read, shipped_sets, write
from quartz.ecc_sets import manifest, verdict_cache

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "quartz" / "data"


def shipped_json(name: str) -> dict:
    return json.loads(gzip.decompress((DATA / f"{name}.json.gz").read_bytes()))


def issue_file(tmp_path: Path) -> Path:
    """The issue's reproduction: nam_3_3 with cx(0,1) cx(0,1) of the identity class changed to
    cx(1,0) cx(0,1), still marked proven."""
    obj = shipped_json("nam_3_3")
    cl = obj["classes"][1]
    assert cl["proven"] and cl["circuits"][0]["gates"] == []
    assert cl["circuits"][1]["gates"] == [["cx", [0, 1], []], ["cx", [0, 1], []]]
    cl["circuits"][1]["gates"] = [["cx", [1, 0], []], ["cx", [0, 1], []]]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(obj))
    return p


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("QUARTZ_CACHE_DIR", str(d))
    return d / "ecc-verdicts"


def test_manifest_matches_the_shipped_files():
    recorded = manifest.recorded_hashes()
    assert recorded == manifest.compute_manifest()
    assert sorted(recorded) == shipped_sets()


def test_issue_reproduction_is_refused_by_load_read_and_loads(tmp_path, cache):
    p = issue_file(tmp_path)
    for f in (lambda: load(str(p)), lambda: read(p), lambda: loads(p.read_bytes(), source=str(p))):
        with pytest.raises(QuartzError) as e:
            f()
        msg = str(e.value)
        assert str(p) in msg and "class 1 is marked proven but is false" in msg
        assert "[(empty)]" in msg and "[cx(1,0) cx(0,1)]" in msg and "\n" not in msg
    assert not cache.exists() or not list(cache.iterdir())  # a refusal is never cached
    s = read(p, trust=True)  # trusted: read as is
    assert len(s.classes) == 23 and s.metadata["load_check"] == "trusted"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "quartz", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def small_qasm(tmp_path: Path) -> Path:
    """A circuit the false rule rewrites: cx(1,0) cx(0,1) -> nothing."""
    p = tmp_path / "small.qasm"
    p.write_text(quartz.dumps(Circuit(2).h(0).cx(1, 0).cx(0, 1).h(1)))
    return p


def test_cli_refuses_the_false_ecc_file(tmp_path):
    bad, out = issue_file(tmp_path), tmp_path / "out.qasm"
    r = run_cli("optimize", str(small_qasm(tmp_path)), "--ecc", str(bad), "--timeout", "2",
                "--no-progress", "-o", str(out))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "class 1 is marked proven but is false" in lines[0]
    assert not out.exists()


def test_cli_trust_ecc_still_returns_an_equivalent_circuit(tmp_path):
    bad, out, src = issue_file(tmp_path), tmp_path / "out.qasm", small_qasm(tmp_path)
    r = run_cli("optimize", str(src), "--ecc", str(bad), "--trust-ecc", "--timeout", "2",
                "--no-progress", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "not equivalent to the input" in r.stderr  # the final check caught the false rewrite
    # ... and names the culprit (both directions of the false class)
    assert ("the ECC set has 2 false transformation(s): [(empty)] -> [cx(1,0) cx(0,1)], "
            "[cx(1,0) cx(0,1)] -> [(empty)]") in r.stderr
    assert "BUG" not in r.stderr
    # ... drops them, searches again, and writes that result, checked (item 3 of issue 18)
    assert "dropped them and searched again" in r.stderr
    assert "check: equivalent by unitary (proof;" in r.stderr
    a, b = quartz.load(str(src)), quartz.load(str(out))
    np.testing.assert_allclose(b.unitary(), a.unitary(), atol=1e-9)


def test_api_trust_ecc(tmp_path):
    bad = issue_file(tmp_path)
    c = Circuit(2).h(0).cx(1, 0).cx(0, 1).h(1)
    with pytest.raises(QuartzError, match="is false"):
        quartz.optimize(c, ecc_set=str(bad), timeout=1)
    with pytest.warns(RuntimeWarning, match=r"not equivalent.*2 false transformation\(s\)"):
        out = quartz.optimize(c, ecc_set=str(bad), timeout=1, trust_ecc=True)
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-9)


def test_a_failed_check_drops_the_false_rules_and_recovers(tmp_path):
    # The false rule (cx(1,0) cx(0,1) -> nothing) applies, and so do true ones (h h, x x, rz
    # merging); without preprocessing only the search removes them.
    import math

    bad = issue_file(tmp_path)
    c = (Circuit(2).h(0).h(0).cx(1, 0).cx(0, 1).rz(math.pi / 4, 1).rz(math.pi / 4, 1).x(0)
         .x(0).h(1))
    report: dict = {}
    with pytest.warns(RuntimeWarning) as caught:
        out = quartz.optimize(c, ecc_set=str(bad), timeout=1, seed=0, trust_ecc=True,
                              preprocess=False, report=report)
    msg = str(caught[0].message)
    assert "not equivalent to the input" in msg and "[(empty)] -> [cx(1,0) cx(0,1)]" in msg
    assert "dropped them and searched again" in msg and "returning the input" not in msg
    assert report["returned"] == "recovered"
    assert report["dropped"] == ["[(empty)] -> [cx(1,0) cx(0,1)]", "[cx(1,0) cx(0,1)] -> [(empty)]"]
    assert [k["ok"] for k in report["checks"]] == [False, True] and report["check"]["proof"]
    assert len(out) < len(c)
    assert {g.name for g in out} >= {"cx"}  # the false rewrite is not in the result
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-9)


def test_the_recovery_runs_on_a_work_budget_too(tmp_path):
    # the recovery's search got `work` twice (the circuit's parameter had the same name)
    import math

    bad = issue_file(tmp_path)
    c = Circuit(2).h(0).h(0).cx(1, 0).cx(0, 1).rz(math.pi / 4, 1).rz(math.pi / 4, 1).x(0).x(0)
    report: dict = {}
    with pytest.warns(RuntimeWarning, match="dropped them and searched again"):
        out = quartz.optimize(c, ecc_set=str(bad), timeout=30, seed=0, trust_ecc=True,
                              preprocess=False, report=report, work=200_000, patience=None)
    assert report["returned"] == "recovered" and report["search"]["work"] == 200_000
    assert len(out) < len(c)
    np.testing.assert_allclose(out.unitary(), c.unitary(), atol=1e-9)


def test_a_modified_shipped_file_is_refused(tmp_path, monkeypatch):
    import quartz.ecc_sets.shipped as shipped

    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("*.pt"))
    obj = shipped_json("nam_3_3")
    obj["metadata"]["note"] = "edited"
    (data / "nam_3_3.json.gz").write_bytes(gzip.compress(json.dumps(obj).encode(), mtime=0))
    monkeypatch.setattr(shipped, "DATA_DIR", data)
    with pytest.raises(QuartzError, match="does not match the sha256 recorded"):
        load("nam_3_3")
    assert len(load("nam_3_3", trust=True).classes) == 23
    assert load("ibm_3_3").metadata["load_check"] == "shipped"  # untouched files still load


def test_shipped_content_under_another_name_is_not_verified_again(tmp_path, cache):
    p = tmp_path / "copy.json.gz"
    shutil.copy(DATA / "nam_3_3.json.gz", p)
    assert read(p).metadata["load_check"] == "shipped"
    assert not cache.exists()


def test_verdicts_are_cached_by_content_hash(tmp_path, cache):
    s = load("nam_3_3")
    s.metadata["note"] = "a user's copy"
    p = tmp_path / "mine.json"
    write(s, p)
    first = read(p)
    assert first.metadata["load_check"] == "verified" and first.metadata["dropped_unproven"] == 0
    entries = list(cache.iterdir())
    assert len(entries) == 1 and entries[0].name.startswith(manifest.sha256(p.read_bytes()))
    assert read(p).metadata["load_check"] == "cached"
    q = tmp_path / "same_bytes.json"
    shutil.copy(p, q)
    assert read(q).metadata["load_check"] == "cached"  # by content, not by name
    entries[0].write_text("{garbage")  # a broken entry is ignored, never believed
    assert read(p).metadata["load_check"] == "verified"
    assert json.loads(entries[0].read_text())["classes"] == len(s.classes)
    # a cached verdict does not cover other bytes
    s.classes[1] = ECC([Circuit(2), Circuit(2).cx(1, 0).cx(0, 1)], [Phase(), Phase()], True)
    write(s, p)
    with pytest.raises(QuartzError, match="class 1 is marked proven but is false"):
        read(p)


def test_unwritable_cache_does_not_stop_loading(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("QUARTZ_CACHE_DIR", str(blocker / "sub"))
    s = load("nam_3_3")
    s.metadata["x"] = 1
    write(s, tmp_path / "a.json")
    assert read(tmp_path / "a.json").metadata["load_check"] == "verified"


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("QUARTZ_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert verdict_cache.cache_dir() == tmp_path / "xdg" / "quartz" / "ecc-verdicts"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert verdict_cache.cache_dir() == tmp_path / "home" / ".cache" / "quartz" / "ecc-verdicts"


def test_an_unprovable_class_is_dropped_with_a_warning(tmp_path, cache):
    r = Param.radians
    good = ECC([Circuit(1).h(0).h(0), Circuit(1)], [Phase(), Phase()], proven=True)
    # float constants are generalised to free symbols: proven neither way
    unknown = ECC([Circuit(1).rz(r(0.3), 0).rz(r(0.4), 0), Circuit(1).rz(r(0.7), 0)],
                  [Phase(), Phase()], proven=True)
    p = tmp_path / "u.json"
    p.write_text(dumps(ECCSet(("h", "rz"), 2, 1, 0, [good, unknown])))
    for how in ("verified", "cached"):
        with pytest.warns(UserWarning, match=r"dropped 1 class\(es\) .* \(classes 1\)"):
            s = read(p)
        assert s.metadata["load_check"] == how and s.metadata["dropped_unproven"] == 1
        assert [e.circuits for e in s.classes] == [good.circuits]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(read(p, trust=True).classes) == 2


def test_unproven_classes_are_not_verified_and_not_used(tmp_path, cache):
    wrong = ECC([Circuit(1).h(0), Circuit(1).x(0)], [Phase(), None], proven=False)
    p = tmp_path / "w.json"
    p.write_text(dumps(ECCSet(("h", "x"), 1, 1, 0, [wrong])))
    s = read(p)
    assert len(s.classes) == 1 and s.transformations() == []


def test_verify_cli_still_reports_false_classes(tmp_path):
    bad = issue_file(tmp_path)
    r = run_cli("verify", str(bad), "--jobs", "1")
    assert r.returncode == 1 and "1 refuted" in r.stdout + r.stderr, r.stdout + r.stderr


def test_time_of_verification_at_load(tmp_path, cache):
    """The largest shipped set, as a user file: verified in a few seconds, cached in much less."""
    import time

    obj = shipped_json("nam_6_3")
    obj["metadata"]["note"] = "copy"
    p = tmp_path / "nam63.json"
    p.write_text(json.dumps(obj))
    t = time.perf_counter()
    assert read(p).metadata["load_check"] == "verified"
    verify_s = time.perf_counter() - t
    t = time.perf_counter()
    assert read(p).metadata["load_check"] == "cached"
    cached_s = time.perf_counter() - t
    assert verify_s < 30 and cached_s < verify_s
    print(f"nam_6_3 verify at load {verify_s:.2f} s, cache hit {cached_s:.2f} s")


def test_false_transformations_are_found_numerically():
    from quartz.ecc_sets import Transformation
    from quartz.verifier.rules import false_transformations

    p0 = Param.symbol(0)
    good = Transformation(Circuit(1).rz(p0, 0), Circuit(1).p(p0, 0), Phase.make(0, {0: Fraction(1, 2)}), 0)
    wrong_phase = Transformation(Circuit(1).rz(p0, 0), Circuit(1).p(p0, 0), Phase(), 1)
    wrong = Transformation(Circuit(2).cx(0, 1), Circuit(2).cx(1, 0), Phase(), 2)
    assert false_transformations([good, wrong_phase, good, wrong]) == ([1, 3], 4)
    assert false_transformations(load("nam").transformations(), budget=30) == ([], 8292)


def test_every_command_that_takes_an_ecc_file_refuses_a_false_one(tmp_path, capsys, monkeypatch):
    from quartz.cli import main

    bad = issue_file(tmp_path)
    qasm = small_qasm(tmp_path)
    monkeypatch.setattr("quartz.bench.runner.run_suite",
                        lambda *a, **k: pytest.fail("bench ran with a false ECC file"))
    assert main(["bench", "tof:3", "--ecc-set", str(bad), "--timeout", "1", "--no-progress",
                 "-o", str(tmp_path / "report")]) == 2
    assert "class 1 is marked proven but is false" in capsys.readouterr().err
    assert not (tmp_path / "report").exists()
    pytest.importorskip("torch")
    monkeypatch.setattr("quartz.rl.train.train", lambda *a, **k: pytest.fail("trained on it"))
    args = ["rl", "train", "--circuits", str(qasm), "--minutes", "0.01", "-o", str(tmp_path / "m.pt"),
            "--ecc-set", str(bad)]
    assert main(args) == 2
    assert "class 1 is marked proven but is false" in capsys.readouterr().err
    with pytest.raises(pytest.fail.Exception, match="trained on it"):
        main(args + ["--trust-ecc"])  # trusted: it gets as far as training
