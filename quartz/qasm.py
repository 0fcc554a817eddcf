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
from typing import TYPE_CHECKING, Any

from quartz._core import Param
from quartz.angles import format_angle, parse_angle
from quartz.circuit import FORMATS, GATE_NAMES, Circuit
from quartz.errors import QasmError, QuartzError

if TYPE_CHECKING:  # pragma: no cover
    from qiskit import QuantumCircuit

_PHASE_RE = re.compile(r"^\s*//\s*quartz:\s*global_phase\s*=\s*(\S+)\s*$", re.M)
_LOCATION_RE = re.compile(r"(?:<[^>]*>:|^|:)(\d+),(\d+):\s*")


def _custom_instructions() -> list[Any]:
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


_STATEMENT_RE = re.compile(r"([A-Za-z_]\w*)\s*(\(([^()]*(\([^()]*\)[^()]*)*)\))?\s*([^;]*);")
_NON_GATE = {"OPENQASM", "include", "qreg", "creg", "gate", "opaque", "if", "qubit", "bit",
             "input", "output", "def", "let", "const"}


def _strip_comments(text: str) -> str:
    """The text with // and /* */ comments blanked out (newlines kept, so lines still match)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _statements(text: str) -> list[tuple[int, str, str | None, str]]:
    """(line, name, angle text or None, operands) of every top-level gate-like statement."""
    clean = _strip_comments(text)
    out, depth, pos = [], 0, 0
    while pos < len(clean):
        ch = clean[pos]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch.isalpha() or ch == "_":
            m = _STATEMENT_RE.match(clean, pos)
            end = clean.find(";", pos)
            if m is None or (end >= 0 and m.end() > end + 1):
                pos = (end if end >= 0 else len(clean)) + 1
                continue
            if depth == 0 and m.group(1) not in _NON_GATE:
                out.append((clean.count("\n", 0, pos) + 1, m.group(1), m.group(3), m.group(5)))
            pos = m.end()
            continue
        pos += 1
    return out


def _line_of_operation(text: str, name: str, index: int, num_ops: int) -> int | None:
    """Best guess of the line of qiskit operation `index` (named `name`) in the QASM text."""
    stmts = _statements(text)
    if len(stmts) == num_ops and 0 <= index < num_ops and stmts[index][1] == name:
        return stmts[index][0]
    for line, n, _, _ in stmts:
        if n == name:
            return line
    for line, content in enumerate(_strip_comments(text).splitlines(), 1):
        if re.search(r"\b" + re.escape(name) + r"\b", content):
            return line
    return None


def _check_statements(text: str) -> tuple[int, str] | None:
    """(line, message) of the first statement that is visibly wrong: a known gate with the wrong
    number of angles or qubits, a qubit index past its register, an angle that does not
    evaluate, or a last statement cut off before its ';'."""
    from quartz._core import gate_info

    regs = {}
    for m in re.finditer(r"\bqreg\s+(\w+)\s*\[\s*(\d+)\s*\]|\bqubit\s*\[\s*(\d+)\s*\]\s*(\w+)",
                         _strip_comments(text)):
        name, size = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        regs[name] = int(size)
    fixed = {"rx1": 0, "rx3": 0, "ry1": 0, "ry3": 0}
    for line, name, angles, operands in _statements(text):
        gname = _ALIASES_IN.get(name, name)
        if gname in GATE_NAMES:
            want_angles, want_qubits = gate_info(gname)[1], gate_info(gname)[0]
        elif gname in fixed:
            want_angles, want_qubits = 0, 1
        else:
            continue
        args = [] if angles is None or not angles.strip() else angles.split(",")
        if len(args) != want_angles:
            return line, f"gate '{name}' takes {want_angles} angle(s), got {len(args)}"
        ops = [o.strip() for o in operands.split(",") if o.strip()]
        if len(ops) != want_qubits:
            return line, f"gate '{name}' takes {want_qubits} qubit(s), got {len(ops)}"
        for o in ops:
            q = re.fullmatch(r"(\w+)\s*\[\s*(\d+)\s*\]", o)
            if q and q.group(1) in regs and int(q.group(2)) >= regs[q.group(1)]:
                return line, (f"gate '{name}': qubit {o} is out of range for register "
                              f"'{q.group(1)}' of size {regs[q.group(1)]}")
        for a in args:
            if re.fullmatch(r"[\s\d.eE+\-*/()pi]*", a):
                try:
                    parse_angle(a)
                except ValueError as e:
                    return line, f"bad angle '{a.strip()}' of gate '{name}': {e}"
    clean = _strip_comments(text).rstrip()
    if clean and clean[-1] not in ";}":
        return clean.count("\n") + 1, "unexpected end of input (statement not terminated by ';')"
    return None


_ALIASES_IN = {"u": "u3", "cu1": "cp", "phase": "p"}


def _parse_error(e: Exception, text: str, source: str, captured: str) -> QasmError:
    msg = str(e).strip()
    if len(msg) >= 2 and msg[0] == msg[-1] and msg[0] in "\"'":
        msg = msg[1:-1]
    m = _LOCATION_RE.search(msg)
    line = int(m.group(1)) if m else None
    if m:
        msg = (msg[: m.start()] + msg[m.end():]).strip()
    m2 = re.search(r"line (\d+):(\d+) (.*)", captured)
    if line is None and m2:  # OpenQASM 3 syntax errors are printed by the ANTLR parser
        line, msg = int(m2.group(1)), m2.group(3).strip()
    if line is None:
        found = _check_statements(text)
        if found:
            line, msg = found
    if "not defined" in msg.lower() or "unknown" in msg.lower():
        msg = f"{msg} (quartz reads qelib1 gates plus ccz, rxx, ryy, rzz, rx1, rx3, ry1, ry3)"
    if line is None and ("end-of-file" in msg or "EOF" in msg):
        line = text.count("\n") + 1
    if line is not None:  # name the offending gate when the message does not
        names = [n for ln, n, _, _ in _statements(text) if ln == line]
        lines = _strip_comments(text).splitlines()
        if not names and 0 < line <= len(lines):
            first = re.match(r"\s*([A-Za-z_]\w*)", lines[line - 1])
            if first and first.group(1) not in _NON_GATE:
                names = [first.group(1)]
        if names and f"'{names[0]}'" not in msg:
            msg = f"{msg} (gate '{names[0]}')"
    return QasmError(msg or type(e).__name__, source, line)


def parse_qiskit(text: str, source: str = "<string>") -> QuantumCircuit:
    """Parse OpenQASM 2 or 3 text into a Qiskit QuantumCircuit (quartz's gate definitions
    included); errors name the source, line and gate."""
    import contextlib
    import io
    import warnings

    if not _strip_comments(text).strip():
        raise QasmError("empty input, expected an OpenQASM program", source)
    is_v3 = re.match(r"\s*(//[^\n]*\n\s*)*OPENQASM\s+3", text) is not None
    captured = io.StringIO()
    try:
        with contextlib.redirect_stderr(captured), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if is_v3:
                from qiskit import qasm3

                return qasm3.loads(text)
            from qiskit import qasm2

            return qasm2.loads(text, custom_instructions=_custom_instructions(), strict=False)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # qiskit's parse errors carry "<input>:LINE,COL: message"
        if not isinstance(e, Exception):  # a panic in qiskit's Rust parser (e.g. a huge index)
            msg = str(e).strip()
            first = msg.splitlines()[0] if msg else type(e).__name__
            e = RuntimeError(f"the QASM parser failed on this input ({first})")
        raise _parse_error(e, text, source, captured.getvalue()) from None


def loads(text: str, source: str = "<string>", name: str | None = None) -> Circuit:
    """Parse OpenQASM 2 or 3 text into a Circuit; errors name the source, line and gate."""
    out = _loads(text, source, name, False)
    assert isinstance(out, Circuit)
    return out


def _loads(text: str, source: str, name: str | None, measured: bool) -> Circuit | QuantumCircuit:
    """loads(); measured=True returns the QuantumCircuit instead when it has measurements,
    resets or classical control (quartz.segments: what optimize() takes in segments)."""
    from quartz.qiskit_convert import BadAngle, UnsupportedInstruction, from_qiskit

    qc = parse_qiskit(text, source)
    if measured:
        from quartz.segments import needs_segments

        if needs_segments(qc):
            return qc
    try:
        circ = from_qiskit(qc, name=name)
    except UnsupportedInstruction as e:
        raise QasmError(f"unsupported instruction '{e.instruction}'", source,
                        _line_of_operation(text, e.instruction, e.index, len(qc.data))) from None
    except BadAngle as e:
        msg = str(e).split(": ", 1)[-1]
        raise QasmError(f"bad angle of gate '{e.instruction}': {msg}", source,
                        _line_of_operation(text, e.instruction, e.index, len(qc.data))) from None
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


def load(path_or_text: str | os.PathLike[str]) -> Circuit:
    """Read a QASM file (by path) or a QASM string. A file must be UTF-8 text of at most
    $QUARTZ_MAX_INPUT_MB megabytes (default 100); else a QuartzError names it and the problem."""
    out = _load(path_or_text, False)
    assert isinstance(out, Circuit)
    return out


def load_measured(path_or_text: str | os.PathLike[str]) -> Circuit | QuantumCircuit:
    """load(), but a program with measurements, resets or classical control comes back as a
    Qiskit QuantumCircuit (quartz.segments) instead of raising."""
    return _load(path_or_text, True)


def _load(path_or_text: str | os.PathLike[str], measured: bool) -> Circuit | QuantumCircuit:
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text and ";" not in path_or_text
    ):
        from quartz.io_utils import read_input_text

        path = Path(path_or_text)
        # UTF-8 text, its size checked before it is read ($QUARTZ_MAX_INPUT_MB, default 100)
        text = read_input_text(path)
        return _loads(text, str(path), path.stem, measured)
    return _loads(str(path_or_text), "<string>", None, measured)


def dumps(circ: Circuit) -> str:
    """OpenQASM 2 text of a concrete circuit that reads back to an equal circuit."""
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";']
    gp = circ.global_phase
    if not (gp.pi_fraction == (0, 1)):
        lines.append(f"// quartz: global_phase = {format_angle(gp)}")
    lines.append(f"qreg q[{circ.num_qubits}];")
    texts: dict[Param, str] = {}  # Param -> its QASM text (circuits repeat few distinct angles)
    for name, qubits, params in circ.native.gates():
        qs = ",".join(f"q[{q}]" for q in qubits)
        if params:
            angles = []
            for p in params:
                t = texts.get(p)
                if t is None:
                    t = texts[p] = format_angle(p)
                angles.append(t)
            lines.append(f"{name}({','.join(angles)}) {qs};")
        else:
            lines.append(f"{name} {qs};")
    return "\n".join(lines) + "\n"


def dump(circ: Circuit, path: str | os.PathLike[str]) -> None:
    """Write OpenQASM 2 to a file atomically (no partial file on failure)."""
    from quartz.io_utils import atomic_write_text

    atomic_write_text(path, dumps(circ))


FORMATS.load_qasm, FORMATS.dumps_qasm = load, dumps  # Circuit.from_qasm, Circuit.to_qasm
