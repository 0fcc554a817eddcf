"""OpenQASM 2/3 input (through qiskit's parsers) and exact OpenQASM 2 output.

Gates outside qelib1 that benchmark files use are declared to the parser: ccz, rxx/ryy/rzz, and
Quartz's fixed rotations rx1 = rx(pi/2), rx3 = rx(3*pi/2), ry1 = ry(pi/2), ry3 = ry(3*pi/2)
(exactly Quartz's matrices; note rx(3*pi/2) = -rx(-pi/2)). QASM 2 has no global phase, so `dumps` records it in a
`// quartz: global_phase = ...` comment that `loads` reads back.

>>> from quartz.qasm import loads, dumps
>>> c = loads('OPENQASM 2.0; include "qelib1.inc"; qreg q[1]; rz(pi*-0.25) q[0];')
>>> print(dumps(c).splitlines()[-1])
rz(-pi/4) q[0];
"""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

from quartz.angles import format_angle, parse_angle
from quartz.circuit import Circuit
from quartz.errors import QasmError, QuartzError

_PHASE_RE = re.compile(r"^\s*//\s*quartz:\s*global_phase\s*=\s*(\S+)\s*$", re.M)
_LOCATION_RE = re.compile(r":(\d+),(\d+):\s*")


def _custom_instructions():
    from qiskit import qasm2
    from qiskit.circuit.library import CCZGate, RXGate, RYGate, RYYGate, RZZGate, RXXGate

    have = {ci.name for ci in qasm2.LEGACY_CUSTOM_INSTRUCTIONS}
    extra = [
        qasm2.CustomInstruction("ccz", 0, 3, CCZGate, builtin=True),
        qasm2.CustomInstruction("rx1", 0, 1, lambda: RXGate(math.pi / 2), builtin=True),
        qasm2.CustomInstruction("rx3", 0, 1, lambda: RXGate(3 * math.pi / 2), builtin=True),
        qasm2.CustomInstruction("ry1", 0, 1, lambda: RYGate(math.pi / 2), builtin=True),
        qasm2.CustomInstruction("ry3", 0, 1, lambda: RYGate(3 * math.pi / 2), builtin=True),
        qasm2.CustomInstruction("rxx", 1, 2, RXXGate, builtin=True),
        qasm2.CustomInstruction("ryy", 1, 2, RYYGate, builtin=True),
        qasm2.CustomInstruction("rzz", 1, 2, RZZGate, builtin=True),
    ]
    return list(qasm2.LEGACY_CUSTOM_INSTRUCTIONS) + [ci for ci in extra if ci.name not in have]


def _line_of_instruction(text: str, name: str) -> int | None:
    pat = re.compile(r"^\s*" + re.escape(name) + r"\b")
    for i, line in enumerate(text.splitlines(), 1):
        if pat.match(line):
            return i
    return None


def loads(text: str, source: str = "<string>", name: str | None = None) -> Circuit:
    """Parse OpenQASM 2 or 3 text into a Circuit; errors name the source and line."""
    from quartz.qiskit_convert import UnsupportedInstruction, from_qiskit

    if not text.strip():
        raise QasmError("empty input, expected an OpenQASM program", source)
    is_v3 = re.match(r"\s*(//[^\n]*\n\s*)*OPENQASM\s+3", text) is not None
    try:
        if is_v3:
            from qiskit import qasm3

            qc = qasm3.loads(text)
        else:
            from qiskit import qasm2

            qc = qasm2.loads(text, custom_instructions=_custom_instructions(), strict=False)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # qiskit's parse errors carry "<input>:LINE,COL: message"
        msg = str(e).strip()
        if not isinstance(e, Exception):  # a panic in qiskit's Rust parser (e.g. a huge index)
            first = msg.splitlines()[0] if msg else type(e).__name__
            msg = f"the QASM parser failed on this input ({first})"
        m = _LOCATION_RE.search(msg)
        line = int(m.group(1)) if m else None
        if m:
            msg = msg[m.end():]
        if "unknown" in msg.lower() or "not defined" in msg.lower():
            msg = f"{msg} (quartz reads qelib1 gates plus ccz, rx1, rx3, ry1, ry3)"
        raise QasmError(msg or type(e).__name__, source, line) from None
    try:
        circ = from_qiskit(qc, name=name)
    except UnsupportedInstruction as e:
        raise QasmError(f"unsupported instruction '{e.instruction}'", source,
                        _line_of_instruction(text, e.instruction)) from None
    except QuartzError as e:
        raise QasmError(str(e), source) from None
    m = _PHASE_RE.search(text)
    if m:
        try:
            circ.global_phase = circ.global_phase + parse_angle(m.group(1))
        except ValueError as e:
            raise QasmError(f"bad global phase comment: {e}", source,
                            text[: m.start()].count("\n") + 1) from None
    return circ


def load(path_or_text: str | os.PathLike) -> Circuit:
    """Read a QASM file (by path) or a QASM string."""
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text and ";" not in path_or_text
    ):
        path = Path(path_or_text)
        try:
            text = path.read_text()
        except OSError as e:
            raise QuartzError(f"cannot read {path}: {e.strerror}") from None
        return loads(text, source=str(path), name=path.stem)
    return loads(str(path_or_text))


def dumps(circ: Circuit) -> str:
    """OpenQASM 2 text of a concrete circuit that reads back to an equal circuit."""
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";']
    gp = circ.global_phase
    if not (gp.pi_fraction == (0, 1)):
        lines.append(f"// quartz: global_phase = {format_angle(gp)}")
    lines.append(f"qreg q[{circ.num_qubits}];")
    for g in circ:
        qs = ",".join(f"q[{q}]" for q in g.qubits)
        if g.params:
            lines.append(f"{g.name}({','.join(format_angle(p) for p in g.params)}) {qs};")
        else:
            lines.append(f"{g.name} {qs};")
    return "\n".join(lines) + "\n"


def dump(circ: Circuit, path: str | os.PathLike) -> None:
    """Write OpenQASM 2 to a file atomically (no partial file on failure)."""
    from quartz.io_utils import atomic_write_text

    atomic_write_text(path, dumps(circ))
