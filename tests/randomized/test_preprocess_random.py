"""Random circuits over Nam, Clifford+T, IBM and Rigetti through every preprocessing step:
the unitary, global phase included, never changes."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from quartz.gatesets import get_gate_set
from quartz.search.preprocess import (cancel_inverses, decompose_ccz_greedy, preprocess,
                                      rotation_merge, style_for_gate_set)
from tests.randomized.helpers import assert_same_unitary, unitary
from tests.randomized.strategies import GATE_SETS, circuits

EXAMPLES = int(os.environ.get("QUARTZ_RANDOM_EXAMPLES", "25"))
SLOW_EXAMPLES = 2500  # per gate set: 10,000 circuits in all


def _check_all_steps(c, gate_set: str) -> None:
    ref = unitary(c)
    style = style_for_gate_set(gate_set)
    assert_same_unitary(c, cancel_inverses(c), "cancel_inverses", ref)
    assert_same_unitary(c, rotation_merge(c), "rotation_merge", ref)
    if style is not None:
        for placement in ("first", "last"):
            assert_same_unitary(c, rotation_merge(c, style, placement=placement),
                                f"rotation_merge({style}, {placement})", ref)
    out = preprocess(c, gate_set)
    assert_same_unitary(c, out, f"preprocess({gate_set})", ref)
    assert {g.name for g in out} <= set(get_gate_set(gate_set).gates), out.count_ops()


def _settings(n: int):
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_preprocessing_keeps_the_unitary(gate_set):
    @_settings(EXAMPLES)
    @given(circuits(gate_set))
    def run(c):
        _check_all_steps(c, gate_set)

    run()


def test_ccz_decomposition_keeps_the_unitary():
    @_settings(EXAMPLES)
    @given(circuits("nam", extra=("ccz", "ccx")))
    def run(c):
        ref = unitary(c)
        for refine in (0, 2):
            out = decompose_ccz_greedy(c, refine=refine)
            assert_same_unitary(c, out, f"decompose_ccz_greedy(refine={refine})", ref)
            assert not {"ccz", "ccx"} & set(out.count_ops())
        assert_same_unitary(c, preprocess(c, "nam"), "preprocess(nam) with ccz/ccx", ref)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_preprocessing_keeps_the_unitary_many(gate_set):
    @_settings(SLOW_EXAMPLES)
    @given(circuits(gate_set))
    def run(c):
        _check_all_steps(c, gate_set)

    run()
