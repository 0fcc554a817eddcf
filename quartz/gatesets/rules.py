"""Exact decomposition rules: each gate type written over other gate types, global phase included.

A rule's template lists gates as `name(angles) slots`, separated by `;`. Slots 0, 1, 2 are the
decomposed gate's qubits in order; angles are linear expressions in its parameters `a`, `b`, `c`
and `pi` (rational coefficients). `phase` is the global phase the template misses:
U_gate = e^{i phase} U_template. Every rule is tested against the gate's unitary.

>>> from quartz.gatesets.rules import rules_for
>>> [r.template for r in rules_for("cx")][0]
'h 1; cz 0,1; h 1'
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from quartz._core import Param

# (name, qubit slots, params) of one emitted gate.
Emitted = tuple[str, tuple[int, ...], tuple[Param, ...]]
# An angle of a template gate as a function of the decomposed gate's params; a compiled
# template gate (name, slots, angles); a rule's builder.
_Angle = Callable[[Sequence[Param]], Param]
_Template = tuple[str, tuple[int, ...], list[_Angle]]
_Builder = Callable[[Sequence[Param]], tuple[list[Emitted], Param]]


class NotApplicable(Exception):
    """A rule that cannot express this particular gate exactly (e.g. a non-pi/4 angle)."""


def scale(p: Param, f: Fraction) -> Param:
    """p * f exactly; symbolic coefficients must stay integers (else NotApplicable)."""
    if f.denominator == 1:
        return p.scaled(int(f))
    frac = p.pi_fraction
    if frac is not None:
        const = Param.pi(frac[0] * f.numerator, frac[1] * f.denominator)
    else:
        const = Param.radians(float(p.constant_part()) * f.numerator / f.denominator)
    for sym, coef in p.terms:
        k = Fraction(coef) * f
        if k.denominator != 1:
            raise NotApplicable(f"the symbolic angle {p} would need a fractional coefficient")
        const = const + Param.symbol(sym, int(k))
    return const


def _compile_expr(text: str) -> _Angle:
    """Compile a linear angle expression over a, b, c and pi into a function of the params."""

    def lin(node: ast.AST) -> dict[str | int, Fraction]:
        # A linear form {"pi": Fraction, "a": Fraction, ..., 1: Fraction (pure number)}.
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return {1: Fraction(node.value)}
        if isinstance(node, ast.Name) and node.id in ("pi", "a", "b", "c"):
            return {node.id: Fraction(1)}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return {k: -v for k, v in lin(node.operand).items()}
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            x, y = lin(node.left), lin(node.right)
            s = 1 if isinstance(node.op, ast.Add) else -1
            return {k: x.get(k, Fraction(0)) + s * y.get(k, Fraction(0)) for k in set(x) | set(y)}
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            x, y = lin(node.left), lin(node.right)
            if isinstance(node.op, ast.Div):
                if set(y) != {1}:
                    raise ValueError(f"bad rule angle {text!r}")
                return {k: v / y[1] for k, v in x.items()}
            if set(x) == {1}:
                x, y = y, x
            if set(y) != {1}:
                raise ValueError(f"bad rule angle {text!r}")
            return {k: v * y[1] for k, v in x.items()}
        raise ValueError(f"bad rule angle {text!r}")

    form = lin(ast.parse(text.strip(), mode="eval").body)
    if form.get(1, 0) != 0:
        raise ValueError(f"rule angle {text!r} has a constant that is not a multiple of pi")
    pi_coef = form.get("pi", Fraction(0))
    terms = [(("a", "b", "c").index(k), v) for k, v in sorted(form.items(), key=str)
             if k in ("a", "b", "c") and v != 0]
    const = Param.pi(pi_coef.numerator, pi_coef.denominator)

    def evaluate(params: Sequence[Param]) -> Param:
        out = const
        for i, f in terms:
            out = out + scale(params[i], f)
        return out

    return evaluate


def _compile_template(template: str) -> list[_Template]:
    out: list[_Template] = []
    for part in template.split(";"):
        part = part.strip()
        if not part:
            continue
        if "(" in part:
            name, rest = part.split("(", 1)
            args, slots = rest.rsplit(")", 1)
            angles: list[_Angle] = [_compile_expr(a) for a in args.split(",")]
        else:
            name, slots = part.split(None, 1)
            angles = []
        out.append((name.strip(), tuple(int(s) for s in slots.split(",")), angles))
    return out


@dataclass(frozen=True)
class Rule:
    """gate == e^{i phase} * template, or a function that builds the gates and the phase."""

    gate: str
    template: str = ""
    phase: str = "0"
    uses: tuple[str, ...] = ()  # emitted gate types with multiplicity (a cost estimate)
    builder: _Builder | None = None
    _compiled: list[_Template] = field(default_factory=list, compare=False, repr=False)
    _phase: _Angle | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.builder is None:
            compiled = _compile_template(self.template)
            object.__setattr__(self, "_compiled", compiled)
            object.__setattr__(self, "_phase", _compile_expr(self.phase))
            if not self.uses:
                object.__setattr__(self, "uses", tuple(n for n, _, _ in compiled))

    def expand(self, params: Sequence[Param]) -> tuple[list[Emitted], Param]:
        """The emitted gates (qubits are slots of the decomposed gate) and the phase."""
        if self.builder is not None:
            return self.builder(params)
        assert self._phase is not None  # set for every template rule
        phase = self._phase(params)
        if phase.is_symbolic:
            raise NotApplicable(f"the global phase {phase} would be symbolic")
        gates = [(n, slots, tuple(f(params) for f in angles)) for n, slots, angles in self._compiled]
        return gates, phase


def _pi4_multiple(p: Param) -> int:
    frac = p.pi_fraction
    if p.is_symbolic or frac is None or 4 % frac[1] != 0:
        raise NotApplicable(f"angle {p} is not a multiple of pi/4")
    return (frac[0] * (4 // frac[1])) % 8


def _clifford_phase(names_by_k: dict[int, tuple[str, ...]]) -> _Builder:
    def build(params: Sequence[Param]) -> tuple[list[Emitted], Param]:
        k = _pi4_multiple(params[0])
        return [(n, (0,), ()) for n in names_by_k[k]], Param()

    return build


# p(k*pi/4) = diag(1, e^{i k pi/4}) as the shortest product of s, sdg, t, tdg (no phase).
_P_CLIFFORD_T = {0: (), 1: ("t",), 2: ("s",), 3: ("s", "t"), 4: ("s", "s"), 5: ("sdg", "tdg"),
                 6: ("sdg",), 7: ("tdg",)}
_P_T_ONLY = {k: ("t",) * k for k in range(8)}
_P_TDG_ONLY = {k: ("tdg",) * ((8 - k) % 8) for k in range(8)}
_P_WITH_Z = {0: (), 1: ("t",), 2: ("s",), 3: ("s", "t"), 4: ("z",), 5: ("z", "t"),
             6: ("sdg",), 7: ("tdg",)}

_CCZ = ("cx 1,2; tdg 2; cx 0,2; t 2; cx 1,2; tdg 2; cx 0,2; t 1; t 2; cx 0,1; t 0; tdg 1; "
        "cx 0,1")
_CCZ_RZ = _CCZ.replace("tdg", "rz(-pi/4)").replace("t ", "rz(pi/4) ")

RULES: tuple[Rule, ...] = (
    # --- one-qubit Clifford+T gates ---
    Rule("h", "rz(pi/2) 0; rx(pi/2) 0; rz(pi/2) 0", "pi/2"),
    Rule("h", "ry(pi/2) 0; rx(pi) 0", "pi/2"),
    Rule("h", "rz(pi/2) 0; sx 0; rz(pi/2) 0", "pi/4"),
    Rule("h", "u2(0, pi) 0"),
    Rule("h", "s 0; sx 0; s 0", "-pi/4"),
    Rule("x", "rx(pi) 0", "pi/2"),
    Rule("x", "u3(pi, 0, pi) 0"),
    Rule("x", "h 0; z 0; h 0"),
    Rule("x", "sx 0; sx 0"),
    Rule("y", "ry(pi) 0", "pi/2"),
    Rule("y", "z 0; x 0", "pi/2"),
    Rule("y", "u3(pi, pi/2, pi/2) 0"),
    Rule("z", "rz(pi) 0", "pi/2"),
    Rule("z", "p(pi) 0"),
    Rule("s", "rz(pi/2) 0", "pi/4"),
    Rule("s", "p(pi/2) 0"),
    Rule("sdg", "rz(-pi/2) 0", "-pi/4"),
    Rule("sdg", "p(-pi/2) 0"),
    Rule("t", "rz(pi/4) 0", "pi/8"),
    Rule("t", "p(pi/4) 0"),
    Rule("tdg", "rz(-pi/4) 0", "-pi/8"),
    Rule("tdg", "p(-pi/4) 0"),
    Rule("sx", "rx(pi/2) 0", "pi/4"),
    Rule("sx", "h 0; s 0; h 0"),
    Rule("sx", "u2(-pi/2, pi/2) 0", "pi/4"),
    Rule("sxdg", "rx(-pi/2) 0", "-pi/4"),
    Rule("sxdg", "h 0; sdg 0; h 0"),
    Rule("sxdg", "sx 0; sx 0; sx 0"),
    # --- rotations ---
    Rule("rx", "h 0; rz(a) 0; h 0"),
    Rule("rx", "u3(a, -pi/2, pi/2) 0"),
    Rule("rx", "rz(pi/2) 0; ry(a) 0; rz(-pi/2) 0"),
    Rule("ry", "rz(-pi/2) 0; rx(a) 0; rz(pi/2) 0"),
    Rule("ry", "sdg 0; h 0; rz(a) 0; h 0; s 0"),
    Rule("ry", "u3(a, 0, 0) 0"),
    Rule("ry", "sx 0; rz(a) 0; sxdg 0"),
    Rule("rz", "p(a) 0", "-a/2"),
    Rule("rz", "u1(a) 0", "-a/2"),
    Rule("rz", "h 0; rx(a) 0; h 0"),
    Rule("rz", "rx(pi/2) 0; ry(-a) 0; rx(-pi/2) 0"),
    Rule("p", "rz(a) 0", "a/2"),
    Rule("p", "u1(a) 0"),
    Rule("p", builder=_clifford_phase(_P_CLIFFORD_T), uses=("s", "t", "sdg", "tdg")),
    Rule("p", builder=_clifford_phase(_P_WITH_Z), uses=("z", "s", "t", "sdg", "tdg")),
    Rule("p", builder=_clifford_phase(_P_T_ONLY), uses=("t",) * 4),
    Rule("p", builder=_clifford_phase(_P_TDG_ONLY), uses=("tdg",) * 4),
    Rule("u1", "p(a) 0"),
    Rule("u1", "rz(a) 0", "a/2"),
    Rule("u2", "u3(pi/2, a, b) 0"),
    Rule("u2", "p(b) 0; ry(pi/2) 0; p(a) 0"),
    Rule("u3", "rz(c) 0; ry(a) 0; rz(b) 0", "b/2 + c/2"),
    Rule("u3", "p(c) 0; ry(a) 0; p(b) 0"),
    # --- two-qubit gates ---
    Rule("cx", "h 1; cz 0,1; h 1"),
    Rule("cx", "ry(pi/2) 0; rxx(pi/2) 0,1; rx(-pi/2) 0; rx(-pi/2) 1; ry(-pi/2) 0", "-pi/4"),
    Rule("cz", "h 1; cx 0,1; h 1"),
    Rule("cz", "rz(pi/2) 0; rz(pi/2) 1; rzz(-pi/2) 0,1", "pi/4"),
    Rule("cy", "sdg 1; cx 0,1; s 1"),
    Rule("ch", "ry(pi/4) 1; cx 0,1; ry(-pi/4) 1"),
    Rule("ch", "s 1; h 1; t 1; cx 0,1; tdg 1; h 1; sdg 1"),
    Rule("cp", "p(a/2) 0; cx 0,1; p(-a/2) 1; cx 0,1; p(a/2) 1"),
    Rule("cp", "rz(a/2) 0; rz(a/2) 1; rzz(-a/2) 0,1", "a/4"),
    Rule("swap", "cx 0,1; cx 1,0; cx 0,1"),
    Rule("rxx", "h 0; h 1; cx 0,1; rz(a) 1; cx 0,1; h 0; h 1"),
    Rule("rxx", "h 0; h 1; rzz(a) 0,1; h 0; h 1"),
    Rule("ryy", "rx(pi/2) 0; rx(pi/2) 1; cx 0,1; rz(a) 1; cx 0,1; rx(-pi/2) 0; rx(-pi/2) 1"),
    Rule("ryy", "rx(pi/2) 0; rx(pi/2) 1; rzz(a) 0,1; rx(-pi/2) 0; rx(-pi/2) 1"),
    Rule("ryy", "rz(pi/2) 0; rz(pi/2) 1; rxx(a) 0,1; rz(-pi/2) 0; rz(-pi/2) 1"),
    Rule("rzz", "cx 0,1; rz(a) 1; cx 0,1"),
    Rule("rzz", "h 0; h 1; rxx(a) 0,1; h 0; h 1"),
    Rule("rzz", "ry(pi/2) 0; ry(pi/2) 1; rxx(a) 0,1; ry(-pi/2) 0; ry(-pi/2) 1"),
    # --- three-qubit gates ---
    Rule("ccz", _CCZ),
    Rule("ccz", _CCZ_RZ, "pi/8"),
    Rule("ccx", "h 2; ccz 0,1,2; h 2"),
)


def rules_for(gate: str) -> list[Rule]:
    """The rules that decompose `gate`, in preference order."""
    return [r for r in RULES if r.gate == gate]


__all__ = ["Rule", "RULES", "NotApplicable", "rules_for", "scale"]
