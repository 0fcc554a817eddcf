"""One-qubit run resynthesis (inexact): shortest {h, x, rz} and {rx, rz} forms, alone and in the
search."""
from __future__ import annotations

import doctest
import math
import random

import numpy as np
import pytest

import quartz
from quartz import Circuit, Param, QuartzError
from quartz.search import resynth_1q
from quartz.search.driver import search
from quartz.search.resynth_1q import resynthesize_1q_runs
from quartz.search.resynth_2q import has_float_angles, search_and_resynthesize


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
    from quartz.api import get_matcher
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
    assert same(out, c) and len(out) < len(exact)
    assert report["check"]["ok"] is True
