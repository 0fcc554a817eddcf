"""Every decomposition rule is exact: gate == e^{i phase} * template, for several angles."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from quartz import Circuit, Param, to_param
from quartz._core import gate_info
from quartz.gatesets.rules import RULES, NotApplicable, rules_for, scale


def _template_circuit(rule, params, nq):
    gates, phase = rule.expand(params)
    c = Circuit(nq)
    for name, slots, ps in gates:
        c.append(name, slots, ps)
    c.global_phase = phase
    return c


@pytest.mark.parametrize("index", range(len(RULES)))
def test_rule_is_exact(index):
    rule = RULES[index]
    nq, npar, _, _ = gate_info(rule.gate)
    rng = np.random.default_rng(index)
    for trial in range(4):
        if rule.builder is not None:  # angle-conditional rules: every multiple of pi/4
            params = [Param.pi(int(k), 4) for k in rng.integers(-9, 10, npar)]
        elif trial == 0:
            params = [Param.pi(int(k), 8) for k in rng.integers(-17, 17, npar)]
        else:
            params = [to_param(float(x)) for x in rng.uniform(-7, 7, npar)]
        ref = Circuit(nq).append(rule.gate, list(range(nq)), params)
        out = _template_circuit(rule, params, nq)
        assert np.allclose(out.unitary(), ref.unitary(), atol=1e-10), (rule, params)


def test_pi4_rules_cover_every_multiple():
    for rule in rules_for("p"):
        if rule.builder is None:
            continue
        for k in range(-8, 9):
            out = _template_circuit(rule, [Param.pi(k, 4)], 1)
            assert np.allclose(out.unitary(), Circuit(1).p(Param.pi(k, 4), 0).unitary())
        with pytest.raises(NotApplicable, match="not a multiple of pi/4"):
            rule.expand([Param.pi(1, 8)])
        with pytest.raises(NotApplicable):
            rule.expand([Param.symbol(0)])


def test_symbolic_phase_is_not_applicable():
    (rz_to_p,) = [r for r in rules_for("rz") if r.template.startswith("p(")]
    with pytest.raises(NotApplicable, match="symbolic"):
        rz_to_p.expand([Param.symbol(0)])
    gates, phase = rz_to_p.expand([Param.pi(1, 3)])
    assert gates == [("p", (0,), (Param.pi(1, 3),))]
    assert phase == Param.pi(-1, 6)


def test_scale_exact_and_symbolic():
    assert scale(Param.pi(3, 4), Fraction(1, 2)) == Param.pi(3, 8)
    assert scale(Param.radians(0.5), Fraction(-1, 2)) == Param.radians(-0.25)
    assert scale(Param.symbol(1, 2) + Param.pi(1, 1), Fraction(1, 2)) == Param.symbol(1) + Param.pi(1, 2)
    with pytest.raises(NotApplicable, match="fractional coefficient"):
        scale(Param.symbol(0), Fraction(1, 2))


def test_every_gate_has_a_rule():
    from quartz.circuit import GATE_NAMES

    assert all(rules_for(g) for g in GATE_NAMES)
