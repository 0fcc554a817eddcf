"""generate(): proven classes, numeric re-checks, representatives, report, bad input."""
from __future__ import annotations

import numpy as np
import pytest

from quartz import Circuit, QuartzError
from quartz.ecc_sets import class_error, spot_check
from quartz.generator import GenerationReport, check_arguments, generate
from quartz.generator.light import from_circuit, order_key


@pytest.fixture(scope="module")
def nam33():
    return generate("nam", 3, 3, 2, jobs=1, progress=False)


def test_every_class_is_proven_and_numerically_equal(nam33):
    ecc_set, _ = nam33
    rng = np.random.default_rng(1)
    assert ecc_set.classes
    for e in ecc_set.classes:
        assert e.proven and len(e.circuits) >= 2
        assert all(p is not None for p in e.phases)
        assert class_error(e, rng) < 1e-9
    assert spot_check(ecc_set, sample=None) == []


def test_clifford_t_classes_numerically_equal():
    ecc_set, _ = generate("clifford_t", 3, 3, 0, jobs=1, progress=False)
    assert ecc_set.classes and spot_check(ecc_set, sample=None) == []


def test_representative_is_smallest_in_documented_order(nam33):
    ecc_set, _ = nam33
    for e in ecc_set.classes:
        keys = [order_key(from_circuit(c, ecc_set.gate_set)) for c in e.circuits]
        assert keys[0] == min(keys)


def test_circuits_are_canonical_and_transformations_hold(nam33):
    ecc_set, _ = nam33
    for e in ecc_set.classes:
        for c in e.circuits:
            assert list(c.canonical()) == list(c)
    rng = np.random.default_rng(3)
    xs = ecc_set.transformations()
    assert len(xs) == ecc_set.num_transformations
    for t in xs:
        vals = [float(v) for v in rng.uniform(-np.pi, np.pi, size=2)]
        us, ut = t.source.unitary(vals), t.target.unitary(vals)
        assert np.allclose(ut, np.exp(1j * t.phase.value(vals)) * us, atol=1e-9)


def test_report_counts(nam33):
    ecc_set, report = nam33
    assert isinstance(report, GenerationReport)
    assert (report.before.classes, report.before.circuits) == (271, 588)
    assert (report.final.classes, report.final.circuits) == (len(ecc_set.classes), ecc_set.num_circuits)
    assert report.considered == sum(report.considered_per_round) > report.circuits_kept
    assert set(report.seconds) >= {"enumerate", "prune", "verify", "total"}
    j = report.to_json()
    assert j["before"]["transformations"] == 634 and j["passes"][0]["pass"] == "start"
    assert "before pruning" in report.summary() and "after pruning" in report.summary()
    assert ecc_set.metadata["generator"]["name"] == "quartz.generator"
    assert len(ecc_set.metadata["generator"]["symbol_values"]) == 2


def test_small_identities_are_present(nam33):
    ecc_set, _ = nam33
    hh = Circuit(1).h(0).h(0)
    assert any(c == hh for e in ecc_set.classes for c in e.circuits)


def test_custom_gate_list_and_jobs():
    a, ra = generate("h,cx", 3, 2, 0, jobs=1, progress=False)
    b, rb = generate(["h", "cx"], 3, 2, 0, jobs=2, progress=False)
    assert ra.before.circuits == rb.before.circuits > 0
    assert [len(e.circuits) for e in a.classes] == [len(e.circuits) for e in b.classes]


@pytest.mark.parametrize("args,msg", [
    ((("h", "cx"), 0, 2, 0), r"n \(gates per circuit\)"),
    ((("h", "cx"), 2, 0, 0), r"q \(qubits\)"),
    ((("h", "cx"), 2, 7, 0), r"q \(qubits\)"),
    ((("h", "cx"), 2, 1, 0), "acts on 2 qubits"),
    ((("rz",), 2, 1, 0), "needs m >= 1"),
    ((("u3",), 2, 1, 2), "needs m >= 3"),
])
def test_bad_arguments(args, msg):
    with pytest.raises(QuartzError, match=msg):
        check_arguments(*args)
    gates, n, q, m = args
    with pytest.raises(QuartzError, match=msg):
        generate(gates, n, q, m, progress=False)


def test_unknown_gate_and_order_are_clear_errors():
    with pytest.raises(QuartzError, match="unknown gate 'foo'"):
        generate("h,foo", 2, 2, 0, progress=False)
    with pytest.raises(QuartzError, match="order must be"):
        generate("nam", 2, 2, 2, progress=False, order="bogus")


def test_rigetti_uses_quarter_turn_constants():
    from fractions import Fraction
    from quartz import Param
    from quartz.generator.generate import DEFAULT_CONSTANTS
    ecc_set, report = generate("rigetti", 3, 2, 1, jobs=1, progress=False)
    assert ecc_set.metadata["generator"]["constants"]["rx"] == ["1/2", "-1/2", "1"]
    consts = {p for e in ecc_set.classes for c in e.circuits for g in c for p in g.params
              if not p.is_symbolic}
    assert Param.pi(1, 2) in consts or Param.pi(-1, 2) in consts
    assert spot_check(ecc_set, sample=None) == []
    bare, _ = generate("rigetti", 3, 2, 1, jobs=1, progress=False, constants={})
    assert len(bare.classes) < len(ecc_set.classes)
    assert DEFAULT_CONSTANTS["ionq"]["rxx"] == (Fraction(1, 2), Fraction(-1, 2))


def test_constants_need_known_one_angle_gates():
    with pytest.raises(QuartzError, match="not in the gate set"):
        generate("nam", 2, 2, 2, progress=False, constants={"ry": [0.5]})
    with pytest.raises(QuartzError, match="one-angle gates"):
        generate("u3,cx", 2, 2, 3, progress=False, constants={"u3": [0.5]})
    # With constants a one-angle gate needs no symbol.
    s, _ = generate("h,rz", 3, 1, 0, jobs=1, progress=False, constants={"rz": ["1/4", "-1/4"]})
    assert s.classes and spot_check(s, sample=None) == []


def test_parallel_proofs_match_sequential():
    a, ra = generate("nam", 4, 3, 2, jobs=1, progress=False)
    b, rb = generate("nam", 4, 3, 2, jobs=2, progress=False)  # > 64 groups: process pool
    assert ra.after_pruning.classes >= 64
    assert [[c for c in e.circuits] for e in a.classes] == [[c for c in e.circuits] for e in b.classes]
    assert [e.phases for e in a.classes] == [e.phases for e in b.classes]


def test_worker_task_takes_and_returns_plain_data():
    """The proofs' worker task gets light circuits (tuples) and returns indices and phases,
    not Circuit objects: cheap to pickle, and what a Ray worker needs."""
    import pickle

    from quartz.ecc_sets import Phase
    from quartz.generator.generate import _split_chunk

    h, x = (0, (0,), ()), (1, (0,), ())
    groups = [(1, [(h, h), ()]), (1, [(x, x, h), (h,)])]  # h h = identity; x x h = h
    parts = _split_chunk((groups, ("h", "x"), 5.0))
    assert parts == [[([0, 1], [Phase(), Phase()])], [([0, 1], [Phase(), Phase()])]]
    assert b"Circuit" not in pickle.dumps(parts)
