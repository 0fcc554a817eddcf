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

from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECC, ECCSet, Phase
from quartz.ecc_sets.param_text import param_to_text, text_to_param
from quartz.errors import QuartzError

FORMAT = "quartz-ecc-set"
FORMAT_VERSION = 1


def phase_to_text(ph: Phase) -> str:
    """Compact exact text of a Phase."""
    parts = [f"{'+' if k > 0 else '-'}{'' if abs(k) == 1 else str(abs(k)) + '*'}p{s}" for s, k in ph.coefs]
    if ph.const:
        parts.append(f"+{ph.const}*pi")
    return "".join(parts).lstrip("+") or "0"


@lru_cache(maxsize=4096)
def phase_from_text(text: str) -> Phase:
    """Inverse of `phase_to_text`."""
    const, coefs = Fraction(0), {}
    t = text.replace(" ", "").replace("-", "+-")
    for term in filter(None, t.split("+")):
        if term.endswith("*pi"):
            const += Fraction(term[:-3])
        elif "p" in term:
            k, _, sym = term.rpartition("p")
            k = k.rstrip("*")
            coef = Fraction(1) if k == "" else Fraction(-1) if k == "-" else Fraction(k)
            coefs[int(sym)] = coefs.get(int(sym), 0) + coef
        elif Fraction(term) != 0:
            raise ValueError(f"bad phase text {text!r}")
    return Phase.make(const, coefs)


def _phase_from_obj(obj) -> Phase | None:
    if obj is None:
        return None
    return phase_from_text(obj) if isinstance(obj, str) else Phase.from_json(obj)


def circuit_to_json(c: Circuit) -> dict:
    """One circuit as {"qubits": nq, "gates": [[name, qubits, angles], ...]}."""
    gates = [[name, list(qs), [param_to_text(p) for p in ps]] for name, qs, ps in c.native.gates()]
    out = {"qubits": c.num_qubits, "gates": gates}
    gp = c.global_phase
    if gp.pi_fraction != (0, 1):
        out["global_phase"] = param_to_text(gp)
    return out


def circuit_from_json(obj: dict) -> Circuit:
    """Inverse of `circuit_to_json`."""
    c = Circuit(int(obj["qubits"]))
    nat = c.native
    for name, qs, ps in obj["gates"]:
        nat.add_gate(name, qs, [text_to_param(p) for p in ps])
    if "global_phase" in obj:
        c.global_phase = text_to_param(obj["global_phase"])
    return c


def to_json(ecc_set: ECCSet) -> dict:
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


def from_json(obj: dict, source: str = "<json>") -> ECCSet:
    """Parse a dict made by `to_json`; QuartzError naming `source` when it is not one."""
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise QuartzError(f"{source}: not a quartz ECC set file (no \"format\": \"{FORMAT}\")")
    if int(obj.get("format_version", 0)) > FORMAT_VERSION:
        raise QuartzError(f"{source}: ECC set format version {obj['format_version']} is newer "
                          f"than this quartz reads ({FORMAT_VERSION})")
    try:
        classes = []
        for k, cl in enumerate(obj["classes"]):
            circs, phases = [], []
            for c in cl["circuits"]:
                circs.append(circuit_from_json(c))
                phases.append(_phase_from_obj(c.get("phase")))
            classes.append(ECC(circs, phases, proven=bool(cl.get("proven", False))))
        meta = dict(obj.get("metadata", {}))
        meta["generator"] = obj.get("generator", {})
        return ECCSet(tuple(obj["gate_set"]), int(obj["n"]), int(obj["q"]), int(obj["m"]),
                      classes, meta)
    except QuartzError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise QuartzError(f"{source}: malformed ECC set: {type(e).__name__}: {e}") from None
