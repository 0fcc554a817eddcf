"""RepGen counts against Quartz's measured figures (quartz-measured.md / quartz-internals.md)."""
from __future__ import annotations

import pytest

from quartz.generator.pruning import count, simplify
from quartz.generator.repgen import enumerate_classes

NAM = ("h", "x", "rz", "cx")
CLIFFORD_T = ("t", "tdg", "h", "x", "cx")  # Quartz's Clifford+T generation gates


def before(gates, n, q, m, order="type"):
    e = enumerate_classes(gates, n, q, m, progress=False, order=order)
    return e, count([(q, cs) for cs in e.classes], "before")


def test_nam_3_2_before_pruning_matches_quartz():
    _, c = before(NAM, 3, 2, 2)
    assert (c.circuits, c.classes, c.transformations) == (139, 64, 150)


def test_nam_2_3_before_and_after_match_quartz():
    e, c = before(NAM, 2, 3, 2)
    assert (c.circuits, c.classes) == (124, 55)
    # Quartz keeps one 3-qubit identity class; we split it per qubit count by default.
    pruned, _ = simplify([(3, cs) for cs in e.classes], split_identity=False)
    assert (sum(len(cs) for _, cs in pruned), len(pruned)) == (24, 6)
    pruned, _ = simplify([(3, cs) for cs in e.classes])
    assert (sum(len(cs) for _, cs in pruned), len(pruned)) == (17, 7)


def test_nam_4_3_before_pruning_matches_quartz():
    _, c = before(NAM, 4, 3, 2)
    assert (c.circuits, c.classes, c.transformations) == (4170, 1990, 4360)


@pytest.mark.parametrize("n,expected", [(3, (310, 135)), (4, (1951, 896))])
def test_clifford_t_before_pruning_matches_quartz_in_qubit_order(n, expected):
    _, c = before(CLIFFORD_T, n, 3, 0, order="qubit")
    assert (c.circuits, c.classes) == expected


def test_one_gate_circuits():
    assert enumerate_classes(NAM, 1, 3, 2, progress=False).kept_per_round == [27]
    assert enumerate_classes(NAM, 1, 2, 2, progress=False).kept_per_round == [16]
    assert enumerate_classes(CLIFFORD_T, 1, 3, 0, progress=False).kept_per_round == [18]


def test_classes_hold_distinct_circuits():
    e = enumerate_classes(NAM, 3, 2, 2, progress=False)
    flat = [c for cs in e.classes for c in cs]
    assert len(set(flat)) == len(flat)
    assert all(len(cs) >= 2 for cs in e.classes)


def test_order_changes_members_not_classes():
    a = enumerate_classes(CLIFFORD_T, 3, 3, 0, progress=False, order="type")
    b = enumerate_classes(CLIFFORD_T, 3, 3, 0, progress=False, order="qubit")
    assert a.num_classes == b.num_classes
    assert a.num_circuits != b.num_circuits


def test_threads_give_identical_results():
    a = enumerate_classes(NAM, 3, 3, 2, progress=False, jobs=1)
    b = enumerate_classes(NAM, 3, 3, 2, progress=False, jobs=2)
    assert a.classes == b.classes and a.num_circuits == b.num_circuits


def test_pipelined_rounds_give_identical_results():
    """Rounds of many 64-representative blocks, expanded by 1, 2 or 3 threads in any order and
    classified in order: the same classes, members and per-round counts every time."""
    runs = [enumerate_classes(NAM, 4, 3, 2, progress=False, jobs=j) for j in (1, 2, 3)]
    assert runs[0].kept_per_round[-2] > 64 * 8  # the last round expands many blocks
    for r in runs[1:]:
        assert r.classes == runs[0].classes
        assert r.kept_per_round == runs[0].kept_per_round
        assert r.considered_per_round == runs[0].considered_per_round


def test_last_round_skips_only_expansion_bookkeeping():
    """begin_round(last=True) gives the same classes as a round that could be followed, and
    no round may follow it."""
    import pytest

    from quartz import _core

    def run(mark_last: bool):
        gen = _core.Generator(list(NAM), 3, 2, True, 0, False, [])
        for k in (1, 2, 3):
            gen.begin_round(mark_last and k == 3)
            while gen.expand(4096, 2):
                pass
        return gen

    a, b = run(False), run(True)
    assert a.num_circuits == b.num_circuits and a.num_classes == b.num_classes
    ra, rb = a.results(), b.results()
    assert all((x == y).all() for x, y in zip(ra, rb))
    a.begin_round()  # an ordinary round may be followed
    with pytest.raises(RuntimeError, match="last round"):
        b.begin_round()
