"""The C++ pruning (Generator.prune, pruning.simplify_generated) gives exactly what the Python
reference passes (pruning.simplify) give: the same classes, members and order, and the same
counts after every pass."""
from __future__ import annotations

import pytest

from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set
from quartz.generator.generate import DEFAULT_CONSTANTS
from quartz.generator.pruning import simplify, simplify_generated
from quartz.generator.repgen import enumerate_classes

CASES = [
    ("nam", 4, 3, 2, "type"),
    ("nam", 4, 3, 2, "qubit"),
    ("nam", 3, 2, 2, "type"),
    ("ibm", 3, 3, 4, "type"),          # u2/u3: several angles, sums of symbols
    ("rigetti", 4, 3, 2, "type"),      # constant angles share table ids with equal values
    ("ionq", 3, 3, 2, "type"),
    ("clifford_t", 4, 3, 0, "qubit"),  # no symbols at all
]


@pytest.mark.parametrize("name,n,q,m,order", CASES)
@pytest.mark.parametrize("split_identity", [True, False])
def test_native_pruning_equals_python_reference(name, n, q, m, order, split_identity):
    gates = tuple(get_gate_set(name).gates)
    e = enumerate_classes(gates, n, q, m, progress=False, order=order,
                          constants=DEFAULT_CONSTANTS.get(name, {}))
    ref, ref_log = simplify([(q, cs) for cs in e.classes], split_identity=split_identity)
    got, got_log = simplify_generated(e.generator, gates, split_identity=split_identity)
    assert got == ref
    assert got_log == ref_log
    assert got_log[0].name == "start" and got_log[-1].name.endswith(")")
    assert len(got) > 10  # a real test: pruning kept classes


def test_native_pruning_stops_after_max_cycles():
    gates = ("h", "x", "rz", "cx")
    e = enumerate_classes(gates, 3, 3, 2, progress=False)
    ref, ref_log = simplify([(3, cs) for cs in e.classes], max_cycles=1)
    got, got_log = simplify_generated(e.generator, gates, max_cycles=1)
    assert (got, got_log) == (ref, ref_log)
    assert [p.name for p in got_log][-1] == "common-subcircuit pruning (cycle 1)"


def test_native_pruning_rejects_a_gate_outside_the_generator():
    e = enumerate_classes(("h", "cx"), 2, 2, 0, progress=False)
    with pytest.raises(ValueError, match="unknown gate 'nope'"):
        e.generator.prune(["h", "nope"])
    with pytest.raises(ValueError, match="outside the gate set"):
        e.generator.prune(["h"])


def test_collect_false_leaves_the_classes_to_the_native_pruning():
    e = enumerate_classes(("h", "x", "rz", "cx"), 3, 2, 2, progress=False, collect=False)
    assert e.classes == [] and e.generator is not None
    pruned, log = simplify_generated(e.generator, ("h", "x", "rz", "cx"))
    assert (log[0].circuits, log[0].classes) == (139, 64)  # Quartz's Nam (3,2) before pruning
    assert all(len(cs) >= 2 for _, cs in pruned)
