"""quartz's own ECC set JSON format (version 1).

    {"format": "quartz-ecc-set", "format_version": 1,
     "gate_set": ["h", "x", "rz", "cx"], "n": 3, "q": 3, "m": 2,
     "generator": {"name": "quartz.generator", "version": "1", ...},
     "metadata": {...},
     "classes": [
       {"proven": true,
        "circuits": [
          {"qubits": 1, "gates": [["rz", [0], ["p0+p1"]]], "phase": {"pi": "0", "coefs": {}}},
          {"qubits": 1, "gates": [["rz", [0], ["p0"]], ["rz", [0], ["p1"]]],
           "phase": {"pi": "0", "coefs": {}}}]}]}

Circuit 0 of a class is its representative; "phase" is the proven global phase of the circuit
relative to circuit 0 (U_i = e^{i phase} U_0), null when not proven: text such as "0",
"1/4*pi", "-1/2*p0+p1+1*pi" (rational coefficients of the symbols, then the constant in units of
pi); the dict form {"pi": "1/4", "coefs": {"p0": "-1/2"}} is read too. Angles use quartz's convention
(Qiskit's full angles: rz(t) = diag(e^{-it/2}, e^{it/2})) in the exact text form of
`quartz.ecc_sets.param_text`. Files may be gzip-compressed (*.gz).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from quartz._core import gate_info
from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECC, ECCSet, Phase
from quartz.ecc_sets.param_text import param_to_text, text_to_param
from quartz.errors import QuartzError

FORMAT = "quartz-ecc-set"
FORMAT_VERSION = 1
MAX_QUBITS = 16  # far beyond what any ECC set is generated or verified for
MAX_SYMBOLS = 64


def phase_to_text(ph: Phase) -> str:
    """Compact exact text of a Phase."""
    parts = [f"{'+' if k > 0 else '-'}{'' if abs(k) == 1 else str(abs(k)) + '*'}p{s}" for s, k in ph.coefs]
    if ph.const:
        parts.append(f"+{ph.const}*pi")
    return "".join(parts).lstrip("+") or "0"


@lru_cache(maxsize=4096)
def phase_from_text(text: str) -> Phase:
    """Inverse of `phase_to_text`."""
    const = Fraction(0)
    coefs: dict[int, Fraction] = {}
    t = text.replace(" ", "").replace("-", "+-")
    for term in filter(None, t.split("+")):
        if term.endswith("*pi"):
            const += Fraction(term[:-3])
        elif "p" in term:
            k, _, sym = term.rpartition("p")
            k = k.rstrip("*")
            coef = Fraction(1) if k == "" else Fraction(-1) if k == "-" else Fraction(k)
            coefs[int(sym)] = coefs.get(int(sym), Fraction(0)) + coef
        elif Fraction(term) != 0:
            raise ValueError(f"bad phase text {text!r}")
    return Phase.make(const, coefs)


def _phase_from_obj(obj: Any) -> Phase | None:
    if obj is None:
        return None
    if isinstance(obj, str):
        return phase_from_text(obj)
    if isinstance(obj, dict) and isinstance(obj.get("pi", "0"), (str, int)) and all(
            isinstance(k, str) and k[:1] == "p" and k[1:].isdigit() and isinstance(v, (str, int))
            for k, v in obj.get("coefs", {}).items()):
        return Phase.from_json(obj)
    raise ValueError(f"phase must be text such as \"1/4*pi\" or null, got {obj!r:.60}")


def circuit_to_json(c: Circuit) -> dict[str, Any]:
    """One circuit as {"qubits": nq, "gates": [[name, qubits, angles], ...]}."""
    gates = [[name, list(qs), [param_to_text(p) for p in ps]] for name, qs, ps in c.native.gates()]
    out: dict[str, Any] = {"qubits": c.num_qubits, "gates": gates}
    gp = c.global_phase
    if gp.pi_fraction != (0, 1):
        out["global_phase"] = param_to_text(gp)
    return out


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """`value` when it is an int (not a bool) in [low, high]; ValueError naming `what` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, got {value!r:.40}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{what} must be {bound}, got {value}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, got {type(value).__name__}")
    return value


def circuit_from_json(obj: Any, max_qubits: int = MAX_QUBITS) -> Circuit:
    """Inverse of `circuit_to_json`; ValueError when `obj` is not a well-formed circuit."""
    if not isinstance(obj, dict):
        raise ValueError(f"a circuit must be an object, got {type(obj).__name__}")
    c = Circuit(_int(obj.get("qubits"), "qubits", 0, max_qubits))
    nat = c.native
    for k, gate in enumerate(_list(obj.get("gates"), "gates")):
        if not (isinstance(gate, list) and len(gate) == 3 and isinstance(gate[0], str)):
            raise ValueError(f"gate {k} must be [name, [qubits], [angles]], got {gate!r:.60}")
        name, qs, ps = gate
        qs = [_int(q, f"gate {k} qubit") for q in _list(qs, f"gate {k} qubits")]
        if not all(isinstance(p, str) for p in _list(ps, f"gate {k} angles")):
            raise ValueError(f"gate {k} angles must be text such as \"p0\" or \"1/4*pi\"")
        nat.add_gate(name, qs, [text_to_param(p) for p in ps])
    if "global_phase" in obj:
        if not isinstance(obj["global_phase"], str):
            raise ValueError("global_phase must be angle text")
        c.global_phase = text_to_param(obj["global_phase"])
    return c


def to_json(ecc_set: ECCSet) -> dict[str, Any]:
    """The whole set as a JSON-serialisable dict."""
    meta = dict(ecc_set.metadata)
    generator = meta.pop("generator", {})
    classes = []
    for e in ecc_set.classes:
        circs = []
        for c, ph in zip(e.circuits, e.phases):
            obj = circuit_to_json(c)
            obj["phase"] = phase_to_text(ph) if ph is not None else None
            circs.append(obj)
        classes.append({"proven": bool(e.proven), "circuits": circs})
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "gate_set": list(ecc_set.gate_set),
            "n": ecc_set.n, "q": ecc_set.q, "m": ecc_set.m, "generator": generator,
            "metadata": meta, "classes": classes}


def _header(obj: dict[str, Any]) -> tuple[tuple[str, ...], int, int, int]:
    """(gate set, n, q, m) of a file, checked."""
    gates = obj.get("gate_set")
    if not isinstance(gates, list) or not gates or not all(isinstance(g, str) for g in gates):
        raise ValueError(f"gate_set must be a non-empty list of gate names, got {gates!r:.60}")
    for g in gates:
        try:
            gate_info(g)
        except ValueError:
            raise ValueError(f"gate_set names an unknown gate {g!r}") from None
    if len(set(gates)) != len(gates):
        raise ValueError(f"gate_set repeats a gate: {gates}")
    return (tuple(gates), _int(obj.get("n"), "n"), _int(obj.get("q"), "q", 0, MAX_QUBITS),
            _int(obj.get("m"), "m", 0, MAX_SYMBOLS))


def _class_from_json(cl: Any, gates: tuple[str, ...], q: int, m: int) -> ECC:
    if not isinstance(cl, dict):
        raise ValueError(f"a class must be an object, got {type(cl).__name__}")
    proven = cl.get("proven", False)
    if not isinstance(proven, bool):
        raise ValueError(f"proven must be true or false, got {proven!r:.40}")
    circuits = _list(cl.get("circuits"), "circuits")
    if not circuits:
        raise ValueError("a class must have at least one circuit")
    circs, phases = [], []
    for j, c in enumerate(circuits):
        try:
            circ = circuit_from_json(c, q)
            phases.append(_phase_from_obj(c.get("phase")))
        except (ValueError, ZeroDivisionError) as e:
            raise ValueError(f"circuit {j}: {e if isinstance(e, ValueError) else 'zero denominator'}") from None
        outside = sorted({g.name for g in circ} - set(gates))
        if outside:
            raise ValueError(f"circuit {j} uses gate {outside[0]!r}, not in the set's gate_set")
        if circ.num_symbols > m:
            raise ValueError(f"circuit {j} uses symbol p{circ.num_symbols - 1}, beyond the set's m={m}")
        circs.append(circ)
    return ECC(circs, phases, proven=proven)


def from_json(obj: Any, source: str = "<json>") -> ECCSet:
    """Parse a dict made by `to_json`; QuartzError naming `source` (and the class) when it is
    not one."""
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise QuartzError(f"{source}: not a quartz ECC set file (no \"format\": \"{FORMAT}\")")
    version = obj.get("format_version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        raise QuartzError(f"{source}: malformed ECC set: format_version must be an integer")
    if version > FORMAT_VERSION:
        raise QuartzError(f"{source}: ECC set format version {obj['format_version']} is newer "
                          f"than this quartz reads ({FORMAT_VERSION})")
    where = ""
    try:
        gates, n, q, m = _header(obj)
        classes = []
        for k, cl in enumerate(_list(obj.get("classes"), "classes")):
            where = f"class {k}: "
            classes.append(_class_from_json(cl, gates, q, m))
        where = ""
        meta, generator = obj.get("metadata", {}), obj.get("generator", {})
        if not isinstance(meta, dict) or not isinstance(generator, dict):
            raise ValueError("metadata and generator must be objects")
        meta = dict(meta)
        meta["generator"] = generator
        return ECCSet(gates, n, q, m, classes, meta)
    except QuartzError as e:
        raise QuartzError(f"{source}: malformed ECC set: {where}{e}") from None
    except (KeyError, TypeError, ValueError, OverflowError, ZeroDivisionError) as e:
        detail = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise QuartzError(f"{source}: malformed ECC set: {where}{detail}") from None
