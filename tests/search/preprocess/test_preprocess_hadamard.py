"""Hadamard-conjugated cx networks written with their cx gates reversed."""
import random

import pytest

from quartz import Circuit, QuartzError, load
from quartz.search.preprocess import preprocess, reverse_hadamard_networks

from pp_helpers import BENCH, assert_same_unitary, random_circuit


def test_one_cx_between_hadamards_is_reversed():
    c = Circuit(2).h(0).h(1).cx(0, 1).h(0).h(1)
    r = reverse_hadamard_networks(c)
    assert [(g.name, list(g.qubits)) for g in r] == [("cx", [1, 0])]
    assert_same_unitary(c, r)


def test_a_network_with_h_on_one_side_of_a_wire_moves_that_h():
    # q2 has h only after the network: H^{0,1} L H^{0,1,2} = H^{2} rev(L); 5 h gates become 1.
    c = Circuit(3).h(0).h(1).cx(0, 2).cx(1, 0).cx(1, 2).h(0).h(1).h(2)
    r = reverse_hadamard_networks(c)
    assert r.count_ops() == {"h": 1, "cx": 3}
    assert next(iter(r)).name == "h"
    assert_same_unitary(c, r)


def test_unprofitable_networks_are_left_alone():
    # H on one end of each of two wires: |A| + |B| = 2 = |P|, nothing to gain.
    c = Circuit(2).h(0).cx(0, 1).h(1)
    assert reverse_hadamard_networks(c) == c
    # An rz on a wire ends the run there: no network has more H ends than wires.
    c = Circuit(2).h(0).h(1).cx(0, 1).rz(0.3, 1).cx(0, 1).h(0).h(1)
    assert reverse_hadamard_networks(c) == c


def test_non_convex_networks_are_left_alone():
    # Wires 0-2 with h on five of the six ends would gain, but the path h(0) -> cx(0, 2) ->
    # rz(2) -> cx(2, 1) leaves the network and comes back: rewriting it would be wrong.
    c = Circuit(3).h(0).h(1).cx(0, 1).h(0).cx(0, 2).rz(0.5, 2).cx(2, 1).h(1).h(2)
    r = reverse_hadamard_networks(c)
    assert r == c
    assert_same_unitary(c, r)


@pytest.mark.parametrize("seed", range(150))
def test_random_circuits_keep_the_unitary(seed):
    rng = random.Random(7100 + seed)
    gates = ("h", "h", "cx", "cx", "cx", "rz") if seed % 3 else ("h", "cx", "x", "rz", "t", "cz")
    c = random_circuit(rng, rng.randint(2, 6), rng.randint(1, 70), gates)
    r = reverse_hadamard_networks(c)
    assert len(r) <= len(c)
    assert r.count_ops().get("cx", 0) == c.count_ops().get("cx", 0)
    assert_same_unitary(c, r)


def test_random_circuits_find_networks():
    # Circuits made of h layers around cx networks: the pass must take most of their h gates.
    rng = random.Random(5)
    saved = 0
    for _ in range(30):
        n = rng.randint(2, 5)
        c = Circuit(n)
        for q in range(n):
            c.h(q)
        for _ in range(rng.randint(1, 8)):
            a, b = rng.sample(range(n), 2)
            c.cx(a, b)
        for q in range(n):
            c.h(q)
        r = reverse_hadamard_networks(c)
        assert_same_unitary(c, r)
        saved += len(c) - len(r)
    assert saved >= 30 * 2 * 2  # every circuit loses at least its four h gates of two wires


def test_the_gf2_multiplier_loses_its_output_register_hadamards():
    # gf2^4_mult: the preprocessing used to end at 183 gates; the reversed network of the
    # output register's middle h layers takes 6 more.
    c = load(str(BENCH / "nam" / "gf2^4_mult.qasm"))
    pre = preprocess(c, "nam")
    assert len(pre) <= 177
    assert reverse_hadamard_networks(pre) == pre  # the pipeline already applied it
    from quartz.check import check_equivalence

    assert check_equivalence(c, pre).verdict == "equivalent"


def test_rejects_non_circuits():
    with pytest.raises(QuartzError, match="reverse_hadamard_networks expects a quartz.Circuit"):
        reverse_hadamard_networks("h q[0];")


@pytest.mark.parametrize("seed", range(40))
def test_layered_circuits_keep_the_unitary(seed):
    # h layers on random subsets, cx networks and a few rotations, on up to 8 qubits: many
    # overlapping networks, some convex, some not, some sharing an h between two runs.
    rng = random.Random(9100 + seed)
    n = rng.randint(3, 8)
    c = Circuit(n)
    for _ in range(rng.randint(2, 7)):
        for q in rng.sample(range(n), rng.randint(1, n)):
            c.h(q)
        for _ in range(rng.randint(1, 2 * n)):
            a, b = rng.sample(range(n), 2)
            c.cx(a, b)
        if rng.random() < 0.5:
            c.rz(0.25 * rng.randint(1, 7), rng.randrange(n))
    r = reverse_hadamard_networks(c)
    assert len(r) <= len(c) and r.cx_count == c.cx_count
    assert_same_unitary(c, r)
    assert reverse_hadamard_networks(r) == r  # a fixpoint
