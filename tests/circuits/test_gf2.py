"""gf2_mult(n) computes field products on basis states; its moduli are irreducible."""
import itertools

import pytest

from _circuits_ref import BENCH, assert_maps, bits, file_gate_count
from quartz.circuits.gf2 import gf2_mult, gf2_multiply, irreducible, is_irreducible
from quartz.errors import QuartzError


def _has_factor(f: int) -> bool:
    """Trial division by every polynomial of degree 1..deg-1."""
    def mod(a, b):
        while a and a.bit_length() >= b.bit_length():
            a ^= b << (a.bit_length() - b.bit_length())
        return a
    return any(mod(f, g) == 0 for g in range(2, 1 << (f.bit_length() - 1)))


@pytest.mark.parametrize("n", range(2, 12))
def test_moduli_are_irreducible(n):
    f = irreducible(n)
    assert f.bit_length() == n + 1 and is_irreducible(f) and not _has_factor(f)


def test_irreducibility_test_rejects_products():
    assert not is_irreducible(0b101)  # x^2 + 1 = (x + 1)^2
    assert not is_irreducible(0b10101)  # x^4 + x^2 + 1 = (x^2 + x + 1)^2
    assert irreducible(4) == 0b10011 and irreducible(8) == 0b110000111


def test_field_multiplication_is_a_field():
    n = 4
    for a in range(1, 1 << n):  # every nonzero element has an inverse
        assert any(gf2_multiply(a, b, n) == 1 for b in range(1, 1 << n))
    assert gf2_multiply(0b10, 0b1000, 4) == 0b0011  # x * x^3 = x^4 = x + 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_gf2_mult_multiplies(n):
    c = gf2_mult(n)
    A, B, C = list(range(n)), list(range(n, 2 * n)), list(range(2 * n, 3 * n))
    for a, b in itertools.product(range(1 << n), repeat=2):
        x = bits(a, A) | bits(b, B)
        assert_maps(c, x, x | bits(gf2_multiply(a, b, n), C))


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 16])
def test_counts_match_the_benchmark_files(n):
    assert len(gf2_mult(n)) == file_gate_count(BENCH / "nam" / f"gf2^{n}_mult.qasm")


def test_name_and_errors():
    assert gf2_mult(4).name == "gf2^4_mult"
    with pytest.raises(QuartzError, match="n >= 1"):
        gf2_mult(0)
