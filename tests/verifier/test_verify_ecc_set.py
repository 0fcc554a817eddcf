"""verify_ecc_set: proven/refuted/unknown/corrupt classes, jobs and user executors."""
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np

from quartz import Circuit, Param
from quartz.ecc_sets import ECC, ECCSet, Phase
from quartz.verifier import VerifyReport, verify_ecc_set
from quartz.verifier.ecc_set import ClassTask, verify_class

A, B = Param.symbol(0), Param.symbol(1)


def small_set():
    classes = [
        ECC([Circuit(1).rz(A + B, 0), Circuit(1).rz(A, 0).rz(B, 0)]),
        ECC([Circuit(1).rz(A, 0), Circuit(1).u1(A, 0), Circuit(1).x(0).x(0).rz(A, 0)]),
        ECC([Circuit(2).cx(0, 1), Circuit(2).cx(1, 0)]),  # differ
        ECC([Circuit(2), Circuit(2).cx(0, 1).cx(0, 1), Circuit(2).h(1).h(1)]),
        ECC([Circuit(3).h(2)]),  # 3 qubits in a q=2 set: corrupt
    ]
    return ECCSet(("h", "cx", "rz", "u1", "x"), 3, 2, 2, classes, {"name": "test"})


def check(verified: ECCSet, report: VerifyReport):
    assert [c.status for c in report.classes] == ["proven", "proven", "refuted", "proven", "corrupt"]
    assert (report.proven, report.refuted, report.unknown, report.corrupt) == (3, 1, 0, 1)
    assert report.classes[2].counterexample == []
    assert "3 qubits" in report.classes[4].message and report.classes[4].index == 4
    assert len(verified.classes) == 3 and all(e.proven for e in verified.classes)
    assert verified.classes[1].phases[1] == Phase.make(0, {0: Fraction(1, 2)})
    assert verified.metadata["verified"] is True and verified.metadata["name"] == "test"
    # every proven phase holds numerically
    for e in verified.classes:
        for c, ph in zip(e.circuits, e.phases):
            vals = [0.4, -1.3]
            assert np.allclose(c.unitary(vals), np.exp(1j * ph.value(vals)) * e.circuits[0].unitary(vals))
    assert verified.num_transformations == 2 * (8 - 3)


def test_verify_in_process():
    check(*verify_ecc_set(small_set(), jobs=1, progress=False))


def test_verify_process_pool():
    check(*verify_ecc_set(small_set(), jobs=2, progress=False))


def test_verify_user_executor():
    with ThreadPoolExecutor(2) as ex:
        check(*verify_ecc_set(small_set(), executor=ex, progress=False))


def test_corrupt_classes_are_reported_not_raised():
    r = verify_class(ClassTask(7, [Circuit(1), "not a circuit"]))
    assert r.outcome.status == "corrupt" and r.outcome.index == 7 and "circuit 1" in r.outcome.message
    r = verify_class(ClassTask(3, [Circuit(1).h(0), Circuit(1).rz(Param.symbol(4), 0)], q=1, m=2))
    assert r.outcome.status == "corrupt" and "p4" in r.outcome.message
    r = verify_class(ClassTask(5, [Circuit(2).swap(0, 1)], gate_set=("cx",)))
    assert r.outcome.status == "corrupt" and "swap" in r.outcome.message
    assert verify_class(ClassTask(1, [])).outcome.status == "corrupt"


def test_unknown_is_not_trusted():
    x = Param.radians(0.3)
    s = ECCSet(("rz",), 2, 1, 0, [ECC([Circuit(1).rz(x, 0).rz(x, 0), Circuit(1).rz(Param.radians(0.6), 0)])])
    verified, report = verify_ecc_set(s, jobs=1, progress=False)
    assert report.unknown == 1 and verified.classes == []
    assert "json" not in report.summary() and "1 unknown" in report.summary()
    assert report.to_json()["classes"][0]["status"] == "unknown"


def test_wrong_stored_phase_is_refuted():
    e = ECC([Circuit(1).rz(A, 0), Circuit(1).u1(A, 0)], [Phase(), Phase.make(0, {0: Fraction(-1, 2)})])
    good = ECC([Circuit(1).rz(A, 0), Circuit(1).u1(A, 0)], [Phase(), Phase.make(0, {0: Fraction(1, 2)})])
    s = ECCSet(("rz", "u1"), 1, 1, 1, [e, good])
    verified, report = verify_ecc_set(s, jobs=1, progress=False)
    assert [c.status for c in report.classes] == ["refuted", "proven"]
    assert "stored phase" in report.classes[0].message and report.classes[0].counterexample
    # the output carries the proven phases
    assert verified.classes[0].phases[1] == Phase.make(0, {0: Fraction(1, 2)})
