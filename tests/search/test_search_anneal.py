"""The working Dag and the annealing search: consistency under random rewrites, equal
unitaries, costs, budgets and interruption."""
from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from quartz import Circuit, QuartzError, _core, ecc_sets
from quartz.search import Matcher, search
from search_rules import random_nam_circuit, same_unitary


@pytest.fixture(scope="module")
def nam_matcher():
    return Matcher(ecc_sets.load("nam_3_3"))


@pytest.mark.parametrize("seed", range(6))
def test_dag_random_walk_keeps_links_labels_cost_and_unitary(seed, nam_matcher):
    # Any rewrite, cost-raising ones included: the Dag stays a consistent DAG (reciprocal
    # wire links, labels increasing along the list and along every wire, cost = gates) and
    # the circuit it gives back has the input's unitary, global phase included.
    c = random_nam_circuit(4, 60, seed)
    out, applied, ok, _ = _core.dag_random_walk(nam_matcher.native, c.native, 4000, seed)
    assert ok
    assert applied > 100
    assert same_unitary(Circuit._wrap(out), c)


def test_dag_relabels_when_a_gap_is_used_up(nam_matcher):
    # Many rewrites in one small region exhaust the label gaps between neighbours; the Dag
    # relabels and stays consistent.
    c = Circuit(2).rz(0.1, 0).cx(0, 1).rz(0.2, 1).cx(1, 0).rz(0.3, 0).cx(0, 1)
    out, applied, ok, relabels = _core.dag_random_walk(nam_matcher.native, c.native, 20000, 3)
    assert ok and applied > 1000 and relabels > 0
    assert same_unitary(Circuit._wrap(out), c)


@pytest.mark.parametrize("proposal", ["uniform", "first"])
@pytest.mark.parametrize("seed", range(4))
def test_anneal_random_circuits_stay_equal_and_shrink(seed, proposal, small_set):
    c = random_nam_circuit(4, 60, seed)
    r = search(c, small_set, timeout=1.0, seed=seed, progress=False, algorithm="anneal",
               polish="rz", proposal=proposal)
    assert len(r.circuit) < len(c)
    assert same_unitary(r.circuit, c)
    assert r.expansions > 1000  # moves evaluated


@pytest.mark.parametrize("seed", range(3))
def test_uniform_proposals_keep_the_unitary_with_the_shipped_set(seed):
    """The trie-driven moves with the shipped Nam (6,3) set (the trie's long sources)."""
    m = Matcher(ecc_sets.load("nam"))
    c = random_nam_circuit(4, 50, seed)
    r = search(c, m, timeout=1.0, seed=seed, progress=False, polish="rz", patience=None,
               proposal="uniform", threads=2)
    assert len(r.circuit) < len(c) and same_unitary(r.circuit, c)


def test_unknown_proposal_is_refused(small_set):
    with pytest.raises(QuartzError, match="unknown proposal 'best'; choose one of uniform, first"):
        search(Circuit(1).h(0), small_set, timeout=0.1, progress=False, proposal="best")


def test_anneal_matches_best_first_on_the_worked_example(small_set):
    c = Circuit(2).rz(np.pi, 0).h(1).cx(0, 1).rz(np.pi, 0).h(1).x(1).cx(0, 1).x(1)
    a = search(c, small_set, timeout=1, seed=1, progress=False, algorithm="anneal")
    b = search(c, small_set, timeout=1, seed=1, progress=False, algorithm="best_first")
    assert len(a.circuit) == len(b.circuit) < len(c)
    assert same_unitary(a.circuit, c)
    assert a.history[-1][1] == a.final_cost == len(a.circuit)


def test_anneal_minimises_t_count_and_weights(small_set):
    c = (Circuit(2).rz(np.pi / 4, 0).cx(0, 1).rz(np.pi / 4, 0).h(1).h(1)
         .rz(np.pi / 4, 1).x(1).rz(np.pi / 4, 1).x(1))
    r = search(c, small_set, cost="t_count", timeout=1, seed=0, progress=False,
               algorithm="anneal")
    assert r.circuit.t_count < c.t_count and same_unitary(r.circuit, c)
    r = search(c, small_set, cost={"rz": 5, "default": 1}, timeout=1, seed=0, progress=False,
               algorithm="anneal")
    assert r.circuit.count_ops().get("rz", 0) < c.count_ops()["rz"]


def test_anneal_with_a_non_additive_cost_uses_best_first(small_set):
    c = random_nam_circuit(3, 30, 2)
    r = search(c, small_set, cost="depth", timeout=0.5, seed=0, progress=False,
               algorithm="anneal")
    assert r.circuit.depth <= c.depth and same_unitary(r.circuit, c)


def test_anneal_timeout_and_ctrl_c(small_set, sigint_raises):
    c = random_nam_circuit(6, 1500, 5)
    t0 = time.monotonic()
    r = search(c, small_set, timeout=1.0, seed=0, progress=False, algorithm="anneal")
    assert time.monotonic() - t0 < 4.0 and len(r.circuit) < len(c)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    r = search(c, small_set, timeout=60, seed=0, progress=False, algorithm="anneal")
    timer.join()
    assert r.interrupted and time.monotonic() - t0 < 10
    state = np.random.default_rng(0).normal(size=2**6) + 0j
    state /= np.linalg.norm(state)
    assert np.allclose(r.circuit.apply(state), c.apply(state), atol=1e-8)


def test_anneal_improves_far_from_the_start_of_a_large_circuit(small_set):
    # Redundant pairs planted at the end of a 3,000-gate circuit are found: moves are drawn
    # over the whole circuit, not from its beginning.
    body = random_nam_circuit(6, 3000, 9)
    c = body.copy()
    for q in range(6):
        c.h(q).h(q)
    r = search(c, small_set, timeout=1.5, seed=0, progress=False, algorithm="anneal")
    tail = [g for g in r.circuit][-12:]
    assert len(r.circuit) <= len(body)
    assert not any(a.name == b.name == "h" and a.qubits == b.qubits for a, b in zip(tail, tail[1:]))


def test_unknown_algorithm_is_refused(small_set):
    with pytest.raises(QuartzError, match="unknown search algorithm 'sa'"):
        search(Circuit(1).h(0), small_set, timeout=0.1, progress=False, algorithm="sa")


def test_restarts_begin_again_when_the_best_stalls_and_keep_the_best(small_set):
    # A 40-gate random circuit converges within a second or two; with restarts on, a 5 s budget
    # holds more epochs, each from the input, and the result is the best of all of them.
    c = random_nam_circuit(4, 40, 11)
    r = search(c, small_set, timeout=5.0, seed=11, progress=False, polish="rz", patience=None,
               restarts=True, threads=2)
    assert r.restarts >= 1
    assert len(r.circuit) < len(c) and same_unitary(r.circuit, c)
    assert r.final_cost == len(r.circuit) == min(v for _, v in r.history)
    plain = search(c, small_set, timeout=0.5, seed=11, progress=False, polish="rz",
                   patience=None, restarts=False, threads=2)
    assert plain.restarts == 0


def test_restarts_must_be_a_bool(small_set):
    with pytest.raises(QuartzError, match="restarts must be True, False or None, got 'yes'"):
        search(Circuit(1).h(0), small_set, timeout=0.1, progress=False, restarts="yes")


def test_optimize_restarts_by_default_and_reports_them():
    import quartz

    # A work budget, not seconds: how many epochs fit in 6 s depended on the machine and on
    # how long loading the ECC set took (it failed on a quiet box with a cold cache).
    c = random_nam_circuit(4, 40, 11)
    report: dict = {}
    out = quartz.optimize(c, "nam", timeout=120.0, seed=11, patience=None, threads=2,
                          work=20_000_000, report=report)
    assert report["search"]["restarts"] >= 1 and not report["search"]["cut"]
    assert report["check"]["ok"] is True and len(out) < len(c)


def _hog() -> "subprocess.Popen[bytes]":
    """A process that keeps one core busy (the machine's load changes the chains' speeds)."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@pytest.mark.parametrize("gates", [60, 400])  # one chain (<= full_limit 150 gates) and two
def test_a_seed_and_a_work_limit_give_the_same_circuit_under_any_load(gates, small_set):
    # The chains keep time in work units and exchange in lockstep: with a work limit instead
    # of a deadline, the same seed gives the same circuit and the same trace, whether the
    # machine is idle or a busy process slows one chain down.
    c = random_nam_circuit(5, gates, 21)
    kw = dict(timeout=120, seed=21, progress=False, polish="rz", patience=None, threads=2,
              restarts=True, work=3_000_000)
    first = search(c, small_set, **kw)
    hog = _hog()
    try:
        second = search(c, small_set, **kw)
    finally:
        hog.kill()
        hog.wait()
    assert first.circuit.to_qasm() == second.circuit.to_qasm()
    assert [v for _, v in first.history] == [v for _, v in second.history]
    assert first.restarts == second.restarts and first.expansions == second.expansions
    assert len(first.circuit) < len(c) and same_unitary(first.circuit, c)
    assert not first.converged and first.seconds < 60


def test_work_must_be_a_non_negative_int(small_set):
    for bad in (-1, 1.5, True):
        with pytest.raises(QuartzError, match=f"work must be a non-negative number of work units, got {bad!r}"):
            search(Circuit(1).h(0), small_set, timeout=0.1, progress=False, work=bad)


def test_four_qubit_block_resynthesis_in_the_polish_keeps_the_unitary(small_set):
    # A {cx, rz} circuit on 5 qubits: the polish rewrites 4-qubit blocks with the fewest cx.
    rng = np.random.default_rng(4)
    c = Circuit(5)
    for _ in range(120):
        if rng.random() < 0.7:
            a, b = rng.choice(5, 2, replace=False)
            c.cx(int(a), int(b))
        else:
            c.rz(float(np.pi / 4 * rng.integers(1, 8)), int(rng.integers(5)))
    kw = dict(timeout=30, seed=2, progress=False, polish="rz", patience=None, threads=1,
              work=200_000)
    three = search(c, small_set, **kw)
    four = search(c, small_set, block_qubits=4, **kw)
    assert same_unitary(four.circuit, c) and same_unitary(three.circuit, c)
    assert four.circuit.cx_count < three.circuit.cx_count


def test_block_qubits_must_be_2_to_4(small_set):
    for bad in (1, 5, True, 3.0):
        with pytest.raises(QuartzError, match=f"block_qubits must be 2, 3 or 4, got {bad!r}"):
            search(Circuit(1).h(0), small_set, timeout=0.1, progress=False, block_qubits=bad)
