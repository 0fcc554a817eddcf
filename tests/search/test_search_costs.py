"""Cost functions: names, weights, callables, and their errors."""
from __future__ import annotations

import pytest

from quartz import Circuit, QuartzError
from quartz.search import get_cost


def sample() -> Circuit:
    return Circuit(3).h(0).cx(0, 1).t(1).rz(0.7853981633974483, 2).cx(1, 2).x(0)


def test_gate_count():
    c = sample()
    assert get_cost("gates").value(c) == 6
    assert get_cost("gates").search_value(c) == 6


def test_two_qubit_and_cx_with_tie_break():
    c = sample()
    cost = get_cost("two_qubit")
    assert cost.value(c) == 2
    assert cost.search_value(c) == pytest.approx(2 + 0.001 * 4)
    c2 = Circuit(2).cz(0, 1).cx(0, 1)
    assert get_cost("two_qubit").value(c2) == 2 and get_cost("cx").value(c2) == 1


def test_t_count_counts_rz_by_odd_quarter_pi():
    c = sample()
    assert get_cost("t_count").value(c) == 2  # t and rz(pi/4)
    assert get_cost("t").search_value(c) == pytest.approx(2 + 0.006)


def test_depth():
    c = sample()
    assert get_cost("depth").value(c) == c.depth == 4
    assert get_cost("depth").search_value(c) == pytest.approx(4.006)


def test_weight_dict_and_callable():
    c = sample()
    w = get_cost({"cx": 10, "h": 0, "default": 1})
    assert w.value(c) == 20 + 0 + 3
    assert get_cost({"cx": 2}).value(c) == 4 + 4  # unlisted gates weigh 1
    assert get_cost({"default": 0, "depth": 1.5}).value(c) == 6.0
    f = get_cost(lambda circ: 3 * circ.cx_count + len(circ))
    assert f.value(c) == 12 and f.search_value(c) == 12


def test_bad_costs_raise():
    with pytest.raises(QuartzError, match="unknown cost"):
        get_cost("area")
    with pytest.raises(QuartzError, match="unknown gate 'foo'"):
        get_cost({"foo": 1})
    with pytest.raises(QuartzError, match="must be a number"):
        get_cost({"cx": "ten"})
    with pytest.raises(QuartzError, match="cost must be"):
        get_cost(42)
