"""Exact Laurent polynomials in z_j = e^{i theta_j / 2} over the cyclotomic integers Z[zeta_N].

Each symbol theta_j is encoded by (c_j, s_j) = (cos theta_j/2, sin theta_j/2) with c^2 + s^2 = 1.
Over C the ring R[c, s]/(c^2 + s^2 - 1) is exactly C[z, 1/z] with z = c + i s (c = (z + 1/z)/2,
s = (z - 1/z)/2i), so Laurent polynomials in z_j are a unique normal form of the (cos, sin)
encoding reduced mod s^2 = 1 - c^2. Coefficients live in Z[zeta_N] (zeta_N = e^{2 pi i/N}), written
in the basis zeta^0..zeta^(phi(N)-1), so every element has exactly one representation.

A polynomial is a dict {packed key: int}. A key packs the zeta exponent (low 16 bits) and each
variable's exponent (16-bit fields, bias 2^15), so multiplying monomials is one integer addition.
"""
from __future__ import annotations

import cmath
import math
from functools import lru_cache

ZETA_BITS = 16
ZETA_MASK = (1 << ZETA_BITS) - 1
FIELD_BITS = 16
BIAS = 1 << (FIELD_BITS - 1)
FIELD_MASK = (1 << FIELD_BITS) - 1
MAX_N = 4096  # largest cyclotomic order the exact path accepts
MAX_PHI = 512

Poly = dict  # {key: int}


class Unsupported(Exception):
    """Raised when the exact path cannot express a circuit (the caller falls back)."""


@lru_cache(maxsize=None)
def cyclotomic(n: int) -> tuple[int, ...]:
    """Integer coefficients (constant term first) of the n-th cyclotomic polynomial."""
    num = [-1] + [0] * (n - 1) + [1]  # x^n - 1
    for d in range(1, n):
        if n % d == 0:
            num = _divide(num, list(cyclotomic(d)))
    return tuple(num)


def _divide(num: list[int], den: list[int]) -> list[int]:
    num = num[:]
    q = [0] * (len(num) - len(den) + 1)
    for i in range(len(q) - 1, -1, -1):
        c = num[i + len(den) - 1] // den[-1]
        q[i] = c
        for j, dj in enumerate(den):
            num[i + j] -= c * dj
    assert not any(num), "cyclotomic division left a remainder"
    return q


class Ring:
    """Z[zeta_N][z_0^{+-1}, ..., z_{v-1}^{+-1}]: packed-key arithmetic for one comparison context."""

    def __init__(self, n: int, nvars: int):
        if n % 16 or n > MAX_N:
            raise Unsupported(f"cyclotomic order {n} is not supported")
        self.N = n
        self.nvars = nvars
        phi_poly = cyclotomic(n)
        self.phi = len(phi_poly) - 1
        if self.phi > MAX_PHI:
            raise Unsupported(f"cyclotomic field of degree {self.phi} is too large")
        self.bias_all = sum(BIAS << (ZETA_BITS + FIELD_BITS * j) for j in range(nvars))
        self.one = self.bias_all
        # red[t]: zeta^t (0 <= t < 2N) in the basis, as [(t', coef)].
        self.red: list[list[tuple[int, int]]] = []
        vec = [1] + [0] * (self.phi - 1)
        for _t in range(2 * n):
            self.red.append([(i, c) for i, c in enumerate(vec) if c])
            top = vec[-1]
            vec = [0] + vec[:-1]
            if top:
                for i in range(self.phi):
                    vec[i] -= top * phi_poly[i]
        self.zeta_values = [cmath.exp(2j * math.pi * t / n) for t in range(n)]

    # --- construction --------------------------------------------------------------------
    def monomial(self, t: int, exps: dict[int, int] | None = None) -> Poly:
        """zeta^t * prod z_j^exps[j] as a polynomial (zeta^t expanded in the basis)."""
        key = self.one
        for j, e in (exps or {}).items():
            if e:
                if not -BIAS < e < BIAS:
                    raise Unsupported("exponent out of range")
                key += e << (ZETA_BITS + FIELD_BITS * j)
        return {key + t2: c for t2, c in self.red[t % self.N]}

    def const(self, c: int) -> Poly:
        """The integer constant c."""
        return {self.one: c} if c else {}

    def zeta(self, t: int) -> Poly:
        """zeta_N^t."""
        return self.monomial(t)

    # --- arithmetic -----------------------------------------------------------------------
    def mul(self, p: Poly, q: Poly) -> Poly:
        """Product of two polynomials, reduced."""
        if len(p) > len(q):
            p, q = q, p
        out: Poly = {}
        get = out.get
        b = self.bias_all
        phi = self.phi
        red = self.red
        for k1, a in p.items():
            k1b = k1 - b
            for k2, c in q.items():
                k = k1b + k2
                t = k & ZETA_MASK
                if t < phi:
                    out[k] = get(k, 0) + a * c
                else:
                    k -= t
                    ac = a * c
                    for t2, r in red[t]:
                        kk = k + t2
                        out[kk] = get(kk, 0) + ac * r
        return {k: v for k, v in out.items() if v}

    def add_into(self, acc: Poly, p: Poly, scale: int = 1) -> None:
        """acc += scale * p (in place; zero terms removed)."""
        get = acc.get
        for k, v in p.items():
            nv = get(k, 0) + scale * v
            if nv:
                acc[k] = nv
            else:
                del acc[k]

    def add(self, *ps: Poly) -> Poly:
        """Sum of polynomials."""
        out: Poly = {}
        for p in ps:
            self.add_into(out, p)
        return out

    def neg(self, p: Poly) -> Poly:
        """Negation."""
        return {k: -v for k, v in p.items()}

    def scale(self, p: Poly, c: int) -> Poly:
        """c * p for an integer c."""
        return {k: v * c for k, v in p.items()} if c else {}

    # --- inspection -------------------------------------------------------------------------
    def leading(self, p: Poly) -> tuple[int, Poly]:
        """(packed z-monomial of the lex-largest term, its Z[zeta] coefficient as {t: c})."""
        top = max(k >> ZETA_BITS for k in p)
        return top, {k & ZETA_MASK: v for k, v in p.items() if k >> ZETA_BITS == top}

    def zeta_value(self, coef: dict[int, int]) -> complex:
        """Numeric value of an element of Z[zeta_N] given as {t: c}."""
        return sum(c * self.zeta_values[t] for t, c in coef.items())

    def exponents(self, zkey: int) -> list[int]:
        """Variable exponents of a packed z-monomial (key >> ZETA_BITS)."""
        return [((zkey >> (FIELD_BITS * j)) & FIELD_MASK) - BIAS for j in range(self.nvars)]

    def evaluate(self, p: Poly, zs: list[complex]) -> complex:
        """Numeric value of p at z_j = zs[j]."""
        total = 0j
        for k, v in p.items():
            val = v * self.zeta_values[k & ZETA_MASK]
            zk = k >> ZETA_BITS
            for j in range(self.nvars):
                e = ((zk >> (FIELD_BITS * j)) & FIELD_MASK) - BIAS
                if e:
                    val *= zs[j] ** e
            total += val
        return total


@lru_cache(maxsize=64)
def ring_for(n: int, nvars: int) -> Ring:
    """A shared Ring(n, nvars) (rings are immutable after construction)."""
    return Ring(n, nvars)
