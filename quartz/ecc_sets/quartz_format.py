"""Quartz's ECC JSON format (Quartz v0.2.0+, also read by tket2's Badger):

    [[[N, e0, ..., e(N-1)], [m, r0, ..., r(m-1)]],
     {"<class index>_<class size>": [[[num_qubits, num_gates], [[name, [outputs], [inputs]], ...]], ...]}]

Table entries are "" (an input symbol), a number (a constant, radians), or an operation
["add"|"neg"|"mult"|"pi", ["P<k>"], [inputs]]. Wires are "Q<i>" (qubits) and "P<k>" (table
entries); a gate's inputs are its qubits then its angles. The second list holds the
fingerprint's random symbol values.

Half angles: Quartz stores rx, ry, rz (and u3's theta) as half angles (its rz(t) is our
rz(2t)). This module converts exactly at the boundary by identifying quartz's symbol p_k with
2*P_k: a halved slot with our angle a*p + c is written a*P + c/2, any other slot 2a*P + c.
Reading picks the same identification when every non-halved slot has even coefficients (so a
file we wrote reads back identically), and p_k = P_k otherwise. Quartz's files carry no
phases, so classes read from them are unproven (run the verifier on them).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from quartz._core import Param
from quartz.angles import to_param
from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECC, ECCSet
from quartz.errors import QuartzError

# Slots Quartz stores as half angles: gate -> indices of halved parameters.
HALVED = {"rx": (0,), "ry": (0,), "rz": (0,), "u3": (0,), "rxx": (0,), "ryy": (0,), "rzz": (0,)}
# Quartz's fixed-angle gates, as our gate and full angle (units of pi).
FIXED = {"rx1": ("rx", Fraction(1, 2)), "rx3": ("rx", Fraction(3, 2)),
         "ry1": ("ry", Fraction(1, 2)), "ry3": ("ry", Fraction(3, 2))}
RENAMED = {"cu1": "cp", "pdg": None}


def _is_halved(gate: str, k: int) -> bool:
    return k in HALVED.get(gate, ())


# A linear form: (dict symbol -> coefficient, constant) where the constant is a Fraction in
# units of pi, or a float in radians (a coefficient is a float after a product by a float).
_Const = Fraction | float
_Form = tuple[dict[int, _Const], _Const]


def _lin_add(a: _Form, b: _Form) -> _Form:
    d = dict(a[0])
    for s, k in b[0].items():
        d[s] = d.get(s, Fraction(0)) + k
    d = {s: k for s, k in d.items() if k != 0}
    ca, cb = a[1], b[1]
    if isinstance(ca, Fraction) and isinstance(cb, Fraction):
        return d, ca + cb
    return d, float(ca) * (math.pi if isinstance(ca, Fraction) else 1) + \
        float(cb) * (math.pi if isinstance(cb, Fraction) else 1)


def _lin_scale(a: _Form, k: Fraction | float) -> _Form:
    c = a[1]
    return ({s: v * k for s, v in a[0].items() if v * k != 0},
            c * k if isinstance(c, Fraction) else c * float(k))


# ----------------------------------------------------------------------------------- writing
class _TableWriter:
    def __init__(self, m: int):
        self.entries: list[Any] = [""] * m  # JSON table entries
        self.index: dict[tuple[Any, ...], str] = {}

    def _const(self, c: _Const) -> str:
        key = ("c", c)
        if key not in self.index:
            val = float(c) * math.pi if isinstance(c, Fraction) else float(c)
            self.entries.append(val)
            self.index[key] = f"P{len(self.entries) - 1}"
        return self.index[key]

    def _op(self, name: str, inputs: list[str]) -> str:
        key = (name, tuple(inputs))
        if key not in self.index:
            out = f"P{len(self.entries)}"
            self.entries.append([name, [out], list(inputs)])
            self.index[key] = out
        return self.index[key]

    def wire(self, coefs: dict[int, int], const: _Const) -> str:
        """A wire holding sum coefs[s]*P_s + const, built from add/neg entries."""
        atoms: list[str] = []
        for s in sorted(coefs):
            k = coefs[s]
            w = f"P{s}" if k > 0 else self._op("neg", [f"P{s}"])
            atoms += [w] * abs(k)
        if const != 0:
            atoms.append(self._const(const))
        if not atoms:
            return self._const(Fraction(0))
        acc = atoms[0]
        for a in atoms[1:]:
            acc = self._op("add", [acc, a])
        return acc


def _split_param(p: Param) -> _Form:
    frac = p.pi_fraction
    const = Fraction(frac[0], frac[1]) if frac is not None else float(p.constant_part())
    coefs: dict[int, _Const] = {s: Fraction(k) for s, k in p.terms}
    return coefs, const


def to_json(ecc_set: ECCSet) -> list[Any]:
    """The set in Quartz's format (a JSON-serialisable list)."""
    max_sym = max([ecc_set.m or 0] + [s + 1 for e in ecc_set.classes for c in e.circuits
                                      for g in c for p in g.params for s, _ in p.terms])
    tw = _TableWriter(max_sym)
    body: dict[str, list[Any]] = {}
    for idx, e in enumerate(ecc_set.classes):
        circs: list[Any] = []
        for c in e.circuits:
            gates: list[Any] = []
            for name, qs, ps in c.native.gates():
                qw = [f"Q{q}" for q in qs]
                pw = []
                for k, p in enumerate(ps):
                    coefs, const = _split_param(p)
                    if _is_halved(name, k):
                        const = const / 2
                        ints = {s: int(v) for s, v in coefs.items()}
                    else:
                        ints = {s: int(2 * v) for s, v in coefs.items()}
                    pw.append(tw.wire(ints, const))
                gates.append([name, qw, qw + pw])
            circs.append([[c.num_qubits, len(gates)], gates])
        body[f"{idx}_{len(circs)}"] = circs
    gen = ecc_set.metadata.get("generator", {})
    values = list(gen.get("symbol_values", []))[:max_sym]
    values += [0.0] * (max_sym - len(values))
    return [[[len(tw.entries)] + tw.entries, [len(values)] + list(values)], body]


# ----------------------------------------------------------------------------------- reading
def _defined(forms: list[_Form | None], w: str, source: str) -> _Form:
    """The linear form of table wire `w` ("P<k>")."""
    k = int(w[1:])
    f = forms[k] if 0 <= k < len(forms) else None
    if f is None:
        raise QuartzError(f"{source}: parameter {w} used before it is defined")
    return f


def _parse_table(table: list[Any], source: str) -> list[_Form | None]:
    n = int(table[0])
    entries = table[1:1 + n]
    forms: list[_Form | None] = [None] * n
    nsym = 0

    def wire_form(w: str) -> _Form:
        return _defined(forms, w, source)

    for i, e in enumerate(entries):
        if e == "":
            forms[i] = ({nsym: Fraction(1)}, Fraction(0))
            nsym += 1
        elif isinstance(e, (int, float)):
            forms[i] = ({}, to_fraction_or_float(float(e)))
        elif isinstance(e, str):
            forms[i] = ({}, Fraction(e))  # rational in units of pi
        elif isinstance(e, list) and len(e) == 3:
            op, _, ins = e
            if op == "add":
                f = wire_form(ins[0])
                for w in ins[1:]:
                    f = _lin_add(f, wire_form(w))
                forms[i] = f
            elif op == "neg":
                forms[i] = _lin_scale(wire_form(ins[0]), -1)
            elif op == "mult":
                a, b = wire_form(ins[0]), wire_form(ins[1])
                if not a[0] and isinstance(a[1], Fraction):
                    a, b = b, a
                if b[0]:
                    raise QuartzError(f"{source}: product of two symbolic parameters")
                k = b[1] / Fraction(1) if isinstance(b[1], Fraction) else b[1] / math.pi
                forms[i] = _lin_scale(a, k)
            elif op == "pi":
                a = wire_form(ins[0])
                forms[i] = ({}, Fraction(1) / Fraction(a[1]) if isinstance(a[1], Fraction)
                            else math.pi / a[1])
            else:
                raise QuartzError(f"{source}: unknown parameter operation '{op}'")
        else:
            raise QuartzError(f"{source}: bad parameter table entry {e!r}")
    return forms


def to_fraction_or_float(x: float) -> _Const:
    """A radians value as an exact Fraction of pi when it is one (else the float)."""
    p = to_param(x)
    frac = p.pi_fraction
    return Fraction(frac[0], frac[1]) if frac is not None else x


def _to_param(coefs: dict[int, _Const], const: _Const) -> Param:
    out = Param.pi(const.numerator, const.denominator) if isinstance(const, Fraction) \
        else Param.radians(const)
    for s, k in sorted(coefs.items()):
        if Fraction(k).denominator != 1:
            raise QuartzError("internal error: non-integer symbol coefficient")
        out = out + Param.symbol(s, int(k))
    return out


def from_json(obj: Any, source: str = "<json>", gate_set: tuple[str, ...] | None = None) -> ECCSet:
    """Parse Quartz's format into an ECCSet of unproven classes."""
    if not (isinstance(obj, list) and len(obj) == 2 and isinstance(obj[1], dict)):
        raise QuartzError(f"{source}: not a Quartz ECC set (expected [param_table, {{classes}}])")
    head = obj[0]
    if head == []:
        raise QuartzError(f"{source}: Quartz ECC set in the legacy (<= v0.1) format, which has "
                          "inline parameter gates; regenerate it with Quartz >= 0.2 or `quartz gen`")
    try:
        forms = _parse_table(head[0], source)
        raw = []  # (class key, [(nq, [(gate, qubits, [forms])])])
        for key, circuits in obj[1].items():
            cl = []
            for (nq, _ng), gates in circuits:
                gl = []
                for name, _outs, ins in gates:
                    qs = [int(w[1:]) for w in ins if w.startswith("Q")]
                    ps = [_defined(forms, w, source) for w in ins if w.startswith("P")]
                    if name in FIXED:
                        name, ang = FIXED[name]
                        ps = [({}, ang / 2)]  # stored as a half angle, like Quartz's rx
                    elif name in RENAMED:
                        if RENAMED[name] is None:
                            raise QuartzError(f"{source}: gate '{name}' is not supported")
                        name = RENAMED[name]
                    gl.append((name, qs, ps))
                cl.append((int(nq), gl))
            raw.append((key, cl))
    except QuartzError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
        raise QuartzError(f"{source}: malformed Quartz ECC set: {type(e).__name__}: {e}") from None
    # Our symbol p = 2P when every non-halved slot has even coefficients, else p = P.
    scale2 = all(Fraction(k).denominator == 1 and int(k) % 2 == 0
                 for _, cl in raw for _, gl in cl for name, _, ps in gl
                 for j, f in enumerate(ps) if not _is_halved(name, j) for k in f[0].values())
    classes, gates_seen, nq_max, nsym = [], [], 0, 0
    def class_index(kv: tuple[str, Any]) -> int:
        head = str(kv[0]).split("_")[0]
        if not head.isdigit():
            raise QuartzError(f"{source}: malformed Quartz ECC set: class key {kv[0]!r} is not "
                              "'<index>_<size>'")
        return int(head)

    for _, cl in sorted(raw, key=class_index):
        circs = []
        for nq, gl in cl:
            c = Circuit(nq)
            nq_max = max(nq_max, nq)
            for name, qs, ps in gl:
                params = []
                for j, (coefs, const) in enumerate(ps):
                    if _is_halved(name, j):
                        coefs = {s: k * (1 if scale2 else 2) for s, k in coefs.items()}
                        const = const * 2
                    elif scale2:
                        coefs = {s: k / 2 for s, k in coefs.items()}
                    nsym = max([nsym] + [s + 1 for s in coefs])
                    params.append(_to_param(coefs, const))
                try:
                    c.native.add_gate(name, qs, params)
                except ValueError as e:
                    raise QuartzError(f"{source}: {e}") from None
                if name not in gates_seen:
                    gates_seen.append(name)
            circs.append(c)
        classes.append(ECC(circs, proven=False))
    gs = tuple(gate_set) if gate_set else tuple(gates_seen)
    n = max((len(c) for e in classes for c in e.circuits), default=0)
    return ECCSet(gs, n, nq_max, nsym, classes, {"source_format": "quartz"})
