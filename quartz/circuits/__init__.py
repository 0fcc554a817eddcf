"""Benchmark circuit families, generated here in any gate set (no external files needed).

`FAMILIES` maps a family name to a generator `f(n, gate_set="nam") -> quartz.Circuit`;
`family(name, sizes, gate_set)` yields (circuit name, circuit) pairs, e.g. for `quartz bench`.
Circuit names follow the standard benchmark files (tof_3, barenco_tof_3, gf2^4_mult, ...).

>>> from quartz import circuits
>>> [(name, len(c)) for name, c in circuits.family("tof", [3, 4])]
[('tof_3', 45), ('tof_4', 75)]
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

from quartz import Circuit
from quartz.errors import QuartzError

from quartz.circuits.adders import cuccaro_adder, vbe_adder
from quartz.circuits.gf2 import gf2_mult
from quartz.circuits.grover import grover
from quartz.circuits.mcx import mcx
from quartz.circuits.qft import qft
from quartz.circuits.random_circuits import random_clifford_t, random_rotations
from quartz.circuits.toffoli import barenco_tof_n, tof_n

FAMILIES: dict[str, Callable[..., Circuit]] = {
    "tof": tof_n,
    "barenco_tof": barenco_tof_n,
    "vbe_adder": vbe_adder,
    "cuccaro_adder": cuccaro_adder,
    "qft": qft,
    "gf2_mult": gf2_mult,
    "mcx": mcx,
    "grover": grover,
    "random_clifford_t": random_clifford_t,
    "random_rotations": random_rotations,
}

# Sizes used when `family()` gets none: small enough for a quick run on a laptop.
DEFAULT_SIZES: dict[str, tuple[int, ...]] = {
    "tof": (3, 4, 5, 10), "barenco_tof": (3, 4, 5, 10), "vbe_adder": (3, 4, 5),
    "cuccaro_adder": (3, 4, 6, 8), "qft": (4, 6, 8), "gf2_mult": (4, 5, 6, 7, 8),
    "mcx": (3, 4, 5), "grover": (3, 4, 5), "random_clifford_t": (3, 4, 5),
    "random_rotations": (3, 4, 5),
}


def parse_sizes(sizes: str | int | Iterable[int] | None, name: str) -> list[int]:
    """Sizes from ints, an iterable, or text like '3,4,5' or '3-6'; None gives the defaults."""
    if sizes is None:
        return list(DEFAULT_SIZES[name])
    if isinstance(sizes, int) and not isinstance(sizes, bool):
        return [sizes]
    if isinstance(sizes, str):
        out: list[int] = []
        try:
            for part in sizes.replace(" ", "").split(","):
                if "-" in part:
                    lo, hi = part.split("-")
                    out.extend(range(int(lo), int(hi) + 1))
                elif part:
                    out.append(int(part))
        except ValueError:
            raise QuartzError(f"bad sizes '{sizes}': use e.g. '3,4,5' or '3-6'") from None
        return out
    return [int(s) for s in sizes]


def family(name: str, sizes: str | int | Iterable[int] | None = None,
           gate_set: str = "nam") -> Iterator[tuple[str, Circuit]]:
    """Yield (circuit name, circuit) for each size of the family `name` in `gate_set`."""
    key = name.strip().lower().replace("-", "_")
    if key not in FAMILIES:
        raise QuartzError(f"unknown circuit family '{name}'; families: {', '.join(FAMILIES)}")
    for n in parse_sizes(sizes, key):
        c = FAMILIES[key](n, gate_set=gate_set)
        yield c.name, c


__all__ = ["FAMILIES", "DEFAULT_SIZES", "family", "parse_sizes", "tof_n", "barenco_tof_n",
           "vbe_adder", "cuccaro_adder", "qft", "gf2_mult", "mcx", "grover", "random_clifford_t",
           "random_rotations"]
