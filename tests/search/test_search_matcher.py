"""Matcher: anchored matches, parameter binding, convexity, exact folding and phase tracking."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from quartz import Circuit, Param, QuartzError
from quartz.ecc_sets import ECC, Phase, Transformation
from quartz.search import Matcher
from search_rules import P0, P1, holds, random_nam_circuit, same_unitary


def xf(src: Circuit, dst: Circuit, phase: Phase = Phase()) -> Transformation:
    assert holds(ECC([src, dst], [Phase(), phase], True))
    return Transformation(src, dst, phase, 0)


HH = xf(Circuit(1).h(0).h(0), Circuit(1))
CXCX = xf(Circuit(2).cx(0, 1).cx(0, 1), Circuit(2))
RZRZ = xf(Circuit(1).rz(P0, 0).rz(P1, 0), Circuit(1).rz(P0 + P1, 0))
XRZX = xf(Circuit(1).x(0).rz(P0, 0).x(0), Circuit(1).rz(-P0, 0))


def test_finds_exactly_the_expected_matches():
    m = Matcher([HH, CXCX, RZRZ, XRZX])
    c = (Circuit(3).h(0).h(0).h(0)          # h h h: matches at 0 and 1
         .cx(1, 2).cx(1, 2)                 # 3, 4: cx cx at 3
         .cx(2, 1)                          # 5: reversed, no match with 4
         .rz(0.25, 2).x(2).rz(0.5, 2).x(2))  # 6..9
    # rz(0.25) and rz(0.5) are not adjacent (an x between), x rz x at 7..9 is.
    assert sorted(m.applicable(c)) == [(0, 0), (1, 0), (3, 1), (7, 3)]
    assert m.applicable_at(c, 3) == [1]
    assert m.applicable_at(c, 4) == []
    assert m.match(c, 3, 1) == [3, 4]
    assert m.match(c, 7, 3) == [7, 8, 9]
    assert m.match(c, 6, 2) is None


def test_match_needs_adjacent_gates_on_every_wire():
    m = Matcher([CXCX])
    # A gate between the two CXs on the target wire blocks the match; one on another wire does not.
    assert m.applicable(Circuit(2).cx(0, 1).h(1).cx(0, 1)) == []
    assert m.applicable(Circuit(3).cx(0, 1).h(2).cx(0, 1)) == [(0, 0)]
    assert m.applicable(Circuit(2).cx(0, 1).cx(1, 0)) == []


def test_rewrite_moves_target_into_place():
    m = Matcher([CXCX])
    c = Circuit(3).cx(0, 1).h(2).cx(0, 1).x(2)
    out = m.apply(c, 0, 0)
    assert [g.name for g in out] == ["h", "x"]
    assert same_unitary(out, c)


def test_binding_solves_and_folds_exactly():
    m = Matcher([RZRZ])
    c = Circuit(1).rz(math.pi / 4, 0).rz(math.pi / 8, 0)
    out = m.apply(c, 0, 0)
    assert len(out) == 1 and out[0].params[0].pi_fraction == (3, 8)
    assert same_unitary(out, c)


def test_symbol_used_twice_binds_consistently():
    same = xf(Circuit(1).rz(P0, 0).x(0).rz(P0, 0), Circuit(1).x(0))
    m = Matcher([same])
    assert m.applicable(Circuit(1).rz(0.3, 0).x(0).rz(0.3, 0)) == [(0, 0)]
    assert m.applicable(Circuit(1).rz(0.3, 0).x(0).rz(0.4, 0)) == []
    out = m.apply(Circuit(1).rz(0.3, 0).x(0).rz(0.3, 0), 0, 0)
    assert [g.name for g in out] == ["x"]


def test_linear_expressions_in_sources_are_solved_and_checked():
    solve = xf(Circuit(1).rz(P0, 0).rz(P0 + P1, 0), Circuit(1).rz(P0.scaled(2) + P1, 0))
    check = xf(Circuit(1).rz(P0, 0).rz(P1, 0).rz(P0 + P1, 0), Circuit(1).rz((P0 + P1).scaled(2), 0))
    m = Matcher([solve, check])
    assert m.usable(0) and m.usable(1)
    c = Circuit(1).rz(math.pi / 4, 0).rz(math.pi / 2, 0)
    out = m.apply(c, 0, 0)
    assert out[0].params[0].pi_fraction == (3, 4) and same_unitary(out, c)
    assert m.applicable_at(Circuit(1).rz(0.1, 0).rz(0.2, 0).rz(0.30000000000000004, 0), 0) == [0, 1]
    assert m.applicable_at(Circuit(1).rz(0.1, 0).rz(0.2, 0).rz(0.4, 0), 0) == [0]


def test_unsolvable_and_disconnected_sources_are_reported():
    split = Transformation(Circuit(1).rz(P0 + P1, 0), Circuit(1).rz(P0, 0).rz(P1, 0), Phase(), 0)
    apart = Transformation(Circuit(2).h(0).h(1), Circuit(2).h(1).h(0), Phase(), 0)
    empty = Transformation(Circuit(1), Circuit(1).h(0).h(0), Phase(), 0)
    m = Matcher([split, apart, empty])
    assert not any(m.usable(i) for i in range(3))
    assert "solved" in m.why_unusable(0)
    assert "connected" in m.why_unusable(1)
    assert "empty" in m.why_unusable(2)
    assert m.applicable(Circuit(2).rz(0.3, 0).h(0).h(1)) == []


def test_convexity_rejects_a_cycle():
    # cx(0,1) cx(1,2) are adjacent on qubit 1, but cx(0,2) runs from the first to the second.
    rule = xf(Circuit(3).cx(0, 1).cx(1, 2), Circuit(3).cx(1, 2).cx(0, 2).cx(0, 1))
    m = Matcher([rule])
    ok = Circuit(3).cx(0, 1).cx(1, 2)
    assert m.applicable(ok) == [(0, 0)]
    bad = Circuit(3).cx(0, 1).cx(0, 2).cx(1, 2)
    # Structurally the two CXs are adjacent on qubit 1 ...
    assert bad.successor(0, 1) == 2
    # ... but rewriting them would need cx(0,2) both after and before the target.
    assert m.applicable(bad) == []
    assert m.apply(bad, 0, 0) is None


def test_rotation_by_2pi_vanishes_with_phase_minus_one():
    m = Matcher([RZRZ])
    c = Circuit(1).rz(math.pi, 0).rz(math.pi, 0)
    out = m.apply(c, 0, 0)
    assert len(out) == 0
    assert out.global_phase.pi_fraction == (1, 1)
    assert same_unitary(out, c)  # rz(2pi) = -I
    c4 = Circuit(1).rz(3 * math.pi / 2, 0).rz(5 * math.pi / 2, 0)  # 4pi: exactly I
    out4 = m.apply(c4, 0, 0)
    assert len(out4) == 0 and out4.global_phase.pi_fraction == (0, 1)
    assert same_unitary(out4, c4)


def test_new_angles_are_reduced_with_their_phase():
    m = Matcher([RZRZ])
    c = Circuit(1).rz(3 * math.pi / 4, 0).rz(3 * math.pi / 4, 0)  # 3pi/2 -> -pi/2, phase pi
    out = m.apply(c, 0, 0)
    assert out[0].params[0].pi_fraction == (-1, 2)
    assert out.global_phase.pi_fraction == (1, 1)
    assert same_unitary(out, c)


def test_symbolic_phase_is_bound_to_the_matched_angle():
    # p(a) = e^{i a/2} rz(a): rewriting rz -> p must subtract a/2 from the global phase.
    rule = xf(Circuit(1).rz(P0, 0), Circuit(1).p(P0, 0), Phase.make(0, {0: Fraction(1, 2)}))
    m = Matcher([rule])
    c = Circuit(1).rz(math.pi / 3, 0)
    out = m.apply(c, 0, 0)
    assert out[0].name == "p"
    assert out.global_phase.pi_fraction == (-1, 6)
    assert same_unitary(out, c)
    cf = Circuit(1).rz(0.3, 0)
    outf = m.apply(cf, 0, 0)
    assert abs(float(outf.global_phase) + 0.15) < 1e-12
    assert same_unitary(outf, cf)


@pytest.mark.parametrize("seed", range(6))
def test_every_rewrite_keeps_the_unitary_and_phase(seed, small_set):
    m = Matcher(small_set)
    c = random_nam_circuit(3, 30, seed)
    moves = m.applicable(c)
    assert moves, "random circuit should offer some rewrites"
    u = c.unitary()
    for g, x in moves:
        out = m.apply(c, g, x)
        assert out is not None
        assert np.allclose(out.unitary(), u, atol=1e-9), (g, x, list(m.transformations[x].source))
    # Chains of rewrites stay exact too.
    cur = c
    for step in range(15):
        mv = m.applicable(cur)
        if not mv:
            break
        g, x = mv[(seed * 7 + step * 3) % len(mv)]
        cur = m.apply(cur, g, x)
    assert np.allclose(cur.unitary(), u, atol=1e-9)


def test_bad_arguments_raise_clear_errors(small_set):
    m = Matcher(small_set)
    c = Circuit(1).h(0)
    with pytest.raises(QuartzError, match="gate index"):
        m.apply(c, 5, 0)
    with pytest.raises(QuartzError, match="transformation index"):
        m.apply(c, 0, 10_000)
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        m.applicable("h q[0];")
    with pytest.raises(QuartzError, match="Transformation"):
        Matcher([1, 2])
    assert m.apply(c, 0, 0) is None or len(m.apply(c, 0, 0)) <= 1


def test_apply_all_chains_moves_and_reports_a_bad_one():
    m = Matcher([HH, XRZX])
    c = Circuit(1).h(0).h(0).x(0).rz(0.5, 0).x(0)
    out = m.apply_all(c, [(0, 0), (0, 1)])
    assert [g.name for g in out] == ["rz"] and float(out[0].params[0]) == -0.5
    assert same_unitary(out, c)
    with pytest.raises(QuartzError, match="does not apply"):
        m.apply_all(c, [(2, 0)])


def test_normalize_rotations_reduces_angles_exactly():
    from quartz import _core

    c = Circuit(2).rz(3 * math.pi, 0).rz(4 * math.pi, 1).p(2 * math.pi, 0).rz(-0.5, 1)
    out = Circuit._wrap(_core.normalize_rotations(c.native))
    assert [(g.name, str(g.params[0])) for g in out] == [("rz", "pi"), ("rz", "-0.5")]
    assert out.global_phase.pi_fraction == (1, 1)  # rz(3pi) = -rz(pi)
    assert same_unitary(out, c)
