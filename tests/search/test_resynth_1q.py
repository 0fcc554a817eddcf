"""One-qubit run resynthesis (inexact): shortest {h, x, rz} and {rx, rz} forms, alone and in the
search."""
from __future__ import annotations

import doctest
import math
import random
from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param, QuartzError
from quartz.search import resynth_1q
from quartz.search.driver import search
from quartz.search.resynth_1q import resynthesize_1q_runs
from quartz.search.resynth_2q import has_float_angles, search_and_resynthesize

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "nam"


def same(a: Circuit, b: Circuit, atol: float = 1e-10) -> bool:
    """Equal unitaries, global phase included."""
    return bool(np.max(np.abs(a.unitary() - b.unitary())) <= atol)


def random_run_circuit(rng: random.Random, n: int, m: int) -> Circuit:
    c = Circuit(n)
    for _ in range(m):
        k, q = rng.random(), rng.randrange(n)
        if k < 0.3:
            c.h(q)
        elif k < 0.4:
            c.x(q)
        elif k < 0.8:
            c.rz(rng.choice([Param.pi(1, 4), Param.pi(-1, 4), Param.pi(1, 2), Param.pi(1, 1),
                             rng.uniform(-4, 4)]), q)
        elif n > 1:
            a, b = rng.sample(range(n), 2)
            c.cx(a, b)
    c.global_phase = rng.uniform(-3, 3)
    return c


def test_module_doctest():
    assert doctest.testmod(resynth_1q).failed == 0


@pytest.mark.parametrize("seed", range(40))
def test_random_circuits_keep_the_unitary_and_never_grow(seed):
    rng = random.Random(seed)
    for _ in range(25):
        c = random_run_circuit(rng, rng.choice([1, 2, 3]), rng.randint(1, 16))
        out = resynthesize_1q_runs(c)
        assert len(out) <= len(c)
        assert same(out, c)


def test_no_run_is_longer_than_five_gates():
    rng = random.Random(5)
    for _ in range(50):
        c = Circuit(1)
        for _ in range(rng.randint(6, 20)):
            c.h(0) if rng.random() < 0.5 else c.rz(rng.uniform(-3, 3), 0)
        out = resynthesize_1q_runs(c)
        assert len(out) <= 5 and same(out, c)


def test_special_angles_give_short_exact_forms():
    q = Param.pi(1, 2)
    # (h s)^3 is the identity up to a phase: nothing is left but the phase.
    c = Circuit(1).h(0).rz(q, 0).h(0).rz(q, 0).h(0).rz(q, 0)
    out = resynthesize_1q_runs(c)
    assert len(out) == 0 and same(out, c)
    # h rz(pi) h = x, with exact angles kept exact.
    c = Circuit(1).h(0).rz(Param.pi(1, 1), 0).h(0).rz(Param.pi(1, 4), 0)
    out = resynthesize_1q_runs(c)
    assert len(out) == 2 and same(out, c) and not has_float_angles(out)


def test_runs_stop_at_two_qubit_gates_and_other_gates():
    c = Circuit(2).h(0).rz(0.3, 0).cx(0, 1).h(0).rz(0.2, 0).h(0)
    assert resynthesize_1q_runs(c) == c  # 2 + 3 gates: both already shortest
    c = Circuit(1).h(0).rz(0.3, 0).t(0).h(0).rz(0.2, 0)  # t is not a run gate
    assert resynthesize_1q_runs(c) == c


def test_a_run_without_h_never_gains_one():
    c = Circuit(1).rz(0.3, 0).x(0).rz(0.2, 0).x(0).rz(0.1, 0)
    out = resynthesize_1q_runs(c)
    assert "h" not in out.count_ops() and len(out) == 1 and same(out, c)


def test_bad_input():
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        resynthesize_1q_runs([])


def long_runs(seed: int) -> Circuit:
    """cx gates with six- and seven-gate one-qubit runs between them (generic angles)."""
    rng = random.Random(seed)
    c = Circuit(2)
    for _ in range(4):
        for q in (0, 1):
            for _ in range(3):
                c.h(q).rz(rng.uniform(-3, 3), q)
        c.cx(0, 1)
    return c


def test_the_search_uses_it_only_when_asked():
    from quartz.pipeline.matchers import get_matcher
    from quartz.gatesets import get_gate_set

    c = long_runs(1)
    m = get_matcher(None, get_gate_set("nam"))
    kw = dict(timeout=1, seed=0, threads=1, progress=False, polish="rz")
    exact = search(c, m, **kw)
    inexact = search(c, m, resynth_1q=True, **kw)
    assert same(exact.circuit, c) and same(inexact.circuit, c)
    assert len(inexact.circuit) < len(exact.circuit)
    # Every run of the inexact result is at most five gates long.
    assert len(inexact.circuit) <= 4 + 2 * 5 * 5


def test_exact_false_in_nam_rewrites_runs_and_says_numeric():
    c = long_runs(2)
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=3, exact=False, seed=0, threads=1, report=report)
    assert same(out, c)
    assert len(out) < len(quartz.optimize(c, "nam", timeout=3, seed=0, threads=1))
    assert report["search"]["resynth"]["numeric"] is True
    assert report["check"]["ok"] is True and report["check"]["numeric"] is True


def test_search_and_resynthesize_runs_it_in_the_polish():
    c = long_runs(3)
    kw = dict(timeout=0.5, seed=0, progress=False, threads=1, patience=None)
    nam = search_and_resynthesize(c, [], "nam", polish="rz", **kw)
    assert same(nam.circuit, c) and len(nam.circuit) < len(c)
    # Without polish (the search's rotation merging) there is no polish step to run it in.
    bare = search_and_resynthesize(c, [], "nam", rounds=1, **kw)
    assert bare.circuit == c


@pytest.mark.parametrize("seed", range(20))
def test_rx_rz_runs_take_their_shortest_rx_rz_form(seed):
    """Runs with rx (Rigetti's and IonQ's gate sets have rx and rz, no h or x) become
    rz rx rz at most, keep the unitary with its phase, and gain no h or x."""
    rng = random.Random(seed)
    c = Circuit(2)
    for _ in range(rng.randint(2, 14)):
        k, q = rng.random(), rng.randrange(2)
        if k < 0.45:
            c.rx(rng.choice([Param.pi(1, 2), Param.pi(-1, 2), Param.pi(1, 1), rng.uniform(-4, 4)]), q)
        elif k < 0.9:
            c.rz(rng.choice([Param.pi(1, 4), Param.pi(1, 2), rng.uniform(-4, 4)]), q)
        else:
            c.cz(0, 1)
    out = resynthesize_1q_runs(c)
    assert same(out, c) and len(out) <= len(c)
    assert set(out.count_ops()) <= {"rx", "rz", "cz"}
    runs, cur = [], 0
    for name, _, _ in out.native.gates():
        if name == "cz":
            runs.append(cur)
            cur = 0
        else:
            cur += 1
    assert max(runs + [cur]) <= 2 * 3  # one run of at most three per qubit between cz gates


def test_rx_special_angles():
    c = Circuit(1).rz(Param.pi(1, 2), 0).rx(Param.pi(1, 2), 0).rz(Param.pi(1, 1), 0) \
        .rx(Param.pi(1, 2), 0).rz(Param.pi(1, 2), 0)
    assert len(resynthesize_1q_runs(c)) == 0 and same(resynthesize_1q_runs(c), c)  # identity
    c = Circuit(1).rx(0.3, 0).rx(-0.3, 0).rz(0.2, 0)
    assert [g[0] for g in resynthesize_1q_runs(c).native.gates()] == ["rz"]


def test_exact_false_in_rigetti_writes_rx_rz_runs():
    """tof_3's gates in Rigetti's set: one-qubit runs in rz rx rz form shrink the result."""
    c = quartz.load("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[3];\n"
                    "h q[2];\ncx q[1],q[2];\ntdg q[2];\ncx q[0],q[2];\nt q[2];\ncx q[1],q[2];\n"
                    "tdg q[2];\ncx q[0],q[2];\nt q[1];\nt q[2];\nh q[2];\ncx q[0],q[1];\nt q[0];\n"
                    "tdg q[1];\ncx q[0],q[1];\n")
    report: dict = {}
    out = quartz.optimize(c, "rigetti", timeout=2, exact=False, seed=0, threads=1, report=report)
    exact = quartz.optimize(c, "rigetti", timeout=2, seed=0, threads=1)
    assert set(out.count_ops()) <= {"rx", "rz", "cz"}
    # The angles are pi/4 multiples, so the exact search merges these runs too (exact_1q).
    assert same(out, c) and len(out) <= len(exact) and not has_float_angles(exact)
    assert report["check"]["ok"] is True
    # A generic angle: only exact=False writes its run shorter.
    g = Circuit(1).h(0).rz(0.3, 0).h(0).rz(0.2, 0).h(0)
    assert len(quartz.optimize(g, "rigetti", timeout=1, exact=False, seed=0, threads=1)) < \
        len(quartz.optimize(g, "rigetti", timeout=1, seed=0, threads=1))


# --- exact_only: rx/rz runs with pi/4 angles, an exact move the search's polish makes ------
def random_rx_circuit(rng: random.Random, n: int, m: int, floats: bool = False) -> Circuit:
    c = Circuit(n)
    for _ in range(m):
        k, q = rng.random(), rng.randrange(n)
        angle = (rng.uniform(-4, 4) if floats and rng.random() < 0.3
                 else Param.pi(rng.choice([1, -1, 2, -2, 3, 4]), 4))
        if k < 0.4:
            c.rx(angle, q)
        elif k < 0.8:
            c.rz(angle, q)
        elif n > 1:
            a, b = rng.sample(range(n), 2)
            c.cz(a, b)
    c.global_phase = Param.pi(rng.randrange(8), 4)
    return c


def test_exact_only_keeps_every_angle_and_the_phase_exact_and_the_unitary():
    rng = random.Random(11)
    shorter = 0
    for _ in range(120):
        c = random_rx_circuit(rng, rng.randrange(1, 4), rng.randrange(3, 30))
        out = resynthesize_1q_runs(c, exact_only=True)
        assert same(out, c, atol=1e-12)
        assert len(out) <= len(c) and not has_float_angles(out)
        assert out.global_phase.is_exact
        shorter += len(out) < len(c)
    assert shorter >= 40


def test_exact_only_leaves_float_angles_and_runs_without_rx_alone():
    c = Circuit(1).rx(0.3, 0).rz(Param.pi(1, 2), 0).rx(Param.pi(1, 2), 0).rz(0.2, 0)
    assert resynthesize_1q_runs(c, exact_only=True) == c  # float angles in the run
    h = Circuit(1).h(0).rz(Param.pi(1, 2), 0).h(0).rz(Param.pi(1, 2), 0).h(0)
    assert resynthesize_1q_runs(h, exact_only=True) == h  # no rx: the ECC rules' business
    assert len(resynthesize_1q_runs(h)) < len(h)           # (the inexact pass does take it)


def test_rigetti_search_merges_rx_runs_exactly():
    """The Rigetti suite's tof_3 (141 gates of rx, rz, cz): the search's polish merges its
    rx/rz runs (127 gates without it at 10 s, 91 with it); exact_1q=False leaves the small
    Rigetti ECC set alone with them."""
    from quartz.pipeline.matchers import get_matcher
    from quartz.gatesets import get_gate_set
    from quartz.search.preprocess import preprocess

    c = quartz.load(str(BENCH.parent / "rigetti" / "tof_3.qasm"))
    pre = preprocess(c, "rigetti")
    rules = get_matcher(None, get_gate_set("rigetti"))
    on = search(pre, rules, timeout=30, seed=1, progress=False, polish="rz", patience=None,
                threads=1, work=2_000_000, exact_1q=True)
    off = search(pre, rules, timeout=30, seed=1, progress=False, polish="rz",
                 patience=None, threads=1, work=2_000_000)
    assert len(on.circuit) <= 95 < len(off.circuit)
    assert not has_float_angles(on.circuit)
    # rx stays hardware-native: multiples of pi/2, as in the input
    assert all(abs(math.remainder(float(g.params[0]), math.pi / 2)) < 1e-12
               for g in on.circuit if g.name == "rx")
    assert same(on.circuit, c, atol=1e-9)


def test_optimize_merges_rx_runs_in_rigetti_not_in_ionq():
    """quartz.optimize asks for exact_1q in sets with rx and no ry (measured better in
    Rigetti's, worse in IonQ's); the result stays exact and checked."""
    from quartz.pipeline.polish import exact_1q_for as _exact_1q_for
    from quartz.gatesets import get_gate_set

    assert _exact_1q_for(get_gate_set("rigetti"))
    assert not any(_exact_1q_for(get_gate_set(g)) for g in ("ionq", "nam", "ibm", "ibm_modern"))
    c = quartz.load(str(BENCH.parent / "rigetti" / "tof_3.qasm"))
    report: dict = {}
    out = quartz.optimize(c, "rigetti", timeout=3, seed=1, threads=1, report=report)
    assert len(out) <= 100 and not has_float_angles(out)
    assert report["check"]["ok"] and report["check"]["proof"]
