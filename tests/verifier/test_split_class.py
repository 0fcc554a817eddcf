"""split_class: a bucket of circuits grouped into proven classes with phases."""
from fractions import Fraction

import numpy as np
import pytest

from quartz import Circuit, Param, QuartzError
from quartz.ecc_sets import ECC, Phase
from quartz.verifier import split_class
from quartz.verifier.classes import ClassSplitter

A = Param.symbol(0)


def test_split_groups_equal_circuits_and_keeps_order():
    c0 = Circuit(1).rz(A, 0)
    c1 = Circuit(1).x(0)  # different
    c2 = Circuit(1).u1(A, 0)  # = e^{i a/2} c0
    c3 = Circuit(1).h(0).z(0).h(0)  # = c1
    c4 = Circuit(1).h(0).rz(A, 0).h(0)  # alone
    classes = split_class([c0, c1, c2, c3, c4])
    assert all(isinstance(e, ECC) and e.proven for e in classes)
    assert [len(e.circuits) for e in classes] == [2, 2, 1]
    assert classes[0].circuits[0] == c0 and classes[0].circuits[1] == c2
    assert classes[0].phases == [Phase(), Phase.make(0, {0: Fraction(1, 2)})]
    assert classes[1].circuits == [c1, c3]
    assert classes[2].circuits == [c4]
    # phases are relative to the representative: check numerically
    for e in classes:
        for c, ph in zip(e.circuits, e.phases):
            vals = [0.77]
            assert np.allclose(c.unitary(vals), np.exp(1j * ph.value(vals)) * e.circuits[0].unitary(vals))


def test_partition_is_split_as_plain_data():
    """What a worker sends back: member indices and phases, the same classes as split()."""
    cs = [Circuit(1).rz(A, 0), Circuit(1).x(0), Circuit(1).u1(A, 0), Circuit(1).h(0).z(0).h(0)]
    part = ClassSplitter(cs).partition()
    assert part == [([0, 2], [Phase(), Phase.make(0, {0: Fraction(1, 2)})]), ([1, 3], [Phase(), Phase()])]
    assert [[cs[i] for i in m] for m, _ in part] == [e.circuits for e in split_class(cs)]


def test_split_empty_and_single():
    assert split_class([]) == []
    (e,) = split_class([Circuit(2).cx(0, 1)])
    assert e.circuits == [Circuit(2).cx(0, 1)] and e.phases == [Phase()]


def test_split_rejects_non_circuits():
    with pytest.raises(QuartzError, match="item 1"):
        split_class([Circuit(1), 3])
