"""The shipped ECC sets: present, proven, loadable, and numerically right on random angles."""
from __future__ import annotations

import pytest

from quartz import QuartzError
from quartz.ecc_sets import DEFAULTS, load, shipped_sets, spot_check, write
from quartz.gatesets import get_gate_set
from quartz.generator.ship import SHIPPED

NAMES = shipped_sets()


def test_every_listed_set_is_shipped_and_defaults_exist():
    assert set(SHIPPED) <= set(NAMES)
    for gs, name in DEFAULTS.items():
        assert name in NAMES, gs


@pytest.mark.parametrize("name", NAMES)
def test_shipped_set_is_proven_and_spot_checks(name):
    s = load(name)
    gs, n, q, m = SHIPPED[name]
    assert (s.n, s.q, s.m) == (n, q, m) and s.gate_set == get_gate_set(gs).gates
    assert s.classes and all(e.proven and len(e.circuits) >= 2 for e in s.classes)
    assert all(p is not None for e in s.classes for p in e.phases)
    assert spot_check(s, sample=150, seed=hash(name) % 1000) == []
    assert len(s.transformations()) == s.num_transformations


def test_load_by_gate_set_path_and_caching(tmp_path):
    a = load("nam")
    assert (a.n, a.q) == (6, 3)
    b = load("nam")
    assert b is not a and b.classes == a.classes  # cached, copies returned
    b.classes.pop()
    assert len(load("nam").classes) == len(a.classes)
    p = tmp_path / "mine.json"
    write(load("nam_3_3"), p)
    assert load(str(p)).num_circuits == load("nam_3_3").num_circuits
    assert load("Clifford+T").gate_set == get_gate_set("clifford_t").gates


def test_unknown_set_is_a_clear_error():
    with pytest.raises(QuartzError, match="no shipped ECC set 'bogus'"):
        load("bogus")
    with pytest.raises(QuartzError, match="cannot read"):
        load("/no/such/file.json")
