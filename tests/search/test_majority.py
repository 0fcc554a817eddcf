"""Adder carries written with one Toffoli: sites found where the rewrite is exact, the unitary
unchanged (global phase included) on seeded random circuits, and vbe_adder_3 through the
trial search."""
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit
from quartz.check import check_equivalent
from quartz.search.majority import majority_sites, rewrite_majorities, split_shared_hadamards
from quartz.search.preprocess import preprocess
from quartz.search.preprocess.relative_phase import find_toffolis
from quartz.search.toffoli_trial import search_toffoli_rewrites

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks"  # ../shared


def _carry(c: Circuit, a: int, b: int, cc: int, t: int, inverse: bool, folded: bool) -> None:
    seq = [((a, b, t), None), (None, (a, b)), ((cc, b, t), None)]
    for tof, cx in (seq[::-1] if inverse else seq):
        if cx is not None:
            c.cx(*cx)
        elif folded:
            c.h(tof[2]).ccz(*tof).h(tof[2])
        else:
            c.ccx(*tof)


def _random_carry_circuit(rng: np.random.Generator, n: int = 5, parts: int = 12) -> Circuit:
    c = Circuit(n)
    for _ in range(parts):
        k = rng.integers(6)
        if k < 3:
            a, b, cc, t = (int(q) for q in rng.choice(n, 4, replace=False))
            _carry(c, a, b, cc, t, bool(rng.integers(2)), bool(rng.integers(2)))
        elif k == 3:
            q, r = rng.choice(n, 2, replace=False)
            c.cx(int(q), int(r))
        elif k == 4:
            c.h(int(rng.integers(n)))
        else:
            c.rz(np.pi / 4 * int(rng.integers(1, 8)), int(rng.integers(n)))
    return c


def test_every_carry_rewrite_keeps_the_unitary_on_random_circuits():
    rng = np.random.default_rng(11)
    tested = {False: 0, True: 0}
    for _ in range(40):
        c = _random_carry_circuit(rng)
        u = c.unitary()
        for site in majority_sites(c):
            r = rewrite_majorities(c, [site])
            assert [g.name for g in r].count("ccx") + [g.name for g in r].count("ccz") == \
                [g.name for g in c].count("ccx") + [g.name for g in c].count("ccz") - 1
            np.testing.assert_allclose(r.unitary(), u, atol=1e-9)
            tested[site.inverse] += 1
    assert tested[False] >= 15 and tested[True] >= 15  # both forms exercised


def test_sites_need_the_pattern_next_on_its_wires():
    c = Circuit(5).ccx(0, 1, 3).cx(0, 1).ccx(2, 1, 3)
    [s] = majority_sites(c)
    assert (s.a, s.b, s.c, s.t, s.inverse) == (0, 1, 2, 3, False)
    [s] = majority_sites(Circuit(5).ccx(2, 1, 3).cx(0, 1).ccx(0, 1, 3))
    assert (s.a, s.b, s.c, s.t, s.inverse) == (0, 1, 2, 3, True)
    # Something on b or t between the gates, or a wrong cx: no site.
    assert majority_sites(Circuit(5).ccx(0, 1, 3).x(1).cx(0, 1).ccx(2, 1, 3)) == []
    assert majority_sites(Circuit(5).ccx(0, 1, 3).cx(0, 1).x(3).ccx(2, 1, 3)) == []
    assert majority_sites(Circuit(5).ccx(0, 1, 3).cx(1, 0).ccx(2, 1, 3)) == []
    # A chain from the cx's control back into the second Toffoli's control: no site.
    assert majority_sites(Circuit(5).ccx(0, 1, 3).cx(0, 1).cx(0, 2).ccx(2, 1, 3)) == []
    # A gate on c before the second Toffoli goes before the rewritten carry.
    c = Circuit(5).ccx(0, 1, 3).cx(0, 1).rz(0.5, 2).ccx(2, 1, 3)
    [s] = majority_sites(c)
    r = rewrite_majorities(c, [s])
    assert (r[0].name, r[0].qubits) == ("rz", (2,))
    np.testing.assert_allclose(r.unitary(), c.unitary(), atol=1e-9)
    with pytest.raises(ValueError, match="share a gate"):
        rewrite_majorities(c, [s, s])


def test_split_shared_hadamards_makes_each_ccz_a_toffoli():
    c = Circuit(4).h(3).ccz(0, 1, 3).cx(0, 1).ccz(2, 1, 3).h(3)
    assert find_toffolis(c, list(c)) == {}
    s = split_shared_hadamards(c)
    assert [g.name for g in s] == ["h", "ccz", "h", "h", "cx", "ccz", "h"]
    np.testing.assert_allclose(s.unitary(), c.unitary(), atol=1e-9)
    assert sorted(find_toffolis(s, list(s))) == [1, 5]
    assert len(majority_sites(s)) == 1
    plain = Circuit(2).h(0).cx(0, 1)
    assert split_shared_hadamards(plain) is plain


def test_vbe_adder_3_carries_by_trial():
    path = SHARED / "nam" / "vbe_adder_3.qasm"
    if not path.exists():
        pytest.fail(f"{path} is missing: the tests read the benchmark suites from ../shared")
    c = quartz.load(str(path))
    start = preprocess(c, "nam")
    best, rep = search_toffoli_rewrites(c, "nam", timeout=30)
    assert rep.carry_sites == 5 and rep.carries == 5 and rep.merged == 0
    assert len(start) == 89 and len(best) == rep.cost == 72  # before any gate-level search
    assert check_equivalent(c, best, timeout=60).ok is True
    assert rep.rewritten is not None and preprocess(rep.rewritten, "nam") == best
    assert [g.name for g in rep.rewritten].count("ccx") == 5  # one Toffoli per carry
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=10, seed=1, report=report)
    assert report["toffoli"]["carries"] == 5 and len(out) <= 72
    assert report["check"]["ok"] is True
