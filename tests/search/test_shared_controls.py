"""Toffolis that share their controls: sites found where the merge is exact, the unitary
unchanged (global phase included) on seeded random circuits, and the trial search keeping
only merges that lower the preprocessed cost."""
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.check import check_equivalent
from quartz.search.preprocess import preprocess
from quartz.search.shared_controls import merge_shared_controls, shared_control_pairs
from quartz.search.toffoli_trial import search_toffoli_rewrites

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"  # ../shared


def _toffoli(c: Circuit, a: int, b: int, t: int, folded: bool) -> None:
    if folded:
        c.h(t).ccz(a, b, t).h(t)
    else:
        c.ccx(a, b, t)


def _random_toffoli_circuit(rng: np.random.Generator, n: int = 5, gates: int = 40) -> Circuit:
    """Toffolis on few control pairs (so that pairs sharing controls are common) between cx,
    x, h and rotations."""
    c = Circuit(n)
    controls = [(0, 1), (1, 2)]
    for _ in range(gates):
        k = rng.integers(8)
        if k < 4:
            a, b = controls[rng.integers(len(controls))]
            t = int(rng.choice([q for q in range(n) if q not in (a, b)]))
            _toffoli(c, a, b, t, bool(rng.integers(2)))
        elif k == 4:
            q, r = rng.choice(n, 2, replace=False)
            c.cx(int(q), int(r))
        elif k == 5:
            c.x(int(rng.integers(n)))
        elif k == 6:
            c.h(int(rng.integers(n)))
        else:
            c.rz(np.pi / 4 * int(rng.integers(1, 8)), int(rng.integers(n)))
    return c


def test_every_merge_keeps_the_unitary_on_random_circuits():
    rng = np.random.default_rng(7)
    tested = hoisted = 0
    for _ in range(60):
        c = _random_toffoli_circuit(rng)
        u = c.unitary()
        for pair in shared_control_pairs(c):
            hoisted += bool(pair.hoist)
            for keep in (0, 1):
                m = merge_shared_controls(c, [(pair, keep)])
                assert len([g for g in m if g.name in ("ccx", "ccz")]) == \
                    len([g for g in c if g.name in ("ccx", "ccz")]) - 1
                np.testing.assert_allclose(m.unitary(), u, atol=1e-9)
                tested += 1
    assert tested >= 60 and hoisted >= 5  # the cases were exercised, moved gates included


def test_sites_need_adjacent_controls_and_no_chain_between_the_targets():
    base = Circuit(5).ccx(0, 1, 2).ccx(0, 1, 3)
    assert [(p.first.target, p.second.target) for p in shared_control_pairs(base)] == [(2, 3)]
    # A gate on a control between them: not a site.
    assert shared_control_pairs(Circuit(5).ccx(0, 1, 2).x(0).ccx(0, 1, 3)) == []
    assert shared_control_pairs(Circuit(5).ccx(0, 1, 2).h(1).ccx(0, 1, 3)) == []
    # A chain from the first target to the second (2 -> 4 -> 3): not a site.
    assert shared_control_pairs(Circuit(5).ccx(0, 1, 2).cx(2, 4).cx(4, 3).ccx(0, 1, 3)) == []
    # Same target, or different controls: not a site.
    assert shared_control_pairs(Circuit(5).ccx(0, 1, 2).ccx(0, 1, 2)) == []
    assert shared_control_pairs(Circuit(5).ccx(0, 1, 2).ccx(0, 4, 3)) == []
    # A gate on the second target written after the first Toffoli goes before the merge; a
    # gate on the first target after it stays after.
    c = Circuit(5).ccx(0, 1, 2).rz(0.25, 3).x(2).ccx(0, 1, 3)
    [pair] = shared_control_pairs(c)
    assert [c[i].name for i in pair.hoist] == ["rz"]
    m = merge_shared_controls(c, [(pair, 0)])
    assert [(g.name, g.qubits) for g in m] == [
        ("rz", (3,)), ("cx", (2, 3)), ("ccx", (0, 1, 2)), ("cx", (2, 3)), ("x", (2,))]
    np.testing.assert_allclose(m.unitary(), c.unitary(), atol=1e-9)


def test_folded_toffolis():
    c = Circuit(4).h(2).ccz(0, 1, 2).h(2).h(3).ccz(0, 1, 3).h(3)
    [pair] = shared_control_pairs(c)
    m = merge_shared_controls(c, [(pair, 1)])
    assert [(g.name, g.qubits) for g in m] == [
        ("cx", (3, 2)), ("h", (3,)), ("ccz", (0, 1, 3)), ("h", (3,)), ("cx", (3, 2))]
    np.testing.assert_allclose(m.unitary(), c.unitary(), atol=1e-9)
    # (bad arguments: tests/search/test_shared_target.py, for both merges)


def _mod_adder_prefix(gates: int) -> Circuit:
    path = SHARED / "nam-ccz" / "mod_adder_1024.qasm"
    if not path.exists():
        pytest.fail(f"{path} is missing: the tests read the benchmark suites from ../shared")
    return quartz.load(str(path))[:gates]


def test_the_trial_lowers_the_preprocessed_cost_and_stays_equal():
    c = _mod_adder_prefix(200)
    start = preprocess(c, "nam")
    best, rep = search_toffoli_rewrites(c, "nam", timeout=30)
    assert rep.sites == 10 and rep.merged >= 3 and rep.carries == 0
    assert rep.start_cost == len(start)
    assert len(best) == rep.cost <= len(start) - 15  # 575 -> 555 when measured
    assert {g.name for g in best} <= {"h", "x", "rz", "cx"}
    chk = check_equivalent(c, best, timeout=60)
    assert chk.ok is True, chk.detail


def test_nothing_merged_where_no_merge_pays_and_the_deadline_holds():
    c = Circuit(4).ccx(0, 1, 2).ccx(0, 1, 3)  # merging gives 2 cx and a Toffoli: it pays
    best, rep = search_toffoli_rewrites(c, "nam", timeout=10)
    assert rep.merged == 1 and len(best) < len(preprocess(c, "nam"))
    np.testing.assert_allclose(best.unitary(), c.unitary(), atol=1e-9)
    tof = Circuit(3).ccx(0, 1, 2)  # no site: the preprocessed input, no preprocessor runs
    best, rep = search_toffoli_rewrites(tof, "nam", timeout=10)
    assert rep.sites == 0 and rep.evaluations == 0 and best == preprocess(tof, "nam")
    big = _mod_adder_prefix(300)
    _, rep = search_toffoli_rewrites(big, "nam", timeout=0.004)  # the scan fits, one run at most
    assert rep.sites == 15 and rep.evaluations <= 1 and not rep.skipped
    best, rep = search_toffoli_rewrites(big, "nam", timeout=0.001)  # not even the scan fits
    assert rep.skipped and rep.sites == 0 and best == preprocess(big, "nam")


def test_optimize_merges_and_reports():
    c = _mod_adder_prefix(120)
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=10, seed=1, report=report)
    tof = report["toffoli"]
    assert tof["sites"] == 6 and tof["merged"] >= 1 and tof["cost"] < tof["start_cost"]
    assert len(out) <= tof["cost"] and report["check"]["ok"] is True
    report = {}
    quartz.optimize(quartz.load(str(SHARED / "nam" / "tof_3.qasm")), "nam", timeout=2, seed=1,
                    report=report)
    assert report["toffoli"]["sites"] == 0
    report = {}
    quartz.optimize(c, "nam", timeout=2, seed=1, report=report, preprocess=False)
    assert report["toffoli"] is None
