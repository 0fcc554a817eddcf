"""Fuzz worker process: reads one JSON case per line on stdin, answers one JSON line each.

Run by tests/fuzz/harness.py in a subprocess, so that a crash of the native module or a hang
is seen by the parent as a failed case instead of taking pytest down. A case is
{"kind": "qasm"|"ecc", "text": ...}; the answer is {"outcome": "ok"|"rejected"|"bad",
"detail": ...}: "rejected" = a QuartzError with a message (the right answer for bad input),
"bad" = anything a user must never see (another exception type, an empty message, or an
accepted input that does not give the circuit Qiskit parsed).
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile
import traceback

MAX_SIM_QUBITS = 8

_ALIASES = {"u": "u3", "cu1": "cp", "cnot": "cx", "toffoli": "ccx", "phase": "p"}


def _reference_instructions():
    """Qiskit's legacy qelib1 gates plus the benchmark-file gates, defined here independently."""
    from qiskit import qasm2
    from qiskit.circuit.library import CCZGate, RXGate, RXXGate, RYGate, RYYGate, RZZGate

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
    have = {ci.name for ci in qasm2.LEGACY_CUSTOM_INSTRUCTIONS}
    return list(qasm2.LEGACY_CUSTOM_INSTRUCTIONS) + [ci for ci in extra if ci.name not in have]


def _reference_parse(text: str):
    if re.match(r"\s*(//[^\n]*\n\s*)*OPENQASM\s+3", text):
        from qiskit import qasm3

        return qasm3.loads(text)
    from qiskit import qasm2

    return qasm2.loads(text, custom_instructions=_reference_instructions(), strict=False)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _compare_with_qiskit(circ, text: str) -> str | None:
    """None if `circ` is the circuit qiskit reads from `text`, else what differs."""
    try:
        ref = _reference_parse(text)
    except Exception as e:
        return f"quartz accepted text that qiskit rejects: {type(e).__name__}: {e}"
    gates = [(_ALIASES.get(i.operation.name, i.operation.name), i.qubits, i.operation.params)
             for i in ref.data if i.operation.name not in ("id", "i")]
    if circ.num_qubits != ref.num_qubits:
        return f"{circ.num_qubits} qubits, qiskit has {ref.num_qubits}"
    if len(circ) != len(gates):
        return f"{len(circ)} gates, qiskit has {len(gates)}"
    index = {q: k for k, q in enumerate(ref.qubits)}
    for k, (g, (name, qubits, params)) in enumerate(zip(circ, gates)):
        if g.name != name or list(g.qubits) != [index[q] for q in qubits]:
            return f"gate {k}: {g.name}{g.qubits}, qiskit has {name}{[index[q] for q in qubits]}"
        ours = [float(p) for p in g.params]
        theirs = [float(p) for p in params]
        if len(ours) != len(theirs) or not all(_close(a, b) for a, b in zip(ours, theirs)):
            return f"gate {k} ({g.name}): angles {ours}, qiskit has {theirs}"
    if not _close(float(circ.global_phase), float(ref.global_phase)) and not re.search(
            r"//\s*quartz:\s*global_phase", text):
        return f"global phase {float(circ.global_phase)}, qiskit has {float(ref.global_phase)}"
    if circ.num_qubits <= MAX_SIM_QUBITS:
        import numpy as np
        from qiskit.quantum_info import Operator

        mine = circ.unitary()
        if not np.allclose(mine, Operator(circ.to_qiskit()).data, atol=1e-8):
            return "native unitary differs from qiskit's Operator of the same circuit"
    return None


def _exercise(circ) -> str | None:
    """Run the native operations on an accepted circuit; report a broken invariant."""
    import quartz

    circ.canonical(), circ.structural_hash(), circ.depth, circ.count_ops(), circ.inverse()
    if not circ.num_symbols:
        text = quartz.dumps(circ)
        back = quartz.loads(text)
        if back != circ:
            return "dumps/loads round trip changed the circuit"
    return None


def _rejection(e: Exception) -> tuple[str, str]:
    """A QuartzError is the right answer to bad input, if its message says something."""
    msg = str(e)
    if len(msg.strip()) < 8:
        return "bad", f"QuartzError with an unclear message: {msg!r}"
    return "rejected", msg


def _check_qasm(text: str) -> tuple[str, str]:
    import quartz
    from quartz.errors import QuartzError

    try:
        circ = quartz.loads(text)
    except QuartzError as e:
        return _rejection(e)
    problem = _compare_with_qiskit(circ, text) or _exercise(circ)
    return ("bad", problem) if problem else ("ok", f"{circ.num_qubits} qubits, {len(circ)} gates")


def _check_ecc(text: str) -> tuple[str, str]:
    from quartz import ecc_sets
    from quartz.errors import QuartzError

    fd, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            ecc_set = ecc_sets.read(path)
        except QuartzError as e:
            return _rejection(e)
        # Accepted: every circuit must be a well-formed circuit of the set's size, and the set
        # must survive a write/read round trip unchanged.
        for ecc in ecc_set.classes:
            for c in ecc.circuits:
                if c.num_qubits > ecc_set.q:
                    return "bad", f"a circuit has {c.num_qubits} qubits in a set with q={ecc_set.q}"
                _exercise(c)
        back_path = path + ".back.json"
        try:
            ecc_sets.write(ecc_set, back_path)
            back = ecc_sets.read(back_path)
        finally:
            if os.path.exists(back_path):
                os.unlink(back_path)
        if [[c.structural_hash() for c in e.circuits] for e in back.classes] != \
                [[c.structural_hash() for c in e.circuits] for e in ecc_set.classes]:
            return "bad", "write/read round trip changed the set"
        return "ok", f"{len(ecc_set.classes)} classes"
    finally:
        os.unlink(path)


def main() -> None:
    import quartz  # noqa: F401 - imported before "ready", so start-up is not billed to a case
    from qiskit import qasm2  # noqa: F401

    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        case = json.loads(line)
        if case["kind"] == "_segfault":  # self-test of the harness: a real native crash
            import ctypes

            ctypes.string_at(0)
        if case["kind"] == "_hang":  # self-test of the harness: no answer
            import time

            time.sleep(3600)
        try:
            check = _check_qasm if case["kind"] == "qasm" else _check_ecc
            outcome, detail = check(case["text"])
        except Exception as e:
            outcome = "bad"
            detail = f"{type(e).__name__}: {e}\n" + "".join(traceback.format_exc(limit=6))
        sys.stdout.write(json.dumps({"outcome": outcome, "detail": detail[:2000]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
