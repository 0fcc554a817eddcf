"""Corrupted ECC files: each kind is refused with one clear QuartzError line naming the file,
never a traceback, and never used (quartz.optimize and `quartz optimize --ecc` refuse it too).

Every case starts from the shipped nam_3_3 set (its classes: 1 = {(empty), cx(0,1) cx(0,1),
cx(1,0) cx(1,0)}, 2 = {rz(p0+p1), rz(p0) rz(p1), rz(p1) rz(p0)}, 3 = {x(0) x(1), cx x(0) cx,
...}, 4 = {x(0) cx(0,1), x(1) cx(0,1) x(0)})."""
from __future__ import annotations

import copy
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

import quartz
from quartz import Circuit, QuartzError
from quartz.ecc_sets import files, load, loads, read

REPO = Path(__file__).resolve().parents[2]
BASE = json.loads(gzip.decompress((REPO / "quartz" / "data" / "nam_3_3.json.gz").read_bytes()))


def gates(obj: dict, k: int, j: int) -> list:
    return obj["classes"][k]["circuits"][j]["gates"]


def edit(fn: Callable[[dict], None]) -> Callable[[], bytes]:
    """A case that edits a copy of the set's JSON object."""
    def make() -> bytes:
        obj = copy.deepcopy(BASE)
        fn(obj)
        return json.dumps(obj).encode()
    return make


def text(t: bytes) -> Callable[[], bytes]:
    return lambda: t


def _set(path: list, value) -> Callable[[dict], None]:
    def fn(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return fn


GOOD_TEXT = json.dumps(BASE).encode()

# kind -> (file bytes, a piece of the expected message)
CASES: dict[str, tuple[Callable[[], bytes], str]] = {
    # false identities, still marked proven: found by the verifier
    "wrong gate": (edit(lambda o: gates(o, 3, 1)[1].__setitem__(0, "h")),
                   "class 3 is marked proven but is false"),
    "swapped qubits": (edit(lambda o: gates(o, 4, 1)[1].__setitem__(1, [1, 0])),
                       "class 4 is marked proven but is false"),
    "wrong angle": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["p0-p1"])),
                    "class 2 is marked proven but is false"),
    "wrong phase": (edit(_set(["classes", 2, "circuits", 1, "phase"], "1/2*pi")),
                    "stored phase 1/2*pi is wrong"),
    "wrong global phase": (edit(_set(["classes", 1, "circuits", 1, "global_phase"], "pi")),
                           "class 1 is marked proven but is false"),
    "dropped gate": (edit(lambda o: gates(o, 4, 1).pop()), "class 4 is marked proven but is false"),
    # structure
    "truncated JSON": (lambda: GOOD_TEXT[: len(GOOD_TEXT) // 2], "not JSON"),
    "truncated gzip": (lambda: gzip.compress(GOOD_TEXT)[:300], "corrupt gzip data"),
    "empty file": (text(b""), "not JSON"),
    "non-UTF-8 bytes": (lambda: GOOD_TEXT.replace(b'"cx"', b'"c\xff"', 1),
                        "is not a text file (not UTF-8) at byte"),
    "deep nesting": (text(b"[" * 100000), "nested too deeply"),
    "not an ECC file": (text(b'{"hello": 1}'), "not a quartz ECC set file"),
    "newer format version": (edit(_set(["format_version"], 99)), "format version 99 is newer"),
    "classes not a list": (edit(_set(["classes"], {"0": []})), "classes must be a list"),
    "circuit not an object": (edit(_set(["classes", 0, "circuits", 0], [1, []])),
                              "class 0: circuit 0: a circuit must be an object"),
    "empty class": (edit(_set(["classes", 3, "circuits"], [])), "class 3: a class must have"),
    "duplicate classes": (edit(lambda o: o["classes"].append(copy.deepcopy(o["classes"][3]))),
                          "class 23 circuit 0 [x(0) x(1)] repeats class 3 circuit 0"),
    "duplicate circuit in a class": (
        edit(lambda o: o["classes"][4]["circuits"].append(copy.deepcopy(o["classes"][4]["circuits"][0]))),
        "class 4 circuit 2 [x(0) cx(0,1)] repeats class 4 circuit 0"),
    # gate set
    "gate outside the gate set": (edit(_set(["gate_set"], ["h", "x", "rz"])),
                                  "class 1: circuit 1 uses gate 'cx', not in the set's gate_set"),
    "unknown gate in the gate set": (edit(_set(["gate_set"], ["h", "x", "rz", "cx", "warp"])),
                                     "gate_set names an unknown gate 'warp'"),
    "gate set as a string": (edit(_set(["gate_set"], "nam")), "gate_set must be a non-empty list"),
    "unknown gate": (edit(lambda o: gates(o, 3, 1)[1].__setitem__(0, "warp")),
                     "class 3: circuit 1: unknown gate 'warp'"),
    # sizes and ranges
    "huge qubit count": (edit(_set(["classes", 1, "circuits", 1, "qubits"], 10**9)),
                         "qubits must be between 0 and 3, got 1000000000"),
    "huge q": (edit(_set(["q"], 10**6)), "q must be between 0 and 16"),
    "more qubits than q": (edit(_set(["classes", 1, "circuits", 1, "qubits"], 4)),
                           "qubits must be between 0 and 3, got 4"),
    "negative qubit count": (edit(_set(["classes", 1, "circuits", 1, "qubits"], -2)),
                             "qubits must be between 0 and 3, got -2"),
    "negative q": (edit(_set(["q"], -3)), "q must be between 0 and 16, got -3"),
    "negative qubit index": (edit(lambda o: gates(o, 3, 1)[1].__setitem__(1, [-1])),
                             "class 3: circuit 1: gate 1 qubit must be at least 0, got -1"),
    "qubit out of range": (edit(lambda o: gates(o, 1, 1)[0].__setitem__(1, [0, 2])),
                           "qubit 2 out of range for a 2-qubit circuit"),
    "same qubit twice": (edit(lambda o: gates(o, 1, 1)[0].__setitem__(1, [0, 0])), "qubit 0 used twice"),
    "missing angle": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, [])),
                      "gate 'rz' takes 1 parameter(s), got 0"),
    "symbol beyond m": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["p0+p7"])),
                        "uses symbol p7, beyond the set's m=2"),
    "huge symbol index": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["p99999999999"])),
                          "symbol index or coefficient out of range"),
    "NaN angle": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["rad(nan)"])),
                  "angle is not a finite number"),
    "garbage angle": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["p0**2"])), "bad angle text"),
    "zero denominator": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, ["1/0*pi"])),
                         "zero denominator"),
    # wrong types in fields
    "qubits as text": (edit(_set(["classes", 1, "circuits", 1, "qubits"], "two")),
                       "qubits must be an integer, got 'two'"),
    "n as a bool": (edit(_set(["n"], True)), "n must be an integer, got True"),
    "gates not a list": (edit(_set(["classes", 1, "circuits", 1, "gates"], 5)), "gates must be a list"),
    "gate as an object": (edit(lambda o: gates(o, 1, 1).__setitem__(0, {"cx": [0, 1]})),
                          "gate 0 must be [name, [qubits], [angles]]"),
    "angle as a number": (edit(lambda o: gates(o, 2, 0)[0].__setitem__(2, [0.5])),
                          "angles must be text"),
    "proven as text": (edit(_set(["classes", 1, "proven"], "yes")), "proven must be true or false"),
    "phase as a number": (edit(_set(["classes", 1, "circuits", 1, "phase"], 5)),
                          "phase must be text"),
    "phase with a bad denominator": (edit(_set(["classes", 1, "circuits", 1, "phase"], "1/0*pi")),
                                     "malformed ECC set: class 1: circuit 1:"),
    "metadata not an object": (edit(_set(["metadata"], [1, 2])), "metadata and generator must be objects"),
}


def corrupt_file(tmp_path: Path, kind: str) -> Path:
    data = CASES[kind][0]()
    p = tmp_path / ("corrupt.json.gz" if data[:2] == b"\x1f\x8b" else "corrupt.json")
    p.write_bytes(data)
    return p


def test_there_are_many_kinds():
    assert len(CASES) >= 20


def test_the_base_file_is_good(tmp_path):
    p = tmp_path / "good.json"
    p.write_bytes(GOOD_TEXT)
    assert len(read(p).classes) == 23


@pytest.mark.parametrize("kind", sorted(CASES))
def test_corrupt_file_is_refused_clearly_and_never_used(kind, tmp_path):
    p = corrupt_file(tmp_path, kind)
    expected = CASES[kind][1]
    for reader in (read, load, lambda f: loads(Path(f).read_bytes(), source=str(f))):
        with pytest.raises(QuartzError) as e:
            reader(str(p))
        msg = str(e.value)
        assert expected in msg and msg.startswith(str(p)), msg
        assert "\n" not in msg and len(msg) < 600, msg
    with pytest.raises(QuartzError, match="^" + str(p)):
        quartz.optimize(Circuit(2).cx(0, 1).cx(0, 1), ecc_set=str(p), timeout=1)


def test_a_gzip_bomb_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_JSON_BYTES", 10**6)  # instead of writing 512 MiB
    p = tmp_path / "bomb.json.gz"
    p.write_bytes(gzip.compress(b" " * (3 * 10**6) + GOOD_TEXT))
    with pytest.raises(QuartzError, match="more than 0 MiB when decompressed"):
        read(p)


def test_the_cli_refuses_corrupt_files_in_one_line(tmp_path):
    qasm = tmp_path / "c.qasm"
    qasm.write_text(quartz.dumps(Circuit(2).cx(0, 1).cx(0, 1)))
    out = tmp_path / "out.qasm"
    for kind in ("wrong phase", "huge qubit count", "non-UTF-8 bytes"):
        p = corrupt_file(tmp_path, kind)
        r = subprocess.run([sys.executable, "-m", "quartz", "optimize", str(qasm), "--ecc", str(p),
                            "--timeout", "1", "--no-progress", "-o", str(out)], cwd=REPO,
                           capture_output=True, text=True, timeout=60)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, r.stderr
        assert lines[0].startswith(f"quartz optimize: error: {p}") and CASES[kind][1] in lines[0]
        assert not out.exists()
