"""Benchmark suites: a folder of QASM files, or a family from `quartz.circuits`.

>>> from quartz.bench.suite import load_suite
>>> s = load_suite("tof", sizes="3,4")
>>> s.name, s.gate_set, [name for name, _ in s.circuits]
('tof', 'nam', ['tof_3', 'tof_4'])
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from quartz.circuit import Circuit
from quartz.errors import QuartzError
from quartz.gatesets import GATE_SETS, get_gate_set

# Folder names of the standard suites whose gate set is not their name.
_FOLDER_GATE_SETS = {"nam-ccz": "nam", "clifford-t": "clifford_t", "cliffordt": "clifford_t"}


@dataclass
class Suite:
    """Named circuits and the gate set they are optimized in."""

    name: str
    gate_set: str
    circuits: list[tuple[str, Circuit]]


def _natural_key(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def circuits_package():
    """The package of benchmark families, `quartz.circuits`."""
    return importlib.import_module("quartz.circuits")


def infer_gate_set(folder: Path, circuits: list[tuple[str, Circuit]]) -> str:
    """The suite's gate set: from the folder name, else the built-in set that fits the gates best."""
    key = folder.name.lower()
    if key in _FOLDER_GATE_SETS:
        return _FOLDER_GATE_SETS[key]
    if key in GATE_SETS:
        return key
    used = {g.name for _, c in circuits for g in c}
    # The built-in set that covers the most of the gates used (ties: the smaller set).
    best = max(GATE_SETS.values(), key=lambda gs: (len(used & set(gs.gates)), -len(gs.gates)))
    return best.name


def _from_folder(folder: Path, gate_set: str | None, limit: int | None) -> Suite:
    files = list(folder.glob("*.qasm"))
    if not files:
        raise QuartzError(f"no .qasm files in {folder}")
    from quartz.qasm import load

    circuits = sorted(((p.stem, load(p)) for p in files), key=lambda nc: (len(nc[1]), _natural_key(nc[0])))
    if limit is not None:
        circuits = [(n, c) for n, c in circuits if len(c) <= limit]
        if not circuits:
            raise QuartzError(f"no circuit in {folder} has at most {limit} gates")
    gs = get_gate_set(gate_set).name if gate_set else infer_gate_set(folder, circuits)
    return Suite(folder.name, gs, circuits)


def load_suite(spec: str, *, sizes: str | None = None, gate_set: str | None = None,
               max_gates: int | None = None) -> Suite:
    """A suite from a folder path or a family name ('tof', 'qft:4,6', ...)."""
    path = Path(spec)
    if path.is_dir():
        if sizes:
            raise QuartzError("--sizes applies to circuit families, not to a folder of QASM files")
        return _from_folder(path, gate_set, max_gates)
    if path.suffix == ".qasm" or "/" in spec or path.exists():
        raise QuartzError(f"{spec} is not a folder of QASM files"
                          + ("" if path.exists() else " (no such folder)"))
    name, _, inline_sizes = spec.partition(":")
    pkg = circuits_package()
    key = name.strip().lower().replace("-", "_")
    if key not in pkg.FAMILIES:
        raise QuartzError(f"'{spec}' is neither a folder nor a circuit family; families: "
                          f"{', '.join(pkg.FAMILIES)}")
    gs = get_gate_set(gate_set or "nam").name
    circuits = list(pkg.family(key, sizes or inline_sizes or None, gate_set=gs))
    if max_gates is not None:
        circuits = [(n, c) for n, c in circuits if len(c) <= max_gates]
    if not circuits:
        raise QuartzError(f"family '{key}' gave no circuits for sizes {sizes or inline_sizes}")
    return Suite(key, gs, circuits)


__all__ = ["Suite", "load_suite", "infer_gate_set", "circuits_package"]
