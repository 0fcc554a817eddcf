"""Toffolis on one target with a common control: sites found where the merge is exact, the
unitary unchanged (global phase included) on seeded random circuits, and the trial keeping the
merge where it pays (ham15-med, hwb6)."""
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.check import check_equivalent
from quartz.search.preprocess import preprocess, recognize_ccz
from quartz.search.shared_controls import merge_shared_controls, shared_control_pairs
from quartz.search.shared_target import merge_shared_targets, shared_target_pairs
from quartz.search.toffoli_trial import search_toffoli_rewrites

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"  # ../shared


def _random_toffoli_circuit(rng: np.random.Generator, n: int = 5, gates: int = 40) -> Circuit:
    """Toffolis onto few targets under few controls (so that pairs on one target with a
    common control are common) between cx, x, h and rotations."""
    c = Circuit(n)
    for _ in range(gates):
        k = rng.integers(8)
        if k < 4:
            t = int(rng.integers(2))
            a, b = (int(q) for q in rng.choice([q for q in range(n) if q != t], 2, replace=False))
            if rng.integers(2):
                c.h(t).ccz(a, b, t).h(t)
            else:
                c.ccx(a, b, t)
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
    rng = np.random.default_rng(3)
    tested = hoisted = folded = 0
    for _ in range(80):
        c = _random_toffoli_circuit(rng)
        u = c.unitary()
        for pair in shared_target_pairs(c):
            hoisted += bool(pair.hoist)
            folded += c[pair.first.core].name == "ccz"
            for keep in (0, 1):
                m = merge_shared_targets(c, [(pair, keep)])
                assert len([g for g in m if g.name in ("ccx", "ccz")]) == \
                    len([g for g in c if g.name in ("ccx", "ccz")]) - 1
                np.testing.assert_allclose(m.unitary(), u, atol=1e-9)
                tested += 1
    assert tested >= 60 and hoisted >= 5 and folded >= 5  # the cases were exercised


def test_sites_need_the_target_and_common_control_adjacent_and_no_chain():
    base = Circuit(5).ccx(0, 1, 3).ccx(0, 2, 3)
    [pair] = shared_target_pairs(base)
    assert (pair.first.core, pair.second.core, pair.shared) == (0, 1, 0)
    # A gate on the target or on the common control between them: not a site.
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).x(3).ccx(0, 2, 3)) == []
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).h(0).ccx(0, 2, 3)) == []
    # A chain from the first Toffoli to the second (control 1 -> 2): not a site.
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).cx(1, 2).ccx(0, 2, 3)) == []
    # Both controls common (they cancel), none common, or other targets: not a site.
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).ccx(0, 1, 3)) == []
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).ccx(2, 4, 3)) == []
    assert shared_target_pairs(Circuit(5).ccx(0, 1, 3).ccx(0, 2, 4)) == []
    # A gate on the second's other control goes before the merge; one on the first's stays
    # after.
    c = Circuit(5).ccx(0, 1, 3).rz(0.25, 2).x(1).ccx(0, 2, 3)
    [pair] = shared_target_pairs(c)
    assert [c[i].name for i in pair.hoist] == ["rz"]
    m = merge_shared_targets(c, [(pair, 0)])
    assert [(g.name, g.qubits) for g in m] == [
        ("rz", (2,)), ("cx", (2, 1)), ("ccx", (0, 1, 3)), ("cx", (2, 1)), ("x", (1,))]
    np.testing.assert_allclose(m.unitary(), c.unitary(), atol=1e-9)


def test_folded_toffolis():
    c = Circuit(4).h(3).ccz(0, 1, 3).h(3).h(3).ccz(0, 2, 3).h(3)
    [pair] = shared_target_pairs(c)
    m = merge_shared_targets(c, [(pair, 1)])
    assert [(g.name, g.qubits) for g in m] == [
        ("cx", (1, 2)), ("h", (3,)), ("ccz", (0, 2, 3)), ("h", (3,)), ("cx", (1, 2))]
    np.testing.assert_allclose(m.unitary(), c.unitary(), atol=1e-9)


@pytest.mark.parametrize("find, merge, circuit", [
    (shared_target_pairs, merge_shared_targets, Circuit(4).ccx(0, 1, 3).ccx(0, 2, 3)),
    (shared_control_pairs, merge_shared_controls, Circuit(4).ccx(0, 1, 2).ccx(0, 1, 3))])
def test_bad_merge_arguments_are_refused(find, merge, circuit):
    # Both merges go through shared_controls.merge_toffoli_pairs.
    [pair] = find(circuit)
    with pytest.raises(ValueError, match="keep must be 0"):
        merge(circuit, [(pair, 2)])
    with pytest.raises(ValueError, match=f"{merge.__name__}: two merges share a gate"):
        merge(circuit, [(pair, 0), (pair, 1)])


@pytest.mark.parametrize("name, fewer", [("ham15-med", 10), ("hwb6", 3)])
def test_the_trial_keeps_a_merge_that_pays(name, fewer):
    path = SHARED / "nam" / f"{name}.qasm"
    if not path.exists():
        pytest.fail(f"{path} is missing: the tests read the benchmark suites from ../shared")
    c = quartz.load(str(path))
    assert shared_target_pairs(recognize_ccz(c))
    start = preprocess(c, "nam")
    best, rep = search_toffoli_rewrites(c, "nam", timeout=60)
    assert rep.merged >= 1 and len(best) == rep.cost <= len(start) - fewer
    chk = check_equivalent(c, best, timeout=60)
    assert chk.ok is True, chk.detail


def test_sites_that_lose_by_a_wide_margin_are_not_tried_again():
    # ham15-med: 6 sites, 12 evaluations in the first pass, which keeps one merge; 4 sites
    # raised the cost by HOPELESS_MARGIN or more, so the second pass tries one site (2
    # evaluations; it tried 5 sites, 10 evaluations, before).
    c = quartz.load(str(SHARED / "nam" / "ham15-med.qasm"))
    best, rep = search_toffoli_rewrites(c, "nam", timeout=60)
    assert (rep.sites, rep.merged, rep.hopeless, rep.evaluations) == (6, 1, 4, 14)
    assert rep.cost == len(best) == 599 and rep.as_dict()["hopeless"] == 4
