"""verify_pair: known identities proven with the right phase, near-misses refuted."""
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from quartz import Circuit, Param, QuartzError, _core
from quartz.circuit import GATE_NAMES
from quartz.ecc_sets import Phase
from quartz.verifier import verify_pair
from quartz.verifier.numeric import distance, padded_unitary

A, B = Param.symbol(0), Param.symbol(1)
T, TM = Param.pi(1, 4), Param.pi(-1, 4)


def assert_phase_numeric(a, b, phase, trials=5):
    """U_b = e^{i phase} U_a at random symbol values."""
    rng = np.random.default_rng(0)
    m = max(a.num_symbols, b.num_symbols)
    nq = max(a.num_qubits, b.num_qubits)
    for _ in range(trials):
        vals = list(rng.uniform(-7, 7, size=m))
        ua, ub = padded_unitary(a, vals, nq), padded_unitary(b, vals, nq)
        assert np.allclose(ub, np.exp(1j * phase.value(vals)) * ua, atol=1e-10)


def assert_proven(a, b, phase=None):
    v = verify_pair(a, b)
    assert v.status == "proven", v
    assert v.method == "exact"
    if phase is not None:
        assert v.phase == phase
    assert_phase_numeric(a, b, v.phase)
    return v


def assert_refuted(a, b):
    v = verify_pair(a, b)
    assert v.status == "refuted", v
    assert v.counterexample is not None
    assert len(v.counterexample) == max(a.num_symbols, b.num_symbols)
    nq = max(a.num_qubits, b.num_qubits)
    d = distance(padded_unitary(a, v.counterexample, nq), padded_unitary(b, v.counterexample, nq))
    assert d > 1e-6
    return v


def ccz_nam13():
    """CCZ as 6 cx + 7 rz(+-pi/4) (equal to CCZ up to the phase e^{-i pi/8})."""
    c = Circuit(3)
    c.cx(1, 2).rz(TM, 2).cx(0, 2).rz(T, 2).cx(1, 2).rz(TM, 2).cx(0, 2)
    c.rz(T, 1).rz(T, 2).cx(0, 1).rz(T, 0).rz(TM, 1).cx(0, 1)
    return c


def test_hh_is_identity():
    assert_proven(Circuit(1).h(0).h(0), Circuit(1), Phase())


def test_cxcx_is_identity():
    assert_proven(Circuit(2).cx(0, 1).cx(0, 1), Circuit(2), Phase())


def test_rz_sum():
    assert_proven(Circuit(1).rz(A, 0).rz(B, 0), Circuit(1).rz(A + B, 0), Phase())


def test_u1_vs_rz_phase_half_angle():
    v = assert_proven(Circuit(1).rz(A, 0), Circuit(1).u1(A, 0))
    assert v.phase == Phase.make(0, {0: Fraction(1, 2)})


def test_ccz_13_gate_decomposition():
    d = ccz_nam13()
    assert len(d) == 13 and set(d.count_ops()) == {"cx", "rz"}
    v = assert_proven(Circuit(3).ccz(0, 1, 2), d)
    assert v.phase == Phase.make(Fraction(-1, 8))


def test_ccz_with_h_is_ccx():
    c = Circuit(3).h(2) + ccz_nam13() + Circuit(3).h(2)
    assert_proven(Circuit(3).ccx(0, 1, 2), c)


def test_t_squared_is_s_and_rz_pi4_is_t_up_to_phase():
    assert_proven(Circuit(1).t(0).t(0), Circuit(1).s(0), Phase())
    assert_proven(Circuit(1).rz(T, 0), Circuit(1).t(0), Phase.make(Fraction(1, 8)))


def test_non_pi4_constants():
    third = Param.pi(1, 3)
    assert_proven(Circuit(1).rz(third, 0).rz(third, 0), Circuit(1).rz(Param.pi(2, 3), 0))


def test_u3_is_zyz_with_phase():
    c = Param.symbol(2)
    v = assert_proven(Circuit(1).u3(A, B, c, 0), Circuit(1).rz(c, 0).ry(A, 0).rz(B, 0))
    assert v.phase == Phase.make(0, {1: Fraction(-1, 2), 2: Fraction(-1, 2)})


def test_integer_multiples_of_symbols():
    assert_proven(Circuit(1).rx(A, 0).rx(A, 0), Circuit(1).rx(A.scaled(2), 0))
    assert_proven(Circuit(1).p(A.scaled(3) - B, 0), Circuit(1).u1(A, 0).u1(A + A - B, 0))


def test_global_phase_of_circuit_counts():
    b = Circuit(1).x(0)
    b.global_phase = Param.pi(1, 2)
    assert_proven(Circuit(1).x(0), b, Phase.make(Fraction(1, 2)))


def test_refute_rz_difference():
    assert_refuted(Circuit(1).rz(A, 0).rz(B, 0), Circuit(1).rz(A - B, 0))


def test_refute_swapped_control():
    v = assert_refuted(Circuit(2).cx(0, 1), Circuit(2).cx(1, 0))
    assert v.counterexample == []


def test_refute_subtle_phase_only_difference_in_a_block():
    # cz vs z on the control differs only by a relative phase: must not be proven
    assert_refuted(Circuit(2).cz(0, 1), Circuit(2).z(0))


def test_float_constants_are_generalised_soundly():
    x = Param.radians(0.3)
    v = verify_pair(Circuit(1).rz(x, 0).rz(-x, 0), Circuit(1))
    assert v.status == "proven"
    v = verify_pair(Circuit(1).rz(x, 0).rz(x, 0), Circuit(1).rz(Param.radians(0.6), 0))
    assert v.status == "unknown"


def test_different_qubit_counts_are_padded():
    assert_proven(Circuit(2).h(0).h(0), Circuit(1))


def test_bad_input_is_a_clear_error():
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        verify_pair(Circuit(1), "h q[0];")


def _rand_param(rng):
    r = rng.random()
    if r < 0.4:
        return Param.symbol(rng.randrange(2), rng.choice([1, -1, 2]))
    if r < 0.7:
        return Param.pi(rng.randrange(-8, 9), rng.choice([1, 2, 4, 8]))
    return A + B.scaled(rng.choice([1, -1])) + Param.pi(rng.randrange(-4, 5), 4)


def _rand_circuit(rng, n, nq=3):
    c = Circuit(nq)
    for _ in range(n):
        g = rng.choice(GATE_NAMES)
        k, npar, _, _ = _core.gate_info(g)
        c.append(g, rng.sample(range(nq), k), [_rand_param(rng) for _ in range(npar)])
    return c


def test_random_identities_phase_is_correct():
    rng = random.Random(7)
    for _ in range(60):
        a = _rand_circuit(rng, rng.randrange(1, 6))
        q = rng.randrange(3)
        b = Circuit(3).h(q).h(q) + a
        b.global_phase = Param.pi(rng.randrange(-8, 9), 8)
        assert_proven(a, b)
        # another random circuit: whatever the verdict, it must be numerically right
        c = _rand_circuit(rng, len(a))
        v = verify_pair(a, c)
        if v.status == "proven":
            assert_phase_numeric(a, c, v.phase)
        else:
            assert v.status == "refuted"


@pytest.mark.parametrize("name", GATE_NAMES)
def test_exact_gate_matrices_match_the_core(name):
    from quartz.verifier.exact import Context, exact_unitary

    k, npar, _, _ = _core.gate_info(name)
    syms = [Param.symbol(j) for j in range(npar)]
    c = Circuit(k).append(name, list(range(k)), syms)
    ctx = Context([c])
    u = exact_unitary(ctx, c)
    vals = [0.3 + 1.1 * j for j in range(npar)]
    zs = [complex(math.cos(v / 2), math.sin(v / 2)) for v in vals]
    got = np.array([ctx.ring.evaluate(p, zs) for p in u.m]).reshape(u.dim, u.dim) / math.sqrt(2) ** u.e
    assert np.allclose(got, c.unitary(vals), atol=1e-12)


def test_large_circuits_are_unknown_not_hanging():
    import time

    c = Circuit(12)
    for q in range(11):
        c.h(q).cx(q, q + 1)
    t = time.perf_counter()
    v = verify_pair(c, c.copy())
    assert v.status == "unknown" and "qubits" in v.message
    d = c.copy().x(11)
    w = verify_pair(c, d)
    assert w.status == "refuted" and w.counterexample == []
    assert time.perf_counter() - t < 30


def test_exact_path_respects_the_timeout():
    c = Circuit(6)
    for _ in range(30):
        for q in range(6):
            c.h(q).t(q)
        for q in range(5):
            c.cx(q, q + 1)
    v = verify_pair(c, c.copy(), timeout=0.01)
    assert v.status == "unknown"
