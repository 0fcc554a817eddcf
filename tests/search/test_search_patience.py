"""Stop when done: the patience rule ends a converged search early; None spends the budget."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

import quartz
from quartz import Circuit
from quartz.pipeline.matchers import get_matcher
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set
from quartz.search.driver import search
from quartz.search.patience import AUTO, Patience, as_patience

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "nam"


@pytest.fixture(scope="module")
def nam():
    return get_matcher(None, get_gate_set("nam"))


def _small() -> Circuit:
    c = Circuit(3)
    for _ in range(3):
        c.h(0).cx(0, 1).rz(1, 0.25).cx(0, 1).h(0).x(2).x(2).cx(1, 2)
    return c


def test_as_patience_forms_and_errors():
    assert as_patience("auto") is AUTO
    assert as_patience(None) is None
    assert as_patience(2) == Patience(seconds=2.0, per_gate=0.0, growth=0.0)
    rule = Patience(1.0, 0.5, 0.0)
    assert as_patience(rule) is rule
    assert rule.window(gates=10, last_improvement=3.0) == 6.0
    assert AUTO.window(gates=100, last_improvement=2.0) == pytest.approx(
        AUTO.seconds + 100 * AUTO.per_gate + 2.0 * AUTO.growth)
    for bad in ("soon", True, -1, float("nan"), [1]):
        with pytest.raises(QuartzError, match="patience"):
            as_patience(bad)
    with pytest.raises(QuartzError, match="per_gate must be a finite number >= 0"):
        Patience(per_gate=-0.1)


@pytest.mark.parametrize("algorithm", ["anneal", "best_first"])
def test_converged_search_stops_early_with_the_same_result(nam, algorithm):
    c = _small()
    full = search(c, nam, timeout=3.0, seed=3, progress=False, algorithm=algorithm,
                  patience=None)
    assert not full.converged  # None: the budget (best-first may exhaust its widest band first)
    assert full.seconds >= (2.9 if algorithm == "anneal" else 0.0)
    t = time.monotonic()
    quick = search(c, nam, timeout=30.0, seed=3, progress=False, algorithm=algorithm,
                   patience=0.3)
    assert time.monotonic() - t < 10.0  # far under the 30 s budget
    assert quick.converged and not quick.interrupted
    assert quick.final_cost == full.final_cost
    assert quick.circuit.unitary() == pytest.approx(c.unitary(), abs=1e-9)


def test_patience_counts_from_the_last_improvement(nam):
    # A rule whose window grows with the time of the last improvement still ends, and the
    # search ran at least the window past its last improvement.
    c = _small()
    r = search(c, nam, timeout=20.0, seed=1, progress=False, patience=Patience(0.5, 0.0, 1.0))
    assert r.converged
    last = r.history[-1][0]
    assert r.seconds >= last + 0.5 - 0.05


def test_timeout_bounds_a_search_that_has_not_converged(nam):
    c = _small()
    r = search(c, nam, timeout=1.0, seed=1, progress=False, patience=1000.0)
    assert not r.converged and 0.9 <= r.seconds < 5.0


@pytest.mark.skipif(not (SHARED / "tof_3.qasm").is_file(), reason="needs ../shared/benchmarks")
def test_optimize_tof_3_returns_well_before_its_timeout():
    c = quartz.load(str(SHARED / "tof_3.qasm"))
    report: dict = {}
    t = time.monotonic()
    out = quartz.optimize(c, timeout=60, seed=0, report=report)
    assert time.monotonic() - t < 30  # the default budget is 60 s; convergence ends it early
    assert len(out) == 33  # what the whole budget finds
    assert report["search"]["converged"] is True
    assert report["check"]["ok"] is True


def test_optimize_rejects_a_bad_patience_before_work():
    with pytest.raises(QuartzError, match="patience must be 'auto'"):
        quartz.optimize(_small(), timeout=5, patience="later")


def _count_rounds(monkeypatch):
    """Record the native search calls of quartz.search.driver (each is then run as usual)."""
    from quartz.search import driver

    calls: list[dict] = []
    real = driver._core.optimize

    def spy(matcher, circuit, cost, **kw):
        out = real(matcher, circuit, cost, **kw)
        calls.append(dict(kw, circuit=circuit, result=out[0]))
        return out

    monkeypatch.setattr(driver._core, "optimize", spy)
    return calls


def test_a_converged_anneal_is_confirmed_from_its_best(nam, monkeypatch):
    c = _small()
    calls = _count_rounds(monkeypatch)
    once = search(c, nam, timeout=30.0, seed=5, progress=False, patience=Patience(0.2, 0.0, 0.0))
    assert once.converged and len(calls) == 1  # confirm=0: the first convergence ends it
    calls.clear()
    rule = Patience(0.2, 0.0, 0.0, confirm=2)
    r = search(c, nam, timeout=30.0, seed=5, progress=False, patience=rule)
    assert r.converged and not r.interrupted and r.seconds < 10.0
    assert len(calls) >= 3  # the first round, then at least the two that found nothing
    for i in range(1, len(calls)):
        # each round starts from the best so far, with the next seed and its own patience clock
        best = min(k["result"].num_gates for k in calls[:i])
        assert calls[i]["circuit"].num_gates == best
        assert calls[i]["seed"] == calls[i - 1]["seed"] + 1
        assert calls[i]["time_offset"] == 0.0 and calls[i]["last_improvement"] == 0.0
    assert r.final_cost <= once.final_cost
    assert r.circuit.unitary() == pytest.approx(c.unitary(), abs=1e-9)
    assert AUTO.confirm == 2 and as_patience(3).confirm == 0


def test_confirmation_needs_a_patience_rule_and_no_work_budget(nam, monkeypatch):
    c = _small()
    calls = _count_rounds(monkeypatch)
    search(c, nam, timeout=30.0, seed=5, progress=False, patience="auto", work=10**6)
    assert len(calls) == 1  # a work budget is a single, reproducible run
    calls.clear()
    search(c, nam, timeout=1.0, seed=5, progress=False, patience=None)
    assert len(calls) == 1  # without a patience rule nothing converges, nothing is confirmed
    with pytest.raises(QuartzError, match="patience confirm must be a whole number of rounds >= 0"):
        Patience(confirm=-1)
    with pytest.raises(QuartzError, match="patience confirm"):
        Patience(confirm=True)
