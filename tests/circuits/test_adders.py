"""The adders add on every (clean-ancilla) basis state; vbe_adder_3 has the benchmark count."""
import itertools

import pytest

from _circuits_ref import BENCH, assert_maps, bits, file_gate_count
from quartz.circuits.adders import cuccaro_adder, vbe_adder
from quartz.errors import QuartzError


@pytest.mark.parametrize("n", [1, 2, 3])
def test_cuccaro_adds(n):
    c = cuccaro_adder(n)
    A = [1 + i for i in range(n)]
    B = [1 + n + i for i in range(n)]
    z = 2 * n + 1
    for cin, a, b, zin in itertools.product(range(2), range(1 << n), range(1 << n), range(2)):
        total = a + b + cin
        x = cin | bits(a, A) | bits(b, B) | (zin << z)
        y = cin | bits(a, A) | bits(total % (1 << n), B) | ((zin ^ (total >> n)) << z)
        assert_maps(c, x, y)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_vbe_adds(n):
    c = vbe_adder(n)
    A = [3 * i + 1 for i in range(n)]
    B = [3 * i + 2 for i in range(n)]
    top = 3 * n
    for cin, a, b, cn in itertools.product(range(2), range(1 << n), range(1 << n), range(2)):
        total = a + b + cin
        x = cin | bits(a, A) | bits(b, B) | (cn << top)
        y = cin | bits(a, A) | bits(total % (1 << n), B) | ((cn ^ (total >> n)) << top)
        assert_maps(c, x, y)


def test_vbe_adder_3_matches_the_benchmark_file():
    assert len(vbe_adder(3)) == file_gate_count(BENCH / "nam" / "vbe_adder_3.qasm") == 150
    import quartz

    assert vbe_adder(3, gate_set="ccz").count_ops() == \
        quartz.load(BENCH / "nam-ccz" / "vbe_adder_3.qasm").count_ops()


def test_bad_sizes():
    with pytest.raises(QuartzError, match="n >= 1"):
        cuccaro_adder(0)
    with pytest.raises(QuartzError, match="n >= 1"):
        vbe_adder(True)
