"""Exact text form of angles in ECC set files: 'p0', '-p1', '2*p0+p1', 'pi/4', '-3/4*pi',
'p0+1/2*pi', 'rad(0.3)' (a float in radians, kept bit for bit), '0'.

>>> from quartz.ecc_sets.param_text import param_to_text, text_to_param
>>> from quartz import Param
>>> param_to_text(Param.symbol(0) + Param.symbol(1, 2) + Param.pi(-1, 4))
'p0+2*p1-1/4*pi'
>>> str(text_to_param('p0+2*p1-1/4*pi'))
'p0+2*p1-pi/4'
"""
from __future__ import annotations

import re
from functools import lru_cache

from quartz._core import Param

_TERM = re.compile(r"([+-]?)(?:(\d+)\*)?p(\d+)|([+-]?)(\d+)(?:/(\d+))?\*pi|([+-]?)pi(?:/(\d+))?"
                   r"|([+-]?)rad\(([^)]*)\)|([+-]?)0")


def param_to_text(p: Param) -> str:
    """The exact text of a Param (see the module docstring for the grammar)."""
    parts = []
    for s, k in p.terms:
        coef = "" if abs(k) == 1 else f"{abs(k)}*"
        parts.append(("-" if k < 0 else "+") + f"{coef}p{s}")
    frac = p.pi_fraction
    if frac is None:
        parts.append(f"+rad({float(p.constant_part())!r})")
    elif frac[0] != 0:
        num, den = frac
        body = f"{abs(num)}" if den == 1 else f"{abs(num)}/{den}"
        parts.append(("-" if num < 0 else "+") + body + "*pi")
    text = "".join(parts).lstrip("+")
    return text or "0"


@lru_cache(maxsize=4096)
def text_to_param(text: str) -> Param:
    """Parse the text form back into the identical Param; ValueError when malformed."""
    s = text.replace(" ", "")
    pos, out = 0, Param()
    if not s:
        raise ValueError("empty angle")
    while pos < len(s):
        mt = _TERM.match(s, pos)
        if not mt or mt.end() == pos or (pos > 0 and s[pos] not in "+-"):
            raise ValueError(f"bad angle text {text!r} at {s[pos:]!r}")
        g = mt.groups()
        if g[2] is not None:
            if len(g[2]) > 6 or (g[1] and len(g[1]) > 9):
                raise ValueError(f"angle {text!r:.40} has a symbol index or coefficient out of range")
            k = int(g[1] or 1) * (-1 if g[0] == "-" else 1)
            out = out + Param.symbol(int(g[2]), k)
        elif g[4] is not None:
            num = int(g[4]) * (-1 if g[3] == "-" else 1)
            out = out + Param.pi(num, int(g[5] or 1))
        elif g[6] is not None:
            out = out + Param.pi(-1 if g[6] == "-" else 1, int(g[7] or 1))
        elif g[9] is not None:
            x = float(g[9])
            out = out + Param.radians(-x if g[8] == "-" else x)
        pos = mt.end()
    return out
