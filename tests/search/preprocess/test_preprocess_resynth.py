"""Shortest-cx resynthesis of small {cx, x, rotation} blocks."""
import random

import pytest

from quartz import Circuit, Param, QuartzError
from quartz.search.preprocess import resynthesize_blocks

from pp_helpers import assert_same_unitary, random_circuit


def test_cx_pairs_and_cycles_shrink():
    c = Circuit(3).cx(0, 1).cx(1, 2).cx(0, 1).cx(1, 2)  # = cx(0, 2)
    r = resynthesize_blocks(c)
    assert r.count_ops() == {"cx": 1}
    assert_same_unitary(c, r)


def test_toffoli_ladder_with_cancelled_terms_gets_shorter():
    # The Nam CCZ ladder with the a^c and a terms gone needs only 4 cx (on wire b), not 6.
    q = Param.pi(1, 4)
    c = (Circuit(3).cx(1, 2).rz(-q, 2).cx(0, 2).rz(q, 2).cx(1, 2).cx(0, 2).cx(0, 1)
         .rz(q, 2).rz(-q, 1).cx(0, 1).rz(q, 1))
    r = resynthesize_blocks(c)
    assert r.cx_count == 4 and r.count_ops()["rz"] == 5
    assert_same_unitary(c, r)


def test_negations_move_to_the_end_with_the_right_signs():
    c = Circuit(2).x(0).cx(0, 1).rz(0.3, 1).cx(0, 1).x(0).cx(0, 1).cx(0, 1)
    r = resynthesize_blocks(c)
    assert len(r) < len(c)
    assert_same_unitary(c, r)


def test_blocks_stop_at_other_gates():
    c = Circuit(2).cx(0, 1).h(1).cx(0, 1)
    assert resynthesize_blocks(c) == c


@pytest.mark.parametrize("seed", range(120))
def test_random_circuits_keep_the_unitary(seed):
    rng = random.Random(3000 + seed)
    gates = ("cx", "cx", "x", "rz", "h") if seed % 2 else ("h", "x", "rz", "cx", "t", "s", "swap",
                                                           "cz", "ccz", "p")
    c = random_circuit(rng, rng.randint(2, 6), rng.randint(1, 60), gates)
    for style in ("rz", "p", "t"):
        r = resynthesize_blocks(c, style)
        if style == "rz":
            assert len(r) <= len(c)
        assert_same_unitary(c, r)


def test_errors():
    with pytest.raises(QuartzError, match="quartz.Circuit"):
        resynthesize_blocks([])
    with pytest.raises(QuartzError, match="style"):
        resynthesize_blocks(Circuit(1), "q")


def _fewest_cx(target: tuple, need: frozenset) -> int:
    """Breadth-first search (independent of the library's A*): the fewest cx on 4 wires that
    end at the linear map `target` and show every parity of `need` on some wire."""
    from collections import deque

    start = ((1, 2, 4, 8), frozenset())
    dist = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if s == (target, need):
            return dist[s]
        for i in range(4):
            for j in range(4):
                if i != j:
                    r = list(s[0])
                    r[j] ^= r[i]
                    t = (tuple(r), s[1] | ({r[j]} & need))
                    if t not in dist:
                        dist[t] = dist[s] + 1
                        todo.append(t)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", range(4))
def test_four_qubit_blocks_reach_the_fewest_cx(seed):
    # One block: the first cx gates join all four wires, so the block holds the whole circuit.
    rng = random.Random(50 + seed)
    c, rows, need = Circuit(4).cx(0, 1).cx(1, 2).cx(2, 3), [1, 3, 7, 15], set()
    while len(need) < 2 or c.cx_count < 9:
        if rng.random() < 0.8 or len(need) >= 2:
            a, b = rng.sample(range(4), 2)
            c.cx(a, b)
            rows[b] ^= rows[a]
        elif bin(rows[q := rng.randrange(4)]).count("1") > 1 and rows[q] not in need:
            c.rz(0.1 + len(need), q)  # distinct generic angles: nothing cancels
            need.add(rows[q])
    best = _fewest_cx(tuple(rows), frozenset(need))
    r = resynthesize_blocks(c, max_qubits=4)
    assert_same_unitary(c, r)
    assert r.cx_count == (best if best + len(need) < len(c) else c.cx_count)
    assert r.cx_count <= resynthesize_blocks(c).cx_count


def test_four_qubit_blocks_shorten_a_pair_of_toffolis_sharing_a_target():
    # vbe_adder's pattern: ccz(1,2,3) cx(1,2) ccz(0,2,3); decomposed with one polarity the
    # x1^x2 and x1^x2^x3 terms cancel, and the 4-qubit block needs fewer cx than the ladders.
    from quartz.search.preprocess import decompose_ccz_greedy, rotation_merge

    c = rotation_merge(decompose_ccz_greedy(Circuit(4).ccz(1, 2, 3).cx(1, 2).ccz(0, 2, 3), "rz"),
                       "rz")
    three, four = resynthesize_blocks(c), resynthesize_blocks(c, max_qubits=4)
    assert four.cx_count < three.cx_count <= c.cx_count
    assert_same_unitary(c, four)


@pytest.mark.parametrize("seed", range(60))
def test_four_qubit_blocks_keep_the_unitary(seed):
    rng = random.Random(7000 + seed)
    c = random_circuit(rng, rng.randint(4, 6), rng.randint(10, 60),
                       ("cx", "cx", "cx", "x", "rz", "h") if seed % 3 else ("cx", "cx", "rz"))
    for style in ("rz", "t"):
        r = resynthesize_blocks(c, style, max_qubits=4)
        if style == "rz":
            assert len(r) <= len(c)
        assert_same_unitary(c, r)


def test_max_qubits_must_be_2_to_4():
    for bad in (1, 5, True, "4", 4.0):
        with pytest.raises(ValueError, match=f"max_qubits must be 2, 3 or 4, got {bad!r}"):
            resynthesize_blocks(Circuit(2), max_qubits=bad)
