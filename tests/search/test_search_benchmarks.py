"""Search on Nam benchmark circuits with the shipped Nam ECC set and short budgets."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import quartz
from quartz.check import check_equivalent

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "nam"


@pytest.mark.parametrize("name,budget,at_most", [
    ("tof_3", 4.0, 33),          # Nam'18 heavy / Quartz 60 s / Quartz 24 h: 35
    ("tof_5", 4.0, 69),          # Quartz 60 s / 24 h: 75
    ("barenco_tof_3", 5.0, 38),  # Nam'18 heavy 40, Quartz-60s 40
    ("mod5_4", 8.0, 44),         # Quartz-60s 44
])
def test_search_beats_references_and_stays_equal(name, budget, at_most):
    c = quartz.load(str(BENCH / f"{name}.qasm"))
    out = quartz.optimize(c, "nam", timeout=budget, seed=1)
    assert len(out) <= at_most < len(c)
    assert {g.name for g in out} <= {"h", "x", "rz", "cx"}
    assert np.allclose(out.unitary(), c.unitary(), atol=1e-8)  # global phase included


def test_ccz_input_gets_relative_phase_pairs():
    # Toffolis reach the preprocessor as ccz, so compute/uncompute pairs become Margolus gates.
    c = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    out = quartz.optimize(c, "nam", timeout=3, seed=0)
    assert len(out) <= 33 and {g.name for g in out} <= {"h", "x", "rz", "cx"}
    assert np.allclose(out.unitary(), c.unitary(), atol=1e-8)


@pytest.mark.parametrize("gate_set,before", [
    ("ibm", 40), ("ibm_modern", 44), ("rigetti", 107),
])
def test_toffolis_into_gate_sets_without_h_take_the_nam_route(gate_set, before):
    # Sets without h or cx cannot fold, pair or pick the polarity of Toffolis themselves; the
    # better of their own preprocessing (`before`, what optimize gave up to this change) and
    # Nam's followed by conversion is the start of the search. timeout=0: preprocessing only.
    from quartz.gatesets import get_gate_set

    c = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    report = {}
    out = quartz.optimize(c, gate_set, timeout=0, report=report)
    assert len(out) < before
    assert {g.name for g in out} <= set(get_gate_set(gate_set).gates)
    assert report["check"]["ok"]
    assert np.allclose(out.unitary(), c.unitary(), atol=1e-8)  # global phase included


def test_nam_route_leaves_circuits_without_toffolis_alone():
    from quartz.pipeline import preprocess, race, search_stage  # noqa: F401
    from quartz.pipeline.convert import to_gate_set  # noqa: F401
    from quartz.pipeline.matchers import get_matcher  # noqa: F401
    from quartz.gatesets import get_gate_set

    c = quartz.load(str(BENCH / "tof_3.qasm"))  # decomposed: no ccz/ccx left
    assert preprocess.via_nam(c, get_gate_set("ibm")) is None
    ccz = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    for name in ("nam", "clifford_t"):  # these fold and pair Toffolis themselves
        assert preprocess.via_nam(ccz, get_gate_set(name)) is None


def test_ionq_races_the_nam_route_instead_of_taking_the_smaller_start():
    # IonQ entangles with rxx: from the smaller start its search ended worse on 2 of 8, so
    # the route's start is raced against IonQ's own instead of replacing it.
    from quartz.pipeline import preprocess, race, search_stage  # noqa: F401
    from quartz.pipeline.convert import to_gate_set  # noqa: F401
    from quartz.pipeline.matchers import get_matcher  # noqa: F401
    from quartz.gatesets import get_gate_set

    ionq = get_gate_set("ionq")
    ccz = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    via = preprocess.via_nam(ccz, ionq)
    assert via is not None and {g.name for g in via} <= set(ionq.gates)
    assert race.races_starts(ionq) and not race.races_starts(get_gate_set("ibm"))
    own = preprocess.preprocessed(ccz, to_gate_set(ccz, ionq), ionq)
    assert own is not None and len(own) > len(via)  # not the smaller start: the own one


def test_race_continues_from_the_best_start():
    from quartz.pipeline import preprocess, race, search_stage  # noqa: F401
    from quartz.pipeline.convert import to_gate_set  # noqa: F401
    from quartz.pipeline.matchers import get_matcher  # noqa: F401
    from quartz.search.costs import get_cost
    from quartz.search.driver import SearchResult

    a, b = quartz.Circuit(1).h(0).h(0).x(0), quartz.Circuit(1).x(0).x(0)
    calls = []

    def run(start, seconds, share):
        calls.append((start, seconds, share))
        out = quartz.Circuit(1).x(0) if start is a else start  # it shrinks a's start only
        return SearchResult(out, len(start), len(out), 0.0, expansions=10,
                            history=[(0.0, float(len(out)))])

    start, found = race.race(run, [b, a], 8.0, get_cost("gates"))
    assert start is a and len(found.circuit) == 1  # a's search led, though a began larger
    assert calls[0][0] is b and calls[1][0] is a and len(calls[2][0]) == 1  # on from a's
    assert calls[0][1] == calls[1][1] == race.RACE_SHARE * 8.0
    assert 7.0 < calls[2][1] <= 8.0  # the rest of the budget (the fake trials took no time)
    # a work budget is shared the same way: a quarter each, the rest to the lead
    assert [c[2] for c in calls] == [race.RACE_SHARE, race.RACE_SHARE, 1 - 2 * race.RACE_SHARE]
    assert found.expansions == 30 and found.initial_cost == len(a)


def test_ionq_toffoli_circuit_is_raced_and_stays_equal(monkeypatch):
    from quartz.pipeline import preprocess, race, search_stage  # noqa: F401
    from quartz.pipeline.convert import to_gate_set  # noqa: F401
    from quartz.pipeline.matchers import get_matcher  # noqa: F401

    raced = []
    real = search_stage.race

    def spy(run, starts, budget, cost):
        raced.append(len(starts))
        return real(run, starts, budget, cost)

    monkeypatch.setattr(search_stage, "race", spy)
    c = quartz.load(str(BENCH.parent / "nam-ccz" / "tof_3.qasm"))
    report = {}
    out = quartz.optimize(c, "ionq", timeout=4, seed=1, report=report)
    assert raced == [2] and report["check"]["ok"] and report["start"] in ("own", "nam_route")
    assert {g.name for g in out} <= {"rx", "ry", "rz", "rxx"} and len(out) < 89
    assert np.allclose(out.unitary(), c.unitary(), atol=1e-8)  # global phase included


def test_race_starts_returns_the_start_whose_search_ended_best():
    from quartz.pipeline import preprocess, race, search_stage  # noqa: F401
    from quartz.pipeline.convert import to_gate_set  # noqa: F401
    from quartz.pipeline.matchers import get_matcher  # noqa: F401
    from quartz.gatesets import get_gate_set
    from quartz.search.costs import get_cost

    a = quartz.Circuit(1).h(0).h(0).x(0).x(0)  # the search empties it
    b = quartz.Circuit(1).x(0)  # smaller, but one gate is all the search can leave
    m = get_matcher(None, get_gate_set("nam"))
    start, found, spent = race.race_starts([b, a], m, get_cost("gates"), 1.0, seed=0, threads=1)
    assert start is a and len(found) == 0 and 0.0 <= spent < 5.0
    report = {}
    quartz.optimize(quartz.load(str(BENCH / "tof_3.qasm")), timeout=2, seed=0, report=report)
    assert report["start"] is None  # Nam does not race starts


def test_default_ecc_set_and_two_qubit_cost():
    c = quartz.load(str(BENCH / "tof_3.qasm"))
    out = quartz.optimize(c, timeout=3, seed=0, cost="cx")
    assert out.cx_count < c.cx_count
    assert check_equivalent(c, out).ok


def test_large_circuit_improves_in_windows():
    c = quartz.load(str(BENCH / "qcla_adder_10.qasm"))  # 521 gates, 36 qubits
    from quartz.search.preprocess import preprocess

    pre = preprocess(c, "nam")
    out = quartz.optimize(c, timeout=8, seed=2)
    assert len(out) < len(pre) < len(c)
    chk = check_equivalent(c, out)
    assert chk.ok and chk.method in ("path sum", "qcec")
