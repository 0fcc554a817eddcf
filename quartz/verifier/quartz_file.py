"""Tolerant reader of Quartz's ECC JSON (v0.2.0+ and legacy): one problem per class, no crash.

Quartz stores half angles for rx, ry, rz and u3's theta (its rz(t) = diag(e^{-it}, e^{it})), so
those parameters are doubled into quartz's full-angle convention. A class with an unknown gate,
a wrong number of wires or a bad parameter reference is kept as a problem with its id (e.g.
"4_3") so that `quartz verify` can report it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction

from quartz._core import Param, gate_info
from quartz.angles import to_param
from quartz.circuit import GATE_NAMES, Circuit
from quartz.errors import QuartzError

HALVED = {"rx": (0,), "ry": (0,), "rz": (0,), "u3": (0,)}
FIXED = {  # Quartz gates with a built-in angle -> (quartz gate, full angle in units of pi)
    "rx1": ("rx", Fraction(1, 2)), "rx3": ("rx", Fraction(3, 2)),
    "ry1": ("ry", Fraction(1, 2)), "ry3": ("ry", Fraction(3, 2)),
    "rxx1": ("rxx", Fraction(1, 2)), "rxx3": ("rxx", Fraction(3, 2)),
}
RENAMED = {"cu1": "cp"}


@dataclass
class QuartzClass:
    """One class of the file: its id, circuits (None when corrupt) and the problem found."""

    label: str
    circuits: list[Circuit] | None
    problem: str = ""


@dataclass
class QuartzFile:
    """Header values and classes of a Quartz ECC file."""

    classes: list[QuartzClass] = field(default_factory=list)
    num_symbols: int = 0
    gates: tuple[str, ...] = ()
    max_qubits: int = 0


def looks_like_quartz(data) -> bool:
    """True for Quartz's top-level [param table, {class id: circuits}] layout."""
    return isinstance(data, list) and len(data) == 2 and isinstance(data[1], dict)


def _constant(v) -> Param:
    if isinstance(v, str):
        return Param.pi(Fraction(v).numerator, Fraction(v).denominator)
    return to_param(float(v))


def _param_table(head) -> tuple[dict[str, Param], int]:
    table: dict[str, Param] = {}
    nsym = 0
    if not head:
        return table, 0
    entries = head[0]
    if not isinstance(entries, list) or not entries or not isinstance(entries[0], int) \
            or entries[0] != len(entries) - 1:
        raise QuartzError("first row must be [N, entry 0, ..., entry N-1]")
    for k, e in enumerate(entries[1:]):
        name = f"P{k}"
        if e == "":
            table[name] = Param.symbol(nsym)
            nsym += 1
        elif isinstance(e, (int, float, str)):
            table[name] = _constant(e)
        elif isinstance(e, list) and len(e) == 3:
            _apply_op(table, e)
        else:
            raise QuartzError(f"parameter table entry {name} is not understood: {e!r}")
    return table, nsym


def _apply_op(table: dict[str, Param], op) -> None:
    name, outs, ins = op
    try:
        args = [table[x] for x in ins]
    except KeyError as e:
        raise QuartzError(f"parameter op {name} uses undefined {e.args[0]}") from None
    if name == "add":
        val = args[0]
        for a in args[1:]:
            val = val + a
    elif name == "neg" and len(args) == 1:
        val = -args[0]
    else:
        raise QuartzError(f"parameter op '{name}' is not supported")
    table[outs[0]] = val


def _circuit(entry, table: dict[str, Param], legacy_syms: list[int]) -> Circuit:
    meta, gates = entry
    nq = int(meta[0])
    local = dict(table)
    c = Circuit(nq)
    for gi, g in enumerate(gates):
        if not (isinstance(g, list) and len(g) == 3):
            raise QuartzError(f"gate {gi} is not [name, outputs, inputs]")
        name, outs, ins = g
        if name in ("add", "neg"):  # legacy files: parameter ops inline
            for x in ins:
                if x not in local and x.startswith("P"):
                    k = int(x[1:])
                    local[x] = Param.symbol(k)
                    legacy_syms.append(k)
            _apply_op(local, g)
            continue
        qubits = [int(x[1:]) for x in ins if x.startswith("Q")]
        pnames = [x for x in ins if x.startswith("P")]
        params = []
        for x in pnames:
            if x not in local:
                if table:
                    raise QuartzError(f"gate {gi} ({name}) uses undefined parameter {x}")
                local[x] = Param.symbol(int(x[1:]))
                legacy_syms.append(int(x[1:]))
            params.append(local[x])
        if name in FIXED:
            name, ang = FIXED[name]
            params = [Param.pi(ang.numerator, ang.denominator)] + params
        elif name == "pdg":
            name, params = "p", [-p for p in params]
        name = RENAMED.get(name, name)
        if name not in GATE_NAMES:
            raise QuartzError(f"gate {gi}: unknown gate '{g[0]}'")
        k, npar, _, _ = gate_info(name)
        if len(qubits) != k or len(params) != npar:
            raise QuartzError(f"gate {gi} ({g[0]}) has {len(qubits)} qubit(s) and {len(params)} "
                              f"parameter(s), expected {k} and {npar}")
        if any(not 0 <= q < nq for q in qubits) or len(set(qubits)) != k:
            raise QuartzError(f"gate {gi} ({g[0]}) has bad qubits {qubits} for {nq} qubit(s)")
        for slot in HALVED.get(name, ()):
            params[slot] = params[slot].scaled(2)
        c.append(name, qubits, params)
    return c


def parse_quartz(data) -> QuartzFile:
    """Parse Quartz's ECC JSON (already decoded); per-class problems instead of exceptions."""
    if not looks_like_quartz(data):
        raise QuartzError("not a Quartz ECC file (expected [parameter table, {class: circuits}])")
    try:
        table, nsym = _param_table(data[0])
    except (QuartzError, TypeError, ValueError, IndexError, ZeroDivisionError) as e:
        raise QuartzError(f"bad parameter table: {e}") from None
    out = QuartzFile(num_symbols=nsym)
    gates: set[str] = set()
    legacy_syms: list[int] = []
    for label, circuits in data[1].items():
        try:
            if not isinstance(circuits, list):
                raise QuartzError("class is not a list of circuits")
            cs = [_circuit(entry, table, legacy_syms) for entry in circuits]
        except (QuartzError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as e:
            out.classes.append(QuartzClass(str(label), None, str(e)))
            continue
        for c in cs:
            gates.update(g.name for g in c)
            out.max_qubits = max(out.max_qubits, c.num_qubits)
        out.classes.append(QuartzClass(str(label), cs))
    if legacy_syms:
        out.num_symbols = max(out.num_symbols, max(legacy_syms) + 1)
    out.gates = tuple(sorted(gates))
    return out


def read_quartz(path: str) -> QuartzFile:
    """Read a Quartz ECC JSON file (see parse_quartz)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise QuartzError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise QuartzError(f"{path}: not valid JSON ({e})") from None
    return parse_quartz(data)
