"""Exact angles: floats that are rational multiples of pi become exact `Param`s.

Convention (used throughout quartz): angles are Qiskit's full angles, so rz(theta) =
diag(e^{-i theta/2}, e^{i theta/2}) and u1(lam) = diag(1, e^{i lam}). Constants are kept as
exact rational multiples of pi whenever the input is one (to 8 ulps, i.e. float rounding),
otherwise as float radians bit for bit. The verifier encodes each symbol theta by (cos theta/2, sin theta/2), so it never
needs half-angle formulas.

>>> from quartz.angles import to_param
>>> str(to_param(-0.7853981633974483))
'-pi/4'
>>> str(to_param(0.3))
'0.3'
"""
from __future__ import annotations

import math
from fractions import Fraction
from numbers import Real
from typing import SupportsFloat, Union

from quartz._core import Param

MAX_DENOMINATOR = 1 << 20
# Snap only float rounding noise: a 1e-12 tolerance let about a third of all random floats
# (e.g. -0.15) snap to some k/d*pi with d near 2^20, changing the angle by up to 3e-12.
_ULPS = 8
# Angles beyond this many radians stay floats (k*pi with a huge k would overflow Param).
_MAX_EXACT = float(1 << 40)

# What quartz takes as an angle: a Param, a number of radians, or a pi-expression string.
AngleLike = Union[Param, SupportsFloat, str]


def to_param(value: AngleLike) -> Param:
    """Convert a number (radians), a Param, or a pi-expression string to an exact Param."""
    if isinstance(value, Param):
        return value
    if isinstance(value, Fraction):
        raise TypeError("a Fraction is ambiguous as an angle; use pi_fraction(num, den) or radians")
    if isinstance(value, str):
        return parse_angle(value)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"angle must be a number or Param, got {type(value).__name__}")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"angle is not finite: {value!r}")
    if abs(x) > _MAX_EXACT:  # no exact rational of 62 bits is near; keep the float
        return Param.radians(x)
    frac = Fraction(x / math.pi).limit_denominator(MAX_DENOMINATOR)
    if abs(float(frac) * math.pi - x) <= _ULPS * math.ulp(max(1.0, abs(x))):
        return Param.pi(frac.numerator, frac.denominator)
    return Param.radians(x)


def pi_fraction(num: int, den: int = 1) -> Param:
    """The exact angle num/den * pi."""
    return Param.pi(num, den)


def parse_angle(text: str) -> Param:
    """Parse an angle expression such as 'pi*-0.25', '-pi/4', '3*pi/8' or '0.3' exactly."""
    import ast

    def ev(node: ast.AST) -> Fraction | float | tuple[str, Fraction]:
        # Returns ("pi", Fraction) for exact pi multiples, a Fraction for exact rationals,
        # or a float.
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, int):
                return Fraction(node.value)
            return Fraction(repr(node.value)) if "e" not in repr(node.value) else node.value
        if isinstance(node, ast.Name) and node.id == "pi":
            return ("pi", Fraction(1))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            if isinstance(node.op, ast.UAdd):
                return v
            return ("pi", -v[1]) if isinstance(v, tuple) else -v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Mult):
                if isinstance(a, tuple) and not isinstance(b, tuple):
                    return ("pi", a[1] * b) if isinstance(b, Fraction) else math.pi * float(a[1]) * b
                if isinstance(b, tuple) and not isinstance(a, tuple):
                    return ("pi", b[1] * a) if isinstance(a, Fraction) else math.pi * float(b[1]) * a
                if not isinstance(a, tuple) and not isinstance(b, tuple):
                    return a * b
            if isinstance(node.op, ast.Div):
                if not isinstance(b, tuple) and b == 0:
                    raise ValueError("division by zero")
                if isinstance(a, tuple) and isinstance(b, Fraction):
                    return ("pi", a[1] / b)
                if not isinstance(a, tuple) and not isinstance(b, tuple):
                    return a / b if isinstance(a, Fraction) and isinstance(b, Fraction) else float(a) / float(b)
            if isinstance(node.op, (ast.Add, ast.Sub)):
                sign = 1 if isinstance(node.op, ast.Add) else -1
                if isinstance(a, tuple) and isinstance(b, tuple):
                    return ("pi", a[1] + sign * b[1])
                fa = math.pi * float(a[1]) if isinstance(a, tuple) else a
                fb = math.pi * float(b[1]) if isinstance(b, tuple) else b
                if isinstance(fa, Fraction) and isinstance(fb, Fraction):
                    return fa + sign * fb
                return float(fa) + sign * float(fb)
        raise ValueError(f"not an angle expression: {text!r}")

    try:
        v = ev(ast.parse(text.strip(), mode="eval"))
    except SyntaxError:
        raise ValueError(f"not an angle expression: {text!r}") from None
    if isinstance(v, tuple):
        f = v[1]
        return Param.pi(f.numerator, f.denominator)
    return to_param(float(v))


def format_angle(p: Param) -> str:
    """QASM text of a concrete angle that reads back to the identical Param (for floats: any
    float that `to_param` keeps, i.e. not within rounding noise of a rational multiple of pi)."""
    if p.is_symbolic:
        raise ValueError(f"symbolic angle {p} cannot be written as QASM 2")
    frac = p.pi_fraction
    if frac is None:
        return repr(float(p))
    num, den = frac
    if num == 0:
        return "0"
    sign = "-" if num < 0 else ""
    num = abs(num)
    s = "pi" if num == 1 else f"{num}*pi"
    return sign + (s if den == 1 else f"{s}/{den}")
