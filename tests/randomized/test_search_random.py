"""Random circuits over Nam, Clifford+T, IBM and Rigetti through a short `quartz.optimize`:
the unitary, global phase included, never changes and the output stays in the gate set."""
from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import given

import quartz
from quartz.gatesets import get_gate_set
from tests.randomized.helpers import assert_same_unitary, unitary
from tests.randomized.strategies import GATE_SETS, circuits
from tests.randomized.test_preprocess_random import SLOW_EXAMPLES, _check_all_steps, _settings

EXAMPLES = int(os.environ.get("QUARTZ_RANDOM_SEARCH_EXAMPLES", "6"))
SEARCH_TIMEOUT = 0.2
SLOW_SEARCH_TIMEOUT = float(os.environ.get("QUARTZ_SLOW_SEARCH_TIMEOUT", "0.1"))


def _check_search(c, gate_set: str, timeout: float, ref=None) -> None:
    # optimize() guards itself: on a failed internal check it warns and returns the input.
    # Here that warning is an error, so a wrong rewrite cannot hide behind the guard.
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        out = quartz.optimize(c, gate_set, timeout=timeout, seed=0)
    assert_same_unitary(c, out, f"optimize({gate_set}, timeout={timeout})", ref)
    assert {g.name for g in out} <= set(get_gate_set(gate_set).gates), out.count_ops()
    assert len(out) <= len(c)


@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_short_search_keeps_the_unitary(gate_set):
    @_settings(EXAMPLES)
    @given(circuits(gate_set))
    def run(c):
        _check_search(c, gate_set, SEARCH_TIMEOUT)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("gate_set", GATE_SETS)
def test_many_random_circuits_through_preprocessing_and_search(gate_set):
    """The large run: 2,500 circuits per gate set (10,000 in all), every step on each."""
    seen = []

    @_settings(SLOW_EXAMPLES)
    @given(circuits(gate_set))
    def run(c):
        seen.append(1)
        _check_all_steps(c, gate_set)
        _check_search(c, gate_set, SLOW_SEARCH_TIMEOUT, unitary(c))

    run()
    print(f"\n{gate_set}: {len(seen)} random circuits checked")
    assert len(seen) >= SLOW_EXAMPLES
