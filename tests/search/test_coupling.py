"""A coupling map kept by the search (quartz.search.coupling, SearchOptions::allowed): no
move, polish or resynthesis places a two-qubit gate off the map, in either algorithm."""
from __future__ import annotations

import random

import numpy as np

import pytest

import quartz
from quartz import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import get_gate_set
from quartz.pipeline.matchers import get_matcher
from quartz.search import search
from quartz.search.coupling import check_coupling, coupling_pairs, off_coupling
from search_rules import same_unitary

LINE = [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]  # 0 - 1 - 2 - 3, both directions


def on_line(n: int, gates: int, seed: int) -> Circuit:
    """A random Nam circuit whose cx gates are all on LINE's edges, with redundancy to find."""
    rng = random.Random(seed)
    c = Circuit(n)
    for _ in range(gates):
        r = rng.random()
        if r < 0.2:
            c.h(rng.randrange(n))
        elif r < 0.3:
            c.x(rng.randrange(n))
        elif r < 0.55:
            c.rz(quartz.Param.pi(rng.choice([1, 2, 3, -1]), 4), rng.randrange(n))
        else:
            a = rng.randrange(n - 1)
            c.cx(*((a, a + 1) if rng.random() < 0.5 else (a + 1, a)))
    return c


@pytest.mark.parametrize("algorithm", ["anneal", "best_first"])
def test_search_keeps_every_two_qubit_gate_on_the_map(algorithm):
    m = get_matcher(None, get_gate_set("nam"))
    for seed in range(3):
        c = on_line(4, 60, seed)
        free = search(c, m, timeout=1, seed=seed, progress=False, threads=1, algorithm=algorithm,
                      polish="rz")
        kept = search(c, m, timeout=1, seed=seed, progress=False, threads=1, algorithm=algorithm,
                      polish="rz", coupling=LINE)
        assert off_coupling(kept.circuit, LINE) is None
        assert same_unitary(kept.circuit, c) and len(kept.circuit) < len(c)
        assert len(free.circuit) <= len(c)


def test_a_directed_map_keeps_cx_in_its_direction():
    # h h cx(0,1) h h = cx(1,0): the polish reverses Hadamard-conjugated cx networks, which
    # a map with (0, 1) only must not allow.
    c = Circuit(2).h(0).h(1).cx(0, 1).h(0).h(1).rz(quartz.Param.pi(1, 4), 0)
    m = get_matcher(None, get_gate_set("nam"))
    free = search(c, m, timeout=1, seed=0, progress=False, threads=1, polish="rz")
    assert [(g.name, tuple(g.qubits)) for g in free.circuit if g.name == "cx"] == [("cx", (1, 0))]
    kept = search(c, m, timeout=1, seed=0, progress=False, threads=1, polish="rz",
                  coupling=[(0, 1)])
    assert all(tuple(g.qubits) == (0, 1) for g in kept.circuit if g.name == "cx")
    assert same_unitary(kept.circuit, c)


def test_symmetric_gates_may_use_either_order():
    assert off_coupling(Circuit(2).cz(1, 0), [(0, 1)]) is None
    assert off_coupling(Circuit(2).cx(1, 0), [(0, 1)]) == "cx on qubits (1, 0)"
    assert off_coupling(Circuit(3).ccx(0, 1, 2), LINE) == "ccx on qubits (0, 1, 2)"


def test_bad_couplings_are_refused_with_one_line():
    with pytest.raises(QuartzError, match=r"the circuit has cx on qubits \(0, 2\), which the "
                                          "coupling map does not allow"):
        check_coupling(Circuit(3).cx(0, 2), LINE)
    assert check_coupling(Circuit(2).cx(0, 1), LINE) == [(0, 1), (1, 0)]  # the rest: not here
    with pytest.raises(QuartzError, match="two different qubits"):
        coupling_pairs([(1, 1)])
    with pytest.raises(QuartzError, match="a list of qubit pairs"):
        coupling_pairs([3])
    assert coupling_pairs([[1, 0], (0, 1), (1, 0)]) == ((0, 1), (1, 0))


def test_optimize_takes_a_qiskit_coupling_map_and_refuses_what_cannot_keep_it():
    from qiskit.transpiler import CouplingMap

    c = Circuit(3).cx(0, 1).cx(1, 2).cx(0, 1).cx(1, 2).h(0).h(0)  # = cx(0, 2) off the line
    report: dict = {}
    out = quartz.optimize(c, timeout=2, seed=0, coupling_map=CouplingMap.from_line(3),
                          report=report)
    assert [g.name for g in out] == ["cx"] * 4 and off_coupling(out, LINE) is None
    assert report["check"]["ok"] and same_unitary(out, c)
    assert [g.name for g in quartz.optimize(c, timeout=2, seed=0)] == ["cx"]  # without a map
    with pytest.raises(QuartzError, match="does not allow"):
        quartz.optimize(Circuit(3).cx(0, 2), coupling_map=CouplingMap.from_line(3))
    with pytest.raises(QuartzError, match="a coupling map needs method='search'"):
        quartz.optimize(c, method="rl", coupling_map=LINE)
    with pytest.raises(QuartzError, match="does not keep to a coupling map"):
        quartz.optimize(c, workers=2, coupling_map=LINE)


def test_module_doctest():
    import doctest

    import quartz.search.coupling as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted == 3


def test_block_resynthesis_keeps_to_the_map():
    # exact=False resynthesizes two-qubit blocks with Qiskit's decomposer, which writes its cx
    # in its own direction; on a directed map that result is not taken (it made the next
    # search refuse its input: "the circuit has cx on qubits (1, 2) ..." for seeds 1 and 2).
    from quartz.gatesets import convert

    pairs = [(0, 1), (2, 1)]
    for seed in (1, 2):
        rng = random.Random(seed)
        c = Circuit(3)
        for _ in range(40):
            r = rng.random()
            if r < 0.4:
                c.rz(rng.uniform(-3, 3), rng.randrange(3))
            elif r < 0.7:
                c.h(rng.randrange(3))
            else:
                c.cx(*rng.choice(pairs))
        c = convert(c, "ibm_modern")
        report: dict = {}
        out = quartz.optimize(c, "ibm_modern", timeout=3, seed=0, exact=False,
                              coupling_map=pairs, report=report)
        assert off_coupling(out, pairs) is None and len(out) < len(c)
        assert report["check"]["ok"]
        assert np.allclose(out.unitary(), c.unitary(), atol=1e-7)
