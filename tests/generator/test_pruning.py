"""The simplification passes on hand-made classes of light circuits."""
from __future__ import annotations

from quartz import Circuit
from quartz.generator import light
from quartz.generator.pruning import (common_subcircuit, drop_fresh_symbol_classes, drop_singletons,
                                      merge_permuted, remove_unused_qubits, remove_unused_symbols,
                                      simplify)

H, X, RZ, CX = 0, 1, 2, 3
P0, P1, P01, P00 = ((0, 1),), ((1, 1),), ((0, 1), (1, 1)), ((0, 2),)
NAM = ("h", "x", "rz", "cx")


def g(t, qs, ps=()):
    return (t, tuple(qs), tuple(ps))


def test_drop_singletons():
    cls = [(2, [(g(H, [0]),)]), (2, [(), (g(H, [0]), g(H, [0]))])]
    assert drop_singletons(cls) == cls[1:]


def test_remove_unused_qubits_renumbers_in_order():
    (nq, cs), = remove_unused_qubits([(3, [(g(H, [2]), g(H, [2])), ()])])
    assert nq == 1 and (g(H, [0]), g(H, [0])) in cs


def test_remove_unused_symbols_renumbers():
    (_, cs), = remove_unused_symbols([(1, [(g(RZ, [0], [P1]), g(H, [0])), (g(H, [0]), g(RZ, [0], [P1]))])])
    assert (g(RZ, [0], [P0]), g(H, [0])) in cs


def test_fresh_symbol_classes_are_dropped():
    only_sum = (1, [(g(H, [0]), g(RZ, [0], [P01])), (g(X, [0]), g(RZ, [0], [P01]))])
    mixed = (1, [(g(RZ, [0], [P01]),), (g(RZ, [0], [P0]), g(RZ, [0], [P1]))])
    doubled = (1, [(g(RZ, [0], [P00]), g(H, [0])), (g(H, [0]), g(RZ, [0], [P00]))])
    assert drop_fresh_symbol_classes([only_sum, mixed, doubled]) == [mixed]


def test_merge_permuted_merges_qubit_relabellings():
    c = (2, [(g(CX, [0, 1]), g(H, [1])), (g(H, [1]), g(CX, [0, 1]))])
    d = (2, [(g(CX, [1, 0]), g(H, [0])), (g(H, [0]), g(CX, [1, 0]))])
    out = merge_permuted([c, d])
    assert len(out) == 1 and len(out[0][1]) == 2
    e = (2, [(g(CX, [1, 0]), g(X, [1])), (g(X, [1]), g(CX, [1, 0]))])
    assert len(merge_permuted([c, e])) == 2


def test_merge_permuted_adds_members_of_relabelled_copies():
    a = (1, [(g(RZ, [0], [P0]), g(X, [0])), (g(X, [0]), g(RZ, [0], [((0, -1),)]))])
    b = (1, [(g(RZ, [0], [P1]), g(X, [0])), (g(X, [0]), g(RZ, [0], [((1, -1),)])),
             (g(H, [0]), g(H, [0]), g(RZ, [0], [P1]), g(X, [0]))])
    assert len(merge_permuted([a, b])) == 2  # symbols are renumbered by an earlier pass
    (nq, cs), = merge_permuted(remove_unused_symbols([a, b]))
    assert len(cs) == 3 and (g(H, [0]), g(H, [0]), g(RZ, [0], [P0]), g(X, [0])) in cs


def test_common_subcircuit_pruning():
    rep = (g(RZ, [0], [P01]),)
    other = (g(RZ, [0], [P0]), g(RZ, [0], [P1]))
    shares_last_with_rep = (g(X, [0]), g(X, [0]), g(RZ, [0], [P01]))
    shares_first_with_other = (g(RZ, [0], [P0]), g(H, [0]), g(H, [0]), g(RZ, [0], [P1]))
    (_, cs), = common_subcircuit([(1, [rep, other, shares_last_with_rep, shares_first_with_other])])
    assert cs == [rep, other]


def test_simplify_reaches_fixpoint_and_logs():
    cls = [(1, [(g(H, [0]),)]), (1, [(), (g(H, [0]), g(H, [0]))])]
    out, log = simplify(cls)
    assert out == [(1, [(), (g(H, [0]), g(H, [0]))])]
    assert log[0].name == "start" and log[-1].circuits == 2 and log[-1].transformations == 2


def test_light_canonical_matches_circuit_canonical():
    c = Circuit(3).h(2).cx(0, 1).x(2).rz(0.5, 0).cx(1, 2).h(0)
    lc = [(NAM.index(gt.name), tuple(gt.qubits), ()) for gt in c]
    can = light.canonical(lc)
    assert [(NAM[t], qs) for t, qs, _ in can] == [(gt.name, tuple(gt.qubits)) for gt in c.canonical()]


def test_light_round_trip_and_first_last_gates():
    lc = light.canonical([g(RZ, [1], [P01]), g(CX, [0, 1]), g(H, [0])])
    c = light.to_circuit(lc, 2, NAM)
    assert light.from_circuit(c, NAM) == lc
    assert light.first_gates(lc) == {g(RZ, [1], [P01])}
    assert light.last_gates(lc) == {g(H, [0])}
    assert light.qubits_used(lc) == {0, 1} and light.symbols_used(lc) == {0, 1}
    assert light.order_key(()) < light.order_key(lc)


def test_identity_class_splits_per_qubit_count():
    from quartz.generator.pruning import split_identity_classes
    cls = [(3, [(), (g(H, [2]), g(H, [2])), (g(H, [0]), g(H, [0])), (g(CX, [1, 2]), g(CX, [1, 2]))])]
    assert len(split_identity_classes(cls)) == 3
    out, _ = simplify(cls)
    assert sorted((nq, len(cs)) for nq, cs in out) == [(1, 2), (2, 2)]
