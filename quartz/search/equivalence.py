"""The equivalence check every optimizer result passes before it is returned.

Methods, in order, within one time budget (each result says which one concluded and how long
the check took):

1. ``unitary`` (up to 10 qubits): the two unitaries compared entry by entry, global phase
   included. Exact up to float rounding.
2. ``path sum`` (any size, circuits of h/x/cx/ccx/phase gates: Nam, Clifford+T): a proof by
   quartz.pathsum_check, given PATH_SUM_SHARE of the budget. It proves equality (or equality
   up to a nonzero phase, i.e. a difference); a sum that does not reduce proves nothing.
3. ``random states`` (up to 25 qubits, when the simulation fits in what is left): both
   circuits applied to a few random states, phase included. A difference is a
   counterexample, but agreement is evidence, not a proof (``Check.proof`` is False).
4. ``qcec`` (mqt.qcec's ZX checker plus a decision-diagram simulation for the global phase,
   the alternating checker as fallback) with the rest of the budget, when mqt.qcec is
   installed. When random states will not fit, qcec starts at once in a second process
   (with two or more usable CPUs) and gets the whole budget beside the path-sum proof.

When none of them concludes, ok is None and the detail says why (method "none").
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace

import numpy as np

from quartz.circuit import Circuit

UNITARY_MAX_QUBITS = 10
STATES_MAX_QUBITS = 25
DEFAULT_BUDGET = 60.0  # seconds, when check_equivalent gets no timeout
PROOF_METHODS = ("qubits", "unitary", "path sum", "qcec")


@dataclass(frozen=True)
class Check:
    """Result of an equivalence check: ok (None = nothing concluded), the method that
    concluded, a detail line, and the seconds the check took. `numeric`: the circuit checked
    has floating-point angles from an inexact move (block resynthesis), so even a method
    that proves exact equality only shows it to rounding here."""

    ok: bool | None
    method: str
    detail: str = ""
    seconds: float = 0.0
    numeric: bool = False

    @property
    def proof(self) -> bool:
        """Whether the verdict is a proof (False for random states and numeric checks)."""
        return self.ok is not None and self.method in PROOF_METHODS and not self.numeric

    def summary(self) -> str:
        """One line: the verdict, the method, its kind, and the time."""
        return describe(self.as_dict())

    def as_dict(self) -> dict:
        """Plain data for reports: ok, method, proof, seconds, detail, numeric."""
        return {"ok": self.ok, "method": self.method, "proof": self.proof,
                "seconds": round(self.seconds, 4), "detail": self.detail, "numeric": self.numeric}


def describe(check: dict) -> str:
    """One line for a Check.as_dict() (as in optimize's report): verdict, method, time."""
    if check["ok"] is None:
        return f"not checked ({check['detail']}; {check['seconds']:.2f} s)"
    verdict = "equivalent" if check["ok"] else "NOT equivalent"
    kind = "proof" if check["proof"] else "evidence, not a proof"
    return f"{verdict} by {check['method']} ({kind}; {check['detail']}; {check['seconds']:.2f} s)"


# Seconds per gate and amplitude of Circuit.apply, to tell whether random states fit a budget.
_APPLY_SECONDS = 4e-9
# Below this many seconds qcec cannot decide a benchmark-size pair; it is not started.
QCEC_MIN_SECONDS = 0.5
# Share of the check's budget the path-sum proof may take before the other methods run.
PATH_SUM_SHARE = 0.3


def check_equivalent(a: Circuit, b: Circuit, *, states: int = 3, seed: int = 0,
                     atol: float = 1e-7, timeout: float | None = None) -> Check:
    """Whether `b` implements exactly the unitary of `a`, global phase included, within
    `timeout` seconds (default DEFAULT_BUDGET); see the module docstring for the methods."""
    started = time.monotonic()
    chk = _check(a, b, states, seed, atol, DEFAULT_BUDGET if timeout is None else timeout,
                 started)
    return replace(chk, seconds=time.monotonic() - started)


def _check(a: Circuit, b: Circuit, states: int, seed: int, atol: float, budget: float,
           started: float) -> Check:
    if a.num_qubits != b.num_qubits:
        return Check(False, "qubits", f"{a.num_qubits} vs {b.num_qubits} qubits")
    n = a.num_qubits
    if n <= UNITARY_MAX_QUBITS:
        d = float(np.max(np.abs(a.unitary() - b.unitary()))) if n or len(a) or len(b) else 0.0
        return Check(d <= atol, "unitary", f"max entry difference {d:.2e}")
    tried = []
    from quartz.pathsum_check import supports

    qa, qb = a.to_qiskit(), b.to_qiskit()
    if supports(qa) and supports(qb):
        beside = None
        if not _states_fit(a, b, states, budget * (1 - PATH_SUM_SHARE)):
            # qcec will be the fallback: it starts now in a second process, beside the proof.
            beside = _QcecBeside.start(qa, qb, budget)
        try:
            proof = _path_sum(qa, qb, started + PATH_SUM_SHARE * budget)
            if proof is not None:
                return proof
            tried.append("no path-sum proof")
            if beside is not None:
                chk = beside.result(started + budget)
                if chk.ok is None:
                    return Check(None, "none", f"{', '.join(tried)}; {chk.detail}")
                return chk
        finally:
            if beside is not None:
                beside.stop()
    else:
        tried.append("gates outside path sums")
    left = budget - (time.monotonic() - started)
    if _states_fit(a, b, states, left):
        return _random_states(a, b, states, seed, atol)
    tried.append(f"{n} qubits too many to simulate" if n > STATES_MAX_QUBITS else
                 f"random states need ~{_states_seconds(a, b, states):.0f} s")
    left = budget - (time.monotonic() - started)
    if left < QCEC_MIN_SECONDS:
        return Check(None, "none", f"{', '.join(tried)}; {left:.2f} s left: too little for qcec")
    chk = _qcec(qa, qb, left)
    if chk.ok is None:
        return Check(None, "none", f"{', '.join(tried)}; {chk.detail}")
    return chk


def _states_seconds(a: Circuit, b: Circuit, states: int) -> float:
    """Estimated seconds of the random-state simulation of a and b."""
    return states * (len(a) + len(b)) * 2.0**a.num_qubits * _APPLY_SECONDS


def _states_fit(a: Circuit, b: Circuit, states: int, seconds: float) -> bool:
    """Whether the random-state simulation fits in `seconds`."""
    return a.num_qubits <= STATES_MAX_QUBITS and _states_seconds(a, b, states) <= seconds


class _QcecBeside:
    """_qcec in a forked process, running while this one tries the path-sum proof (qcec holds
    the GIL, so a thread would not run beside it). Only with two or more usable CPUs, and
    where this process may have children (not inside a daemonic multiprocessing worker)."""

    def __init__(self, process, conn, timeout: float):
        self.process, self.conn, self.timeout = process, conn, timeout

    @classmethod
    def start(cls, qa, qb, timeout: float) -> "_QcecBeside | None":
        """Start qcec on (qa, qb) with `timeout` seconds; None where it cannot run beside."""
        import multiprocessing

        from quartz.cpus import available_cpus

        if available_cpus() < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return None
        try:
            import mqt.qcec  # noqa: F401  (optional: the 'test' extra)
        except ImportError:
            return None
        ctx = multiprocessing.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_qcec_child, args=(qa, qb, timeout, send), daemon=True)
        try:
            with warnings.catch_warnings():
                # Python >= 3.12 warns about fork() in a process with threads (Qiskit's, the
                # search's finished pool): the child runs qcec only and is killed at the
                # deadline, so a stuck child cannot hold the check up.
                warnings.simplefilter("ignore", DeprecationWarning)
                proc.start()
        except (AssertionError, OSError):  # a daemonic process may not have children
            recv.close()
            send.close()
            return None
        send.close()
        return cls(proc, recv, timeout)

    def result(self, deadline: float) -> Check:
        """qcec's Check once it answers, or a no-verdict Check at `deadline`."""
        try:
            if self.conn.poll(max(0.0, deadline - time.monotonic())):
                return self.conn.recv()
            return Check(None, "qcec", f"qcec: no answer within {self.timeout:.1f} s")
        except (EOFError, OSError):
            return Check(None, "qcec", "qcec's process ended without an answer")

    def stop(self) -> None:
        """End the process (it may still be working) and close the pipe (idempotent)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def _qcec_child(qa, qb, timeout: float, conn) -> None:
    """Body of _QcecBeside's process: send _qcec's Check back."""
    try:
        conn.send(_qcec(qa, qb, timeout))
    except Exception as e:  # noqa: BLE001  (reported to the parent as no verdict)
        conn.send(Check(None, "qcec", f"qcec failed: {type(e).__name__}: {e}"))
    finally:
        conn.close()


def _random_states(a: Circuit, b: Circuit, states: int, seed: int, atol: float) -> Check:
    n = a.num_qubits
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(states):
        psi = rng.normal(size=2**n) + 1j * rng.normal(size=2**n)
        psi /= np.linalg.norm(psi)
        worst = max(worst, float(np.max(np.abs(a.apply(psi) - b.apply(psi)))))
        if worst > atol:
            break
    return Check(worst <= atol, "random states",
                 f"{states} states, max amplitude difference {worst:.2e}")


def _path_sum(a, b, deadline: float) -> Check | None:
    """A Check from a path-sum proof (equal, or equal up to a nonzero phase), else None."""
    from quartz.pathsum_check import EQUIVALENT, path_sum_phase

    phase = path_sum_phase(a, b, deadline)
    if phase is None:
        return None
    if abs((phase + np.pi) % (2 * np.pi) - np.pi) < 1e-9:
        return Check(True, "path sum", EQUIVALENT)
    return Check(False, "path sum", f"equal up to a global phase of {phase:.6g} rad")


def _qcec(a, b, timeout: float = 30.0) -> Check:
    try:
        import mqt.qcec  # noqa: F401  (optional: the 'test' extra)
    except ImportError:
        return Check(None, "none", "mqt.qcec is not installed")
    from quartz.qcec_check import prove_equal

    verdict, how = prove_equal(a, b, max(0.05, timeout - 1e-4 * (len(a) + len(b))))
    if verdict == "equivalent":
        return Check(True, "qcec", f"{verdict} ({how})")
    if verdict in ("not_equivalent", "equivalent_up_to_global_phase"):
        return Check(False, "qcec", f"{verdict} ({how})")
    return Check(None, "qcec", f"qcec: {verdict} within {timeout:.1f} s")
