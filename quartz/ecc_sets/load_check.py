"""Load-time checks of ECC set files: a file is believed only when it is a shipped set (its
sha256 is in the manifest) or when quartz.verifier proves every class it marks proven.

A false class (circuits that differ, a wrong stored phase, a gate outside the gate set) makes
the whole file refused with a QuartzError naming the file, the class and the two circuits. A
class the verifier can neither prove nor refute is dropped with a warning and counted in
`metadata["dropped_unproven"]`. Verdicts of files that pass are cached by content hash
(quartz.ecc_sets.verdict_cache), so a file is verified once.
"""
from __future__ import annotations

import re
import time
import warnings

from quartz.circuit import Circuit
from quartz.ecc_sets import verdict_cache
from quartz.ecc_sets.manifest import is_shipped_content, sha256
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError

MAX_VERIFY_QUBITS = 8  # exact unitaries of 2^q x 2^q polynomials: beyond this, not at load
CLASS_TIMEOUT = 5.0  # seconds per class for what the exact path cannot decide (Z3)


def circuit_text(c: Circuit) -> str:
    """A short one-line form of a circuit: 'cx(1,0) rz(p0,1)'; '(empty)' for no gates."""
    parts = [f"{g.name}({','.join([str(p) for p in g.params] + [str(q) for q in g.qubits])})" for g in c]
    return " ".join(parts) or "(empty)"


def _refuse(source: str, k: int, circuits: list[Circuit], message: str, cex, n_false: int) -> QuartzError:
    m = re.match(r"circuit (\d+)", message)
    j = int(m.group(1)) if m and int(m.group(1)) < len(circuits) else len(circuits) - 1
    at = ""
    if cex:
        at = " (they differ at " + ", ".join(f"p{i}={v:.4g}" for i, v in enumerate(cex)) + ")"
    more = f"; {n_false - 1} more false classes" if n_false > 1 else ""
    return QuartzError(
        f"{source}: class {k} is marked proven but is false: {message}: circuit 0 is "
        f"[{circuit_text(circuits[0])}], circuit {j} is [{circuit_text(circuits[j])}]{at}{more}; "
        "refusing the ECC set")


def _structure(ecc_set: ECCSet, proven: list[int], source: str) -> None:
    """Refuse what verification cannot or should not be asked: huge circuits, repeated circuits."""
    seen: dict = {}
    for k in proven:
        for j, c in enumerate(ecc_set.classes[k].circuits):
            if c.num_qubits > MAX_VERIFY_QUBITS:
                raise QuartzError(f"{source}: class {k} circuit {j} has {c.num_qubits} qubits, more "
                                  f"than quartz verifies when it loads a set ({MAX_VERIFY_QUBITS})")
            key = c.canonical()
            if key in seen:
                k0, j0 = seen[key]
                raise QuartzError(f"{source}: class {k} circuit {j} [{circuit_text(c)}] repeats "
                                  f"class {k0} circuit {j0}; an ECC set lists each circuit once")
            seen[key] = (k, j)


def _dropped(ecc_set: ECCSet, drop: list[int], how: str) -> ECCSet:
    gone = set(drop)
    out = ECCSet(tuple(ecc_set.gate_set), ecc_set.n, ecc_set.q, ecc_set.m,
                 [e for i, e in enumerate(ecc_set.classes) if i not in gone], dict(ecc_set.metadata))
    out.metadata["load_check"] = how
    out.metadata["dropped_unproven"] = len(drop)
    return out


def check_loaded(ecc_set: ECCSet, raw: bytes, source: str) -> ECCSet:
    """`ecc_set` as read from the bytes `raw` when it can be believed (minus unprovable classes);
    a QuartzError when a class it marks proven is false."""
    from quartz.verifier.ecc_set import ClassTask, verify_tasks

    if is_shipped_content(raw):
        ecc_set.metadata["load_check"] = "shipped"
        return ecc_set
    proven = [i for i, e in enumerate(ecc_set.classes) if e.proven]
    sha = sha256(raw)
    cached = verdict_cache.lookup(sha, len(ecc_set.classes))
    if cached is not None:
        return _warn(_dropped(ecc_set, cached, "cached"), cached, source)
    t0 = time.perf_counter()
    _structure(ecc_set, proven, source)
    tasks = [ClassTask(i, list(ecc_set.classes[i].circuits), ecc_set.q, ecc_set.m,
                       tuple(ecc_set.gate_set), str(i), phases=list(ecc_set.classes[i].phases))
             for i in proven]
    results = verify_tasks(tasks, jobs=1, progress=False, timeout=CLASS_TIMEOUT)
    false = [(t, r) for t, r in zip(tasks, results) if r.outcome.status in ("refuted", "corrupt")]
    if false:
        t, r = false[0]
        raise _refuse(source, t.index, t.circuits, r.outcome.message, r.outcome.counterexample, len(false))
    drop = [t.index for t, r in zip(tasks, results) if r.outcome.status != "proven"]
    verdict_cache.store(sha, len(ecc_set.classes), drop, time.perf_counter() - t0)
    return _warn(_dropped(ecc_set, drop, "verified"), drop, source)


def _warn(ecc_set: ECCSet, drop: list[int], source: str) -> ECCSet:
    if drop:
        shown = ", ".join(map(str, drop[:10])) + (", ..." if len(drop) > 10 else "")
        warnings.warn(f"{source}: dropped {len(drop)} class(es) marked proven that the verifier "
                      f"could not prove (classes {shown})", UserWarning, stacklevel=4)
    return ecc_set
