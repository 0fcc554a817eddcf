"""The search driver on hand-built rules: reductions, costs, phase, budgets, interruption."""
from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from quartz import Circuit, QuartzError
from quartz.search import Matcher, search
from search_rules import random_nam_circuit, same_unitary


def test_greedy_and_search_reduce_and_keep_phase(small_set):
    c = Circuit(2).rz(np.pi, 0).h(1).cx(0, 1).rz(np.pi, 0).h(1).x(1).cx(0, 1).x(1)
    r = search(c, small_set, timeout=2, seed=1, progress=False)
    assert same_unitary(r.circuit, c)
    # rz(pi) moves through the control and meets rz(pi): rz(2pi) = -I disappears (phase pi);
    # x on the target commutes through the cx and cancels with the other x.
    assert len(r.circuit) < len(c)
    assert r.final_cost == len(r.circuit) and r.initial_cost == len(c)
    assert r.history and r.history[-1][1] == r.final_cost


@pytest.mark.parametrize("seed", range(4))
def test_random_circuits_stay_equal(seed, small_set):
    c = random_nam_circuit(4, 60, seed)
    r = search(c, small_set, timeout=1.0, seed=seed, progress=False)
    assert len(r.circuit) <= len(c)
    assert same_unitary(r.circuit, c)


def test_two_qubit_cost_prefers_fewer_cx(small_set):
    c = Circuit(3).cx(0, 1).cx(0, 2).cx(0, 1).h(2)
    r = search(c, small_set, cost="two_qubit", timeout=1, seed=0, progress=False)
    assert r.circuit.two_qubit_count == 1 and same_unitary(r.circuit, c)


def test_callable_cost_runs_and_errors_surface(small_set):
    c = random_nam_circuit(3, 30, 11)
    r = search(c, small_set, cost=lambda x: len(x) + x.depth, timeout=0.5, seed=0, progress=False)
    assert same_unitary(r.circuit, c)

    def broken(x):
        raise RuntimeError("boom")

    with pytest.raises(QuartzError, match="boom"):
        search(c, small_set, cost=broken, timeout=0.5, progress=False)


def test_timeout_is_respected(small_set):
    c = random_nam_circuit(5, 400, 3)
    t0 = time.monotonic()
    r = search(c, small_set, timeout=1.0, seed=0, progress=False)
    assert time.monotonic() - t0 < 4.0
    assert len(r.circuit) <= len(c)


def test_ctrl_c_returns_best_so_far(small_set, sigint_raises):
    c = random_nam_circuit(6, 1500, 5)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    r = search(c, small_set, timeout=60, seed=0, progress=False)
    took = time.monotonic() - t0
    timer.join()
    assert r.interrupted and took < 10
    assert len(r.circuit) < len(c)
    state = np.random.default_rng(0).normal(size=2**6) + 0j
    state /= np.linalg.norm(state)
    assert np.allclose(r.circuit.apply(state), c.apply(state), atol=1e-8)


def test_ctrl_c_during_the_progress_line_returns_best_so_far(small_set, monkeypatch):
    # A signal handled while the progress line is being drawn raises KeyboardInterrupt inside
    # the callback the native loop calls: that is an interruption, not a failing callback.
    from quartz.search import driver

    calls = []

    def drawn_when_ctrl_c(self, seconds, best, moves):
        calls.append(seconds)
        if len(calls) == 2:
            raise KeyboardInterrupt("SIGINT")

    monkeypatch.setattr(driver._Progress, "__call__", drawn_when_ctrl_c)
    c = random_nam_circuit(6, 1500, 5)
    t0 = time.monotonic()
    r = search(c, small_set, timeout=60, seed=0, progress=True)
    assert r.interrupted and time.monotonic() - t0 < 10
    assert len(r.circuit) < len(c)
    state = np.random.default_rng(0).normal(size=2**6) + 0j
    state /= np.linalg.norm(state)
    assert np.allclose(r.circuit.apply(state), c.apply(state), atol=1e-8)


def test_ctrl_c_while_closing_the_progress_line_keeps_the_result(small_set, monkeypatch):
    from quartz.search import driver

    def ctrl_c(self):
        raise KeyboardInterrupt("SIGINT")

    monkeypatch.setattr(driver._Progress, "close", ctrl_c)
    c = random_nam_circuit(4, 200, 3)
    r = search(c, small_set, timeout=1, seed=0, progress=True)
    assert r.interrupted and len(r.circuit) < len(c) and same_unitary(r.circuit, c)


def test_progress_line_goes_to_stderr(small_set, capsys):
    c = random_nam_circuit(3, 40, 2)
    search(c, small_set, timeout=1.2, seed=0, progress=True)
    err = capsys.readouterr().err
    assert "optimize" in err and "best" in err


def test_bad_inputs(small_set):
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        search("qasm", small_set, timeout=1, progress=False)
    with pytest.raises(QuartzError, match="timeout"):
        search(Circuit(1), small_set, timeout=-1, progress=False)
    from quartz import Param
    with pytest.raises(QuartzError, match="symbolic"):
        search(Circuit(1).rz(Param.symbol(0), 0), small_set, timeout=1, progress=False)


def test_polish_merges_rotations_the_rules_cannot_reach(small_set):
    # rz(a) and rz(b) on the target share the parity q0^q1 but are separated by a CX pair
    # on other wires: only phase-polynomial merging joins them.
    c = Circuit(3).cx(0, 1).rz(0.3, 1).cx(1, 2).h(2).cx(1, 2).rz(0.4, 1).cx(0, 1)
    plain = search(c, [], timeout=0.3, seed=0, progress=False)
    polished = search(c, [], timeout=0.3, seed=0, progress=False, polish="rz")
    assert len(plain.circuit) == len(c)
    assert len(polished.circuit) == len(c) - 1 and same_unitary(polished.circuit, c)
    with pytest.raises(QuartzError, match="polish style"):
        search(c, [], timeout=0.1, progress=False, polish="zz")


@pytest.mark.parametrize("cost,metric", [("t_count", lambda c: c.t_count), ("depth", lambda c: c.depth),
                                         ({"rz": 5, "default": 1}, lambda c: 5 * c.count_ops().get("rz", 0) + len(c) - c.count_ops().get("rz", 0))])
def test_every_cost_is_minimised(cost, metric, small_set):
    c = (Circuit(2).rz(np.pi / 4, 0).cx(0, 1).rz(np.pi / 4, 0).h(1).h(1)
         .rz(np.pi / 4, 1).x(1).rz(np.pi / 4, 1).x(1))
    r = search(c, small_set, cost=cost, timeout=1, seed=0, progress=False)
    assert metric(r.circuit) < metric(c)
    assert same_unitary(r.circuit, c)


def test_early_finish_restarts_then_stops_at_max_gamma(small_set):
    # A tiny circuit empties the queue at once: the driver restarts it with wider gamma up
    # to MAX_GAMMA and then returns, long before the budget, with a decreasing history.
    from quartz.search import driver

    c = Circuit(2).h(0).h(0).cx(0, 1).x(1).x(1)
    t0 = time.monotonic()
    r = search(c, small_set, timeout=30, seed=0, progress=False, algorithm="best_first")
    assert time.monotonic() - t0 < 10
    assert len(r.circuit) == 1 and same_unitary(r.circuit, c)
    costs = [v for _, v in r.history]
    assert costs == sorted(costs, reverse=True) and len(set(costs)) == len(costs)
    assert driver.MAX_GAMMA > 1.05
