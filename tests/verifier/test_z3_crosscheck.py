"""The Z3 path agrees with the exact path on a sample of identities and near-misses."""
from fractions import Fraction

import pytest

from quartz import Circuit, Param
from quartz.verifier import verify_pair
from quartz.verifier.z3_backend import Encoder, verify_pair_z3

A, B, C = Param.symbol(0), Param.symbol(1), Param.symbol(2)
T = Param.pi(1, 4)

SAMPLE = [
    (Circuit(1).h(0).h(0), Circuit(1)),
    (Circuit(2).cx(0, 1).cx(0, 1), Circuit(2)),
    (Circuit(1).rz(A, 0).rz(B, 0), Circuit(1).rz(A + B, 0)),
    (Circuit(1).rz(A, 0), Circuit(1).u1(A, 0)),
    (Circuit(1).rz(T, 0), Circuit(1).t(0)),
    (Circuit(1).h(0).rz(A, 0).h(0), Circuit(1).rx(A, 0)),
    (Circuit(1).u3(A, B, C, 0), Circuit(1).rz(C, 0).ry(A, 0).rz(B, 0)),
    (Circuit(2).cx(0, 1).rz(A, 1).cx(0, 1), Circuit(2).rzz(A, 0, 1)),
    (Circuit(2).cx(0, 1), Circuit(2).h(0).h(1).cx(1, 0).h(0).h(1)),
    (Circuit(1).sx(0).sx(0), Circuit(1).x(0)),
    (Circuit(1).rz(A, 0).rz(B, 0), Circuit(1).rz(A - B, 0)),  # near-miss
    (Circuit(2).cx(0, 1), Circuit(2).cx(1, 0)),  # near-miss
    (Circuit(1).rx(A, 0).rz(B, 0), Circuit(1).rz(B, 0).rx(A, 0)),  # near-miss
    (Circuit(1).u1(A + A, 0), Circuit(1).rz(A.scaled(2), 0)),
]


@pytest.mark.parametrize("a,b", SAMPLE)
def test_exact_and_z3_agree(a, b):
    ve = verify_pair(a, b)
    vz = verify_pair_z3(a, b, timeout=20.0)
    assert ve.status in ("proven", "refuted")
    assert vz.status == ve.status, (ve, vz)
    if ve.status == "proven":
        assert vz.method == "z3" and vz.phase == ve.phase


def test_z3_constants_are_exact_roots_of_unity():
    import z3

    enc = Encoder(0, [])
    re, im = enc.zeta(1, 16)  # e^{i pi/8}
    s = z3.Solver()
    s.add(*enc.constraints)
    s.add(z3.Or(re * re - im * im != enc.sqrt2() / 2, re <= 0))
    assert s.check() == z3.unsat


def test_z3_timeout_is_unknown_never_proven():
    # a 13-gate CCZ identity is beyond Z3 in a 1 ms budget: must come back "unknown"
    tm = Param.pi(-1, 4)
    d = Circuit(3)
    d.cx(1, 2).rz(tm, 2).cx(0, 2).rz(T, 2).cx(1, 2).rz(tm, 2).cx(0, 2)
    d.rz(T, 1).rz(T, 2).cx(0, 1).rz(T, 0).rz(tm, 1).cx(0, 1)
    v = verify_pair_z3(Circuit(3).ccz(0, 1, 2), d, timeout=0.001)
    assert v.status == "unknown" and v.phase is None
    assert verify_pair(Circuit(3).ccz(0, 1, 2), d).phase.const == Fraction(15, 8)


def test_z3_handles_float_constants_as_free_symbols():
    x = Param.radians(0.3)
    v = verify_pair_z3(Circuit(1).rz(x, 0).rz(A, 0), Circuit(1).rz(A, 0).rz(x, 0))
    assert v.status == "proven"
