"""Z3 path: an independent real-arithmetic encoding, for cross-checks and what exact.py rejects.

Each symbol (and each float constant, generalised to a fresh symbol) is a pair of Z3 reals (c, s)
with c^2 + s^2 = 1 standing for (cos theta/2, sin theta/2); a parameter sum is expanded by the
angle-addition identities, a negation conjugates. Constants e^{i pi k/2^j} are exact: sqrt2 is a real
r with r^2 = 2, r > 0, and each further half angle (C, S) satisfies C^2 - S^2 = A, 2CS = B, C > 0.
The phase is screened numerically (numeric.screen_phase) and then proven: Not(U_b == phase U_a)
must be unsat within the per-query timeout. Unknown or timeout = "unknown", never trusted.
"""
from __future__ import annotations

import math

import z3

from quartz.circuit import Circuit
from quartz.verifier import numeric
from quartz.verifier.verdict import Verdict

MAX_LEVEL = 6  # constants down to e^{i pi / 32} (zeta_64)
MAX_QUBITS = 5


class Z3Unsupported(Exception):
    """A constant or gate this encoding does not cover."""


class Encoder:
    """Builds Z3 complex expressions for circuits sharing one set of symbols and constants."""

    def __init__(self, num_symbols: int, floats: list[float]):
        self.constraints: list = []
        self.cs = []
        for j in range(num_symbols + len(floats)):
            c, s = z3.Reals(f"c{j} s{j}")
            self.constraints.append(c * c + s * s == 1)
            self.cs.append((c, s))
        self.num_symbols = num_symbols
        self.float_index = {x: num_symbols + i for i, x in enumerate(floats)}
        self._roots: dict[int, tuple] = {}  # level L -> zeta_{2^L} as (re, im)
        self.r2 = None

    # --- complex helpers --------------------------------------------------------------------
    @staticmethod
    def mul(a, b):
        """Complex product (None = 0)."""
        if a is None or b is None:
            return None
        return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])

    @staticmethod
    def add(a, b):
        """Complex sum (None = 0)."""
        if a is None:
            return b
        if b is None:
            return a
        return (a[0] + b[0], a[1] + b[1])

    @staticmethod
    def neg(a):
        """Complex negation (None = 0)."""
        return None if a is None else (-a[0], -a[1])

    @staticmethod
    def conj(a):
        """Complex conjugate."""
        return (a[0], -a[1])

    def sqrt2(self):
        """The Z3 real sqrt(2) (constrained r^2 = 2, r > 0)."""
        if self.r2 is None:
            self.r2 = z3.Real("r2")
            self.constraints += [self.r2 * self.r2 == 2, self.r2 > 0]
        return self.r2

    def root(self, level: int):
        """zeta_{2^level} = e^{2 pi i / 2^level} as a pair of Z3 terms."""
        one, zero = z3.RealVal(1), z3.RealVal(0)
        if level <= 0:
            return (one, zero)
        if level == 1:
            return (-one, zero)
        if level == 2:
            return (zero, one)
        if level == 3:
            h = self.sqrt2() / 2
            return (h, h)
        if level > MAX_LEVEL:
            raise Z3Unsupported(f"constant with denominator 2^{level} not encoded")
        if level not in self._roots:
            a, b = self.root(level - 1)
            c, s = z3.Reals(f"zc{level} zs{level}")
            self.constraints += [c * c - s * s == a, 2 * c * s == b, c > 0]
            self._roots[level] = (c, s)
        return self._roots[level]

    def zeta(self, num: int, den: int):
        """e^{2 pi i num/den} for den a power of two."""
        if den & (den - 1):
            raise Z3Unsupported(f"constant e^(2 pi i {num}/{den}) not encoded")
        num %= den
        level = den.bit_length() - 1
        out = (z3.RealVal(1), z3.RealVal(0))
        # num = sum of bits: zeta_{2^L}^{bit * 2^(L-l)} = zeta_{2^l}
        for lv in range(level, 0, -1):
            if num & 1:
                out = self.mul(out, self.root(lv))
            num >>= 1
        return out

    def half_exp(self, p):
        """e^{i p/2} for a Param p."""
        frac = p.pi_fraction
        terms = list(p.terms)
        if frac is None:
            x = p.constant_radians()
            out = (z3.RealVal(1), z3.RealVal(0))
            if x:
                terms.append((self.float_index[abs(x)], 1 if x > 0 else -1))
        else:
            num, den = frac
            out = self.zeta(num, 4 * den)
        for s, k in terms:
            base = self.cs[s] if k > 0 else self.conj(self.cs[s])
            for _ in range(abs(k)):
                out = self.mul(out, base)
        return out

    # --- gates ------------------------------------------------------------------------------
    def gate(self, name: str, params):
        """The gate's unitary as a list of rows of complex terms (None = 0)."""
        one, zero = z3.RealVal(1), z3.RealVal(0)
        I, ONE, MONE, MI = (zero, one), (one, zero), (-one, zero), (zero, -one)
        half = self.sqrt2() / 2 if name in ("h", "ch", "u2") else None
        H = ((half, zero),)

        def diag(*d):
            return [[d[a] if a == b else None for b in range(len(d))] for a in range(len(d))]

        def controlled(u):
            m = diag(ONE, ONE, ONE, ONE)
            m[1][1], m[1][3], m[3][1], m[3][3] = u[0][0], u[0][1], u[1][0], u[1][1]
            return m

        def cs(p):
            e = self.half_exp(p)
            return e[0], e[1]  # cos, sin of p/2

        if name == "h":
            h = H[0]
            return [[h, h], [h, self.neg(h)]]
        if name == "x":
            return [[None, ONE], [ONE, None]]
        if name == "y":
            return [[None, MI], [I, None]]
        if name == "z":
            return diag(ONE, MONE)
        if name in ("s", "sdg", "t", "tdg"):
            return diag(ONE, {"s": I, "sdg": MI, "t": self.zeta(1, 8), "tdg": self.zeta(-1, 8)}[name])
        if name in ("sx", "sxdg"):
            p, q = (z3.RealVal(0.5), z3.RealVal(0.5)), (z3.RealVal(0.5), z3.RealVal(-0.5))
            if name == "sxdg":
                p, q = q, p
            return [[p, q], [q, p]]
        if name == "rz":
            e = self.half_exp(params[0])
            return diag(self.conj(e), e)
        if name == "rzz":
            e = self.half_exp(params[0])
            return diag(self.conj(e), e, e, self.conj(e))
        if name in ("rx", "ry"):
            c, s = cs(params[0])
            if name == "rx":
                return [[(c, zero), (zero, -s)], [(zero, -s), (c, zero)]]
            return [[(c, zero), (-s, zero)], [(s, zero), (c, zero)]]
        if name in ("rxx", "ryy"):
            c, s = cs(params[0])
            m = diag(*([(c, zero)] * 4))
            m[0][3] = m[3][0] = (zero, s) if name == "ryy" else (zero, -s)
            m[1][2] = m[2][1] = (zero, -s)
            return m
        if name in ("p", "u1", "cp"):
            e = self.half_exp(params[0])
            e2 = self.mul(e, e)
            return diag(ONE, e2) if name != "cp" else diag(ONE, ONE, ONE, e2)
        if name == "u2":
            ep, el = self.half_exp(params[0]), self.half_exp(params[1])
            ep2, el2 = self.mul(ep, ep), self.mul(el, el)
            h = H[0]
            return [[h, self.neg(self.mul(h, el2))], [self.mul(h, ep2), self.mul(h, self.mul(ep2, el2))]]
        if name == "u3":
            c, s = cs(params[0])
            ep, el = self.half_exp(params[1]), self.half_exp(params[2])
            ep2, el2 = self.mul(ep, ep), self.mul(el, el)
            return [[(c, zero), self.neg(self.mul(el2, (s, zero)))],
                    [self.mul(ep2, (s, zero)), self.mul(self.mul(ep2, el2), (c, zero))]]
        if name == "cx":
            return controlled([[None, ONE], [ONE, None]])
        if name == "cy":
            return controlled([[None, MI], [I, None]])
        if name == "cz":
            return diag(ONE, ONE, ONE, MONE)
        if name == "ch":
            h = H[0]
            return controlled([[h, h], [h, self.neg(h)]])
        if name == "swap":
            m = diag(ONE, None, None, ONE)
            m[1][2] = m[2][1] = ONE
            return m
        if name in ("ccx", "ccz"):
            m = diag(*([ONE] * 8))
            if name == "ccx":
                m[3][3] = m[7][7] = None
                m[3][7] = m[7][3] = ONE
            else:
                m[7][7] = MONE
            return m
        raise Z3Unsupported(f"gate '{name}' not encoded")

    def unitary(self, circuit: Circuit, nq: int):
        """Flat row-major list of complex Z3 terms (None = 0), global phase included."""
        d = 1 << nq
        gp = self.half_exp(circuit.global_phase)
        gp2 = self.mul(gp, gp)
        m = [gp2 if i % (d + 1) == 0 else None for i in range(d * d)]
        for g in circuit:
            gm = self.gate(g.name, g.params)
            ka = len(gm)
            offs = [sum(((a >> l) & 1) << q for l, q in enumerate(g.qubits)) for a in range(ka)]
            mask = offs[-1]
            for r0 in range(d):
                if r0 & mask:
                    continue
                rows = [(r0 | o) * d for o in offs]
                for col in range(d):
                    olds = [m[rw + col] for rw in rows]
                    if all(o is None for o in olds):
                        continue
                    for a in range(ka):
                        acc = None
                        for b in range(ka):
                            if gm[a][b] is not None and olds[b] is not None:
                                acc = self.add(acc, self.mul(gm[a][b], olds[b]))
                        m[rows[a] + col] = None if acc is None else (z3.simplify(acc[0]),
                                                                     z3.simplify(acc[1]))
        return m


def _floats(circuits) -> list[float]:
    out = set()
    for c in circuits:
        for p in [q for g in c for q in g.params] + [c.global_phase]:
            if p.pi_fraction is None and p.constant_radians():
                out.add(abs(p.constant_radians()))
    return sorted(out)


def verify_pair_z3(a: Circuit, b: Circuit, *, timeout: float = 10.0) -> Verdict:
    """Verdict for U_b = e^{i phase} U_a by Z3 (phase screened numerically first)."""
    found = numeric.find_counterexample(a, b, tries=4)
    if found is not None:
        return Verdict("refuted", "numeric", counterexample=found[0],
                       message=f"1-|<Ua,Ub>|/d = {found[1]:.3g} at the counterexample")
    if max(a.num_qubits, b.num_qubits) > MAX_QUBITS:
        checked = max(a.num_qubits, b.num_qubits) <= numeric.MAX_NUMERIC_QUBITS
        return Verdict("unknown", "numeric", message=f"more than {MAX_QUBITS} qubits: too large for z3 ("
                       + ("equal on a random state)" if checked else "too large for a numeric check)"))
    floats = _floats([a, b])
    dens = [p.pi_fraction[1] for c in (a, b) for g in c for p in g.params if p.pi_fraction]
    steps = max([16] + [4 * d for d in dens if not d & (d - 1)])
    phase = numeric.screen_phase(a, b, const_steps=min(steps, 1 << MAX_LEVEL))
    if phase is None:
        return Verdict("unknown", "z3", message="no phase candidate fits numerically")
    if floats and any(s >= max(a.num_symbols, b.num_symbols) for s, _ in phase.coefs):
        return Verdict("unknown", "z3", message="phase depends on a float constant")
    m = max(a.num_symbols, b.num_symbols)
    enc = Encoder(m, floats)
    nq = max(a.num_qubits, b.num_qubits)
    try:
        ua, ub = enc.unitary(a, nq), enc.unitary(b, nq)
        # phase = e^{i (const pi + sum coef_j theta_j)} = zeta^{...} * prod z_j^{2 coef_j}
        c = phase.const
        ph = enc.zeta(c.numerator, 2 * c.denominator)
        for s, k in phase.coefs:
            twice = k * 2
            if twice.denominator != 1:
                return Verdict("unknown", "z3", message="phase coefficient not a half-integer")
            base = enc.cs[s] if twice > 0 else enc.conj(enc.cs[s])
            for _ in range(abs(int(twice))):
                ph = enc.mul(ph, base)
    except Z3Unsupported as e:
        return Verdict("unknown", "z3", message=str(e))
    zero = z3.RealVal(0)
    diffs = []
    for pa, pb in zip(ua, ub):
        x = enc.mul(ph, pa) if pa is not None else (zero, zero)
        y = pb if pb is not None else (zero, zero)
        diffs += [x[0] != y[0], x[1] != y[1]]
    # One query per real component: many small queries are far easier for nlsat than one Or.
    import time as _time

    deadline = _time.monotonic() + timeout
    for diff in diffs:
        if z3.is_false(z3.simplify(diff)):
            continue
        left = deadline - _time.monotonic()
        if left <= 0:
            return Verdict("unknown", "z3", message="z3: timeout")
        solver = z3.Solver()
        solver.set("timeout", max(1, int(left * 1000)))
        solver.add(*enc.constraints)
        solver.add(diff)
        res = solver.check()
        if res == z3.unsat:
            continue
        if res == z3.sat:
            return _from_model(a, b, solver.model(), enc, m, nq, floats)
        return Verdict("unknown", "z3", message=f"z3: {solver.reason_unknown() or 'unknown'}")
    return Verdict("proven", "z3", phase=phase)


def _from_model(a, b, model, enc, m, nq, floats) -> Verdict:
    vals = []
    for j in range(m):
        cj, sj = enc.cs[j]
        cv = _as_float(model.eval(cj, model_completion=True))
        sv = _as_float(model.eval(sj, model_completion=True))
        vals.append(2 * math.atan2(sv, cv))
    dist = numeric.distance(numeric.image(a, vals, nq), numeric.image(b, vals, nq))
    if dist > numeric.TOLERANCE and not floats:
        return Verdict("refuted", "z3", counterexample=vals,
                       message=f"1-|<Ua,Ub>|/d = {dist:.3g} at the counterexample")
    return Verdict("unknown", "z3", message="z3 found a model for the screened phase only")


def _as_float(v) -> float:
    if z3.is_rational_value(v):
        return v.numerator_as_long() / v.denominator_as_long()
    if z3.is_algebraic_value(v):
        return float(v.approx(20).as_fraction())
    return float(v.as_fraction()) if hasattr(v, "as_fraction") else 0.0
