"""Exact fast path: circuits as matrices of Laurent polynomials, equality up to a global phase.

U = M / sqrt(2)^e with M a matrix over Ring (see ring.py). Two circuits are equal up to a global
phase iff M_b * sqrt2^{e_a} == phase * M_a * sqrt2^{e_b}. Because det U is a unit, any such phase
is a monomial zeta^t * prod z_j^{k_j}; its exponents are read off the lex-leading terms of one
entry, so the check is a complete decision procedure (proven or refuted), no phase search needed.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Sequence

from quartz.circuit import Circuit
from quartz.ecc_sets.model import Phase
from quartz.verifier.ring import ZETA_BITS, Poly, Ring, Unsupported, ring_for


class Context:
    """The ring shared by a group of circuits: cyclotomic order and variables (symbols + floats)."""

    def __init__(self, circuits: Sequence[Circuit]):
        n = 16
        nsym = 0
        floats: dict[float, int] = {}
        for c in circuits:
            nsym = max(nsym, c.num_symbols)
            for p in _params(c):
                frac = p.pi_fraction
                if frac is None:
                    floats.setdefault(abs(p.constant_radians()), -1)
                else:
                    n = _lcm(n, 4 * frac[1])
        if n > 4096:
            raise Unsupported(f"angle denominators need a cyclotomic order {n}")
        self.num_symbols = nsym
        # Each distinct float constant becomes a fresh variable: an identity that holds for
        # every value of it holds for the given one (sound, possibly incomplete).
        self.float_vars = {x: nsym + i for i, x in enumerate(sorted(floats))}
        self.ring = ring_for(n, nsym + len(self.float_vars))
        self.gate_cache: dict = {}
        self.one_tag, self.mone_tag = self.ring.const(1), self.ring.const(-1)
        # Only qubits some circuit acts on matter: U (x) I equality = U equality, same phase.
        used = sorted({q for c in circuits for g in c for q in g.qubits})
        self.qubit_map = {q: i for i, q in enumerate(used)}
        self.qubits = len(used)
        if self.qubits > 10:
            raise Unsupported("more than 10 qubits")
        self._offs: dict[tuple[int, ...], tuple] = {}

    def half_exp(self, p) -> Poly:
        """e^{i p/2} for a Param p."""
        r = self.ring
        exps: dict[int, int] = {}
        for s, k in p.terms:
            exps[s] = exps.get(s, 0) + k
        frac = p.pi_fraction
        if frac is None:
            t = 0
            x = p.constant_radians()
            if x:
                v = self.float_vars[abs(x)]
                exps[v] = exps.get(v, 0) + (1 if x > 0 else -1)
        else:
            num, den = frac
            t = num * r.N // (4 * den)
        return r.monomial(t, exps)


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


def _params(c: Circuit):
    for g in c:
        yield from g.params
    yield c.global_phase


def gate_matrix(ctx: Context, name: str, params) -> tuple[list[list[Poly]], int]:
    """(M, e) with the gate's unitary = M / sqrt2^e, entries in ctx.ring."""
    r = ctx.ring
    N = r.N
    one, zero = r.const(1), {}
    mone = r.const(-1)
    i_, mi = r.zeta(N // 4), r.zeta(3 * N // 4)
    sqrt2 = r.add(r.zeta(N // 8), r.zeta(7 * N // 8))

    def diag(*d):
        k = len(d)
        return [[d[a] if a == b else zero for b in range(k)] for a in range(k)]

    def controlled(u, e):
        # control = local qubit 0 (bit 0), target = local qubit 1 (bit 1); rows/cols 1,3.
        c = sqrt2 if e == 1 else r.const(2 ** (e // 2)) if e % 2 == 0 else None
        m = diag(c, c, c, c)
        m[1][1], m[1][3], m[3][1], m[3][3] = u[0][0], u[0][1], u[1][0], u[1][1]
        m[0][0] = m[2][2] = c
        return m

    if name == "h":
        return [[one, one], [one, mone]], 1
    if name == "x":
        return [[zero, one], [one, zero]], 0
    if name == "y":
        return [[zero, mi], [i_, zero]], 0
    if name == "z":
        return diag(one, mone), 0
    if name == "s":
        return diag(one, i_), 0
    if name == "sdg":
        return diag(one, mi), 0
    if name == "t":
        return diag(one, r.zeta(N // 8)), 0
    if name == "tdg":
        return diag(one, r.zeta(7 * N // 8)), 0
    if name in ("sx", "sxdg"):
        a, b = r.add(one, i_), r.add(one, mi)
        if name == "sxdg":
            a, b = b, a
        return [[a, b], [b, a]], 2
    if name in ("rx", "ry", "rz", "rxx", "ryy", "rzz"):
        e = ctx.half_exp(params[0])
        einv = ctx.half_exp(-params[0])
        if name == "rz":
            return diag(einv, e), 0
        if name == "rzz":
            return diag(einv, e, e, einv), 0
        c2 = r.add(e, einv)  # 2 cos
        ms2 = r.add(r.neg(e), einv)  # -2i sin = e^{-i} - e^{i}
        if name == "rx":
            return [[c2, ms2], [ms2, c2]], 2
        if name == "ry":
            s2 = r.mul(i_, ms2)  # 2 sin = i * (-2i sin)
            return [[c2, r.neg(s2)], [s2, c2]], 2
        m = diag(c2, c2, c2, c2)
        yy = r.neg(ms2) if name == "ryy" else ms2
        m[0][3] = m[3][0] = yy
        m[1][2] = m[2][1] = ms2
        return m, 2
    if name in ("p", "u1"):
        e = ctx.half_exp(params[0])
        return diag(one, r.mul(e, e)), 0
    if name == "cp":
        e = ctx.half_exp(params[0])
        return diag(one, one, one, r.mul(e, e)), 0
    if name == "u2":
        ep = ctx.half_exp(params[0])
        el = ctx.half_exp(params[1])
        ep2, el2 = r.mul(ep, ep), r.mul(el, el)
        return [[one, r.neg(el2)], [ep2, r.mul(ep2, el2)]], 1
    if name == "u3":
        e = ctx.half_exp(params[0])
        einv = ctx.half_exp(-params[0])
        c2 = r.add(e, einv)
        s2 = r.mul(mi, r.add(e, r.neg(einv)))  # 2 sin = -i (e - 1/e)
        ep = ctx.half_exp(params[1])
        el = ctx.half_exp(params[2])
        ep2, el2 = r.mul(ep, ep), r.mul(el, el)
        return [[c2, r.neg(r.mul(el2, s2))], [r.mul(ep2, s2), r.mul(r.mul(ep2, el2), c2)]], 2
    if name == "cx":
        return controlled([[zero, one], [one, zero]], 0), 0
    if name == "cy":
        return controlled([[zero, mi], [i_, zero]], 0), 0
    if name == "cz":
        return diag(one, one, one, mone), 0
    if name == "ch":
        return controlled([[one, one], [one, mone]], 1), 1
    if name == "swap":
        m = diag(one, zero, zero, one)
        m[1][2] = m[2][1] = one
        return m, 0
    if name == "ccx":
        m = diag(*([one] * 8))
        m[3][3] = m[7][7] = zero
        m[3][7] = m[7][3] = one
        return m, 0
    if name == "ccz":
        m = diag(*([one] * 8))
        m[7][7] = mone
        return m, 0
    raise Unsupported(f"gate '{name}' has no exact encoding")


def _tag(p: Poly, one: Poly, mone: Poly) -> Poly:
    """The shared `one`/`mone` object when p is 1/-1 (so the product loop can skip the multiply)."""
    if p == one:
        return one
    if p == mone:
        return mone
    return p


class ExactUnitary:
    """M / sqrt2^e for one circuit in a Context: M as sparse columns {row: polynomial}."""

    __slots__ = ("cols", "e", "dim")

    def __init__(self, cols: list[dict[int, Poly]], e: int, dim: int):
        self.cols, self.e, self.dim = cols, e, dim

    @property
    def m(self) -> list[Poly]:
        """Dense row-major list of entries ({} = 0)."""
        d = self.dim
        out: list[Poly] = [{} for _ in range(d * d)]
        for c, col in enumerate(self.cols):
            for r, p in col.items():
                out[r * d + c] = p
        return out


def exact_unitary(ctx: Context, circuit: Circuit, deadline: float | None = None) -> ExactUnitary:
    """The circuit's unitary (global phase included) over ctx's ring.

    Raises Unsupported when time.monotonic() passes `deadline` (checked after every gate).
    """
    r = ctx.ring
    d = 1 << ctx.qubits
    gp = ctx.half_exp(circuit.global_phase)
    gp2 = r.mul(gp, gp)
    cols: list[dict[int, Poly]] = [{i: gp2} for i in range(d)]
    e_total = 0
    mul, add_into = r.mul, r.add_into
    one, mone = ctx.one_tag, ctx.mone_tag
    for name, qubits, params in circuit.native.gates():
        key = (name, params)
        cached = ctx.gate_cache.get(key)
        if cached is None:
            cached = ctx.gate_cache[key] = _classify(ctx, name, params)
        kind, nz, e = cached
        e_total += e
        ka = len(nz)
        geo = ctx._offs.get(qubits)
        if geo is None:
            qs = [ctx.qubit_map[q] for q in qubits]
            offs = [sum(((a >> l) & 1) << q for l, q in enumerate(qs)) for a in range(ka)]
            geo = ctx._offs[qubits] = (offs, offs[-1], {o: a for a, o in enumerate(offs)})
        offs, mask, local = geo
        if kind == "diag":  # nz[a] = diagonal entry a
            for ci, col in enumerate(cols):
                new = {}
                for row, p in col.items():
                    g = nz[local[row & mask]]
                    new[row] = p if g is one else {k: -v for k, v in p.items()} if g is mone else mul(g, p)
                cols[ci] = new
            continue
        if kind == "perm":  # nz[b] = local index of the row that input b moves to
            inv = ~mask
            dest = {o: offs[nz[a]] for o, a in local.items()}
            for ci, col in enumerate(cols):
                cols[ci] = {(row & inv) | dest[row & mask]: p for row, p in col.items()}
            continue
        for ci, col in enumerate(cols):
            groups: dict[int, dict[int, Poly]] = {}
            for row, p in col.items():
                groups.setdefault(row & ~mask, {})[local[row & mask]] = p
            new: dict[int, Poly] = {}
            for base, ins in groups.items():
                for a in range(ka):
                    acc: Poly | None = None
                    shared = False  # acc is an input entry (must be copied before adding)
                    for b, gab in nz[a]:
                        ob = ins.get(b)
                        if ob is None:
                            continue
                        if gab is one:
                            prod, is_shared = ob, True
                        elif gab is mone:
                            prod, is_shared = {k: -v for k, v in ob.items()}, False
                        else:
                            prod, is_shared = mul(gab, ob), False
                        if acc is None:
                            acc, shared = prod, is_shared
                        else:
                            if shared:
                                acc, shared = dict(acc), False
                            add_into(acc, prod)
                    if acc:
                        new[base | offs[a]] = acc
            cols[ci] = new
        if deadline is not None and time.monotonic() > deadline:
            raise Unsupported("the exact path ran out of time")
    return ExactUnitary(cols, e_total, d)


def _classify(ctx: Context, name: str, params) -> tuple[str, list, int]:
    """("diag", entries, e), ("perm", local target per input, e) or ("gen", sparse rows, e)."""
    one, mone = ctx.one_tag, ctx.mone_tag
    gm, e = gate_matrix(ctx, name, params)
    ka = len(gm)
    if all(not gm[a][b] for a in range(ka) for b in range(ka) if a != b):
        return "diag", [_tag(gm[a][a], one, mone) for a in range(ka)], e
    nz = [[(b, _tag(gm[a][b], one, mone)) for b in range(ka) if gm[a][b]] for a in range(ka)]
    if e == 0 and all(len(row) == 1 and row[0][1] is one for row in nz):
        target = [0] * ka
        for a, row in enumerate(nz):
            target[row[0][0]] = a
        return "perm", target, e
    return "gen", nz, e


def _times_sqrt2_power(r: Ring, cols: list[dict[int, Poly]], k: int) -> list[dict[int, Poly]]:
    """cols * sqrt2^k for k >= 0."""
    if k == 0:
        return cols
    c = 1 << (k // 2)
    out = [{row: r.scale(p, c) for row, p in col.items()} for col in cols]
    if k % 2:
        s2 = r.add(r.zeta(r.N // 8), r.zeta(7 * r.N // 8))
        out = [{row: r.mul(p, s2) for row, p in col.items()} for col in out]
    return out


def compare(ctx: Context, ua: ExactUnitary, ub: ExactUnitary) -> tuple[bool, tuple[int, list[int]] | None]:
    """(equal, (t, k)) where U_b = zeta_N^t * prod z_j^{k_j} * U_a when equal."""
    r = ctx.ring
    if ua.dim != ub.dim:
        return False, None
    for ca, cb in zip(ua.cols, ub.cols):  # the supports must match entrywise
        if ca.keys() != cb.keys():
            return False, None
    d = ua.e - ub.e
    ma = _times_sqrt2_power(r, ua.cols, max(0, -d))
    mb = _times_sqrt2_power(r, ub.cols, max(0, d))
    pivot = next(((c, row) for c, col in enumerate(ma) for row in col), None)
    if pivot is None:
        return False, None
    za, ca = r.leading(ma[pivot[0]][pivot[1]])
    zb, cb = r.leading(mb[pivot[0]][pivot[1]])
    ratio = r.zeta_value(cb) / r.zeta_value(ca)
    if abs(abs(ratio) - 1.0) > 1e-6:
        return False, None
    t = round(math.atan2(ratio.imag, ratio.real) * r.N / (2 * math.pi)) % r.N
    shift = (zb - za) << ZETA_BITS  # z-part of the phase monomial, as a key offset
    phase_poly = r.zeta(t)
    trivial = t == 0
    for cola, colb in zip(ma, mb):
        for row, pa in cola.items():
            shifted = {k + shift: v for k, v in pa.items()}
            if not trivial:
                shifted = r.mul(shifted, phase_poly)
            if shifted != colb[row]:
                return False, None
    zkey = (zb - za) + (r.bias_all >> ZETA_BITS)
    return True, (t, r.exponents(zkey))


def phase_of(ctx: Context, t: int, k: list[int]) -> Phase | None:
    """The Phase zeta^t * prod z_j^{k_j} (None if it involves a float-constant variable)."""
    if any(k[j] for j in range(ctx.num_symbols, len(k))):
        return None
    return Phase.make(Fraction(2 * t, ctx.ring.N),
                      {j: Fraction(k[j], 2) for j in range(ctx.num_symbols) if k[j]})
