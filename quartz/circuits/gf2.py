"""GF(2^n) multipliers (Maslov et al.'s construction, as in the gf2^n_mult benchmark files).

Layout, 3n qubits: a_i = q[i], b_i = q[n+i], c_i = q[2n+i] (coefficient of x^i). With c in |0>:
|a, b, 0> -> |a, b, a*b mod P>, where P = irreducible(n) is the lowest-weight irreducible
polynomial of degree n with the smallest middle exponents (x^4+x+1 for n = 4). The high
products (degree >= n) are added to c first, multiplied by x^n mod P with CX gates (one
relabelled shift per step, so no swaps), then the low products are added. n^2 Toffolis.

>>> from quartz.circuits.gf2 import gf2_mult, irreducible
>>> bin(irreducible(4)), gf2_mult(4, gate_set="ccz").count_ops()
('0b10011', {'ccz': 16, 'h': 14, 'cx': 3})
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from quartz import Circuit
from quartz.errors import QuartzError

from quartz.circuits._build import Builder


def _mulmod(x: int, y: int, f: int) -> int:
    """x*y mod f over GF(2), polynomials as int bit masks."""
    deg = f.bit_length() - 1
    r = 0
    while y:
        if y & 1:
            r ^= x
        y >>= 1
        x <<= 1
        if (x >> deg) & 1:
            x ^= f
    return r


def _gcd(x: int, y: int) -> int:
    while y:
        while x and x.bit_length() >= y.bit_length():
            x ^= y << (x.bit_length() - y.bit_length())
        x, y = y, x
    return x


def is_irreducible(f: int) -> bool:
    """Ben-Or's test: f has no factor of degree <= deg/2 over GF(2)."""
    n = f.bit_length() - 1
    if n < 1:
        return False
    xp = 2  # x^(2^i) mod f
    for _ in range(n // 2):
        xp = _mulmod(xp, xp, f)
        if _gcd(f, xp ^ 2) != 1:
            return False
    return True


@lru_cache(maxsize=None)
def irreducible(n: int) -> int:
    """The irreducible degree-n polynomial used by gf2_mult (trinomial, else pentanomial)."""
    if n == 1:
        return 0b11  # x + 1
    for count in (1, 3):  # middle terms: trinomials, then pentanomials
        for mid in combinations(range(1, n), count):
            f = (1 << n) | 1
            for e in mid:
                f |= 1 << e
            if is_irreducible(f):
                return f
    raise QuartzError(f"no irreducible polynomial of degree {n} found")  # pragma: no cover


def gf2_multiply(x: int, y: int, n: int) -> int:
    """x*y in GF(2^n) with the modulus irreducible(n) (the classical reference)."""
    return _mulmod(x, y, irreducible(n))


def gf2_mult(n: int, gate_set: str = "nam") -> Circuit:
    """c = a*b in GF(2^n) on 3n qubits (c must start in |0>)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuartzError(f"gf2_mult needs an integer n >= 1, got {n!r}")
    f = irreducible(n)
    middle = [e for e in range(1, n) if (f >> e) & 1]
    b = Builder(3 * n)
    A = list(range(n))
    B = list(range(n, 2 * n))
    C = list(range(2 * n, 3 * n))

    def products(k: int, target: int) -> None:
        for i in range(min(k, n - 1), max(0, k - n + 1) - 1, -1):
            b.ccx(A[i], B[k - i], target)

    for k in range(n, 2 * n - 1):  # degree-k terms into c_{k-n}
        products(k, C[k - n])
    # Multiply c by x^n mod f: n steps of "multiply by x"; after s steps, physical c_p holds
    # coefficient (p + s) mod n. The top coefficient moves to the constant term by relabelling
    # and is added to every middle term; in step 0 the top coefficient is still 0.
    for s in range(1, n):
        top = (n - 1 - s) % n
        for e in middle:
            b.cx(C[top], C[(e - s - 1) % n])
    for k in reversed(range(n)):
        products(k, C[k])
    return b.finish(gate_set, name=f"gf2^{n}_mult")
