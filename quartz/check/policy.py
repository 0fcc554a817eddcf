"""How a result is checked: the one place that picks the methods, their order and budgets, and
says what counts as a proof. The methods themselves are the modules beside this one
(quartz.check.unitary, .pathsum, .states, .qcec); everything else calls the entry points here.

Three checks, for three callers:

`check_equivalent` -- the check every optimizer result passes before it is returned. Methods,
in order, within one time budget (each result says which one concluded and how long the check
took):

1. ``unitary`` (up to UNITARY_MAX_QUBITS = 10 qubits): the two unitaries (quartz's
   Circuit.unitary) compared entry by entry, global phase included. Exact up to float rounding.
2. ``path sum`` (any size, circuits of h/x/cx/ccx/phase gates: Nam, Clifford+T): a proof by
   quartz.check.pathsum, given PATH_SUM_SHARE of the budget. It proves equality (or equality
   up to a nonzero phase, i.e. a difference); a sum that does not reduce proves nothing.
3. ``random states`` (up to STATES_MAX_QUBITS = 25 qubits, when the simulation fits in what is
   left): both circuits applied to a few random states, phase included. A difference is a
   counterexample, but agreement is evidence, not a proof (``Check.proof`` is False).
4. ``qcec`` (mqt.qcec's ZX checker plus a decision-diagram simulation for the global phase,
   the alternating checker as fallback) with the rest of the budget, when mqt.qcec is
   installed. When random states will not fit, qcec starts at once in a second process
   (with two or more usable CPUs) and gets the whole budget beside the path-sum proof.

When none of them concludes, ok is None and the detail says why (method "none"). A verdict is
a proof when its method is one of PROOF_METHODS and the circuit had no floating-point angles
from block resynthesis (`as_numeric`).

`check_equivalence` -- the bench's independent check: path sums and mqt.qcec, plus Qiskit's
Operator on few qubits. No method uses quartz's own simulator, verifier or optimizer, and all
compare global phase: the path sum of a b^-1 (built from both ends) or of b^-1 a is reduced to
the identity (fast and exact on h/cx/phase circuits such as gf2^32_mult, where QCEC gives no
answer; a sum that does not reduce proves nothing) with BENCH_PATH_SUM_SHARE of the timeout;
quartz.check.qcec writes each circuit's global phase as gates, proves proportionality with
QCEC's ZX checker and reads the scalar off decision-diagram simulations of basis states, with
QCEC's alternating checker as the fallback. All run. The verdict is "not_equivalent" when any
check found a difference (a global phase included), "equivalent" when a check proved the exact
same unitary and none found a difference, otherwise "unknown".

`check_block` -- the Qiskit stage's check of a block's result before it replaces the block:
BLOCK_STATES random states, global phase included, for blocks of up to BLOCK_MAX_QUBITS qubits
(larger blocks are not checked here; their result passed `check_equivalent` in optimize).

>>> import quartz
>>> a = quartz.Circuit(2).h(0).cx(0, 1)
>>> check_equivalent(a, a.copy()).method
'unitary'
>>> check_equivalence(a, a.copy().x(1)).verdict
'not_equivalent'
>>> check_block(a, a.copy().x(1))
False
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace
from typing import Union

import numpy as np

from quartz.check import pathsum, qcec, states as random_states, unitary
from quartz.check.qcec import qcec_missing
from quartz.circuit import Circuit
from quartz.errors import EquivalenceError, QuartzError

# --- the optimizer's final check (check_equivalent) ----------------------------------------
UNITARY_MAX_QUBITS = 10
STATES_MAX_QUBITS = 25
DEFAULT_BUDGET = 60.0  # seconds, when check_equivalent gets no timeout
PROOF_METHODS = ("qubits", "unitary", "path sum", "qcec")
# Below this many seconds qcec cannot decide a benchmark-size pair; it is not started.
QCEC_MIN_SECONDS = 0.5
# Share of the check's budget the path-sum proof may take before the other methods run.
PATH_SUM_SHARE = 0.3

# --- the bench's independent check (check_equivalence) -------------------------------------
EQUIVALENT = "equivalent"
NOT_EQUIVALENT = "not_equivalent"
UP_TO_PHASE = "equivalent_up_to_global_phase"
UNKNOWN = "unknown"
NO_PROOF = "no proof"
QCEC_NOT_INSTALLED = "skipped (mqt.qcec is not installed)"
# Share of the timeout the path-sum proof may take before QCEC runs.
BENCH_PATH_SUM_SHARE = 0.25
BENCH_TIMEOUT = 60.0  # seconds, check_equivalence's default
# Largest qubit count for which the dense Operator comparison runs (2^10 x 2^10 matrices).
MAX_OPERATOR_QUBITS = 10

# --- the Qiskit stage's check of a block (check_block) -------------------------------------
BLOCK_MAX_QUBITS = 16
BLOCK_STATES = 2
BLOCK_TOLERANCE = 1e-8  # 2-norm of the difference of the two output states

CircuitLike = Union["quartz.Circuit", "qiskit.QuantumCircuit"]  # noqa: F821


# === the optimizer's final check ===========================================================
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


def as_numeric(check: Check) -> Check:
    """The final check of a result with resynthesized blocks: floating-point angles, so its
    verdict holds to rounding only and is evidence, not a proof (Check.numeric)."""
    if check.ok is None:
        return check
    note = "floating-point angles from block resynthesis: equal to rounding, not an exact proof"
    return replace(check, numeric=True, detail=f"{check.detail}; {note}" if check.detail else note)


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
        d = unitary.max_entry_difference(a, b)
        return Check(d <= atol, "unitary", f"max entry difference {d:.2e}")
    tried = []
    qa, qb = a.to_qiskit(), b.to_qiskit()
    if pathsum.supports(qa) and pathsum.supports(qb):
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
                 f"random states need ~{random_states.seconds_estimate(a, b, states):.0f} s")
    left = budget - (time.monotonic() - started)
    if left < QCEC_MIN_SECONDS:
        return Check(None, "none", f"{', '.join(tried)}; {left:.2f} s left: too little for qcec")
    chk = _qcec(qa, qb, left)
    if chk.ok is None:
        return Check(None, "none", f"{', '.join(tried)}; {chk.detail}")
    return chk


def _states_fit(a: Circuit, b: Circuit, states: int, seconds: float) -> bool:
    """Whether the random-state simulation fits in `seconds`."""
    return (a.num_qubits <= STATES_MAX_QUBITS
            and random_states.seconds_estimate(a, b, states) <= seconds)


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
        if qcec_missing():
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
    worst = random_states.worst_difference(a, b, states=states, seed=seed, atol=atol)
    return Check(worst <= atol, "random states",
                 f"{states} states, max amplitude difference {worst:.2e}")


def _path_sum(a, b, deadline: float) -> Check | None:
    """A Check from a path-sum proof (equal, or equal up to a nonzero phase), else None."""
    phase = pathsum.path_sum_phase(a, b, deadline)
    if phase is None:
        return None
    if abs((phase + np.pi) % (2 * np.pi) - np.pi) < 1e-9:
        return Check(True, "path sum", pathsum.EQUIVALENT)
    return Check(False, "path sum", f"equal up to a global phase of {phase:.6g} rad")


def _qcec(a, b, timeout: float = 30.0) -> Check:
    if qcec_missing():
        return Check(None, "none", "mqt.qcec is not installed")
    verdict, how = qcec.prove_equal(a, b, max(0.05, timeout - 1e-4 * (len(a) + len(b))))
    if verdict == "equivalent":
        return Check(True, "qcec", f"{verdict} ({how})")
    if verdict in ("not_equivalent", "equivalent_up_to_global_phase"):
        return Check(False, "qcec", f"{verdict} ({how})")
    return Check(None, "qcec", f"qcec: {verdict} within {timeout:.1f} s")


# === the bench's independent check =========================================================
@dataclass(frozen=True)
class EquivalenceResult:
    """Outcome of `check_equivalence`: the verdict and what each checker said."""

    verdict: str            # "equivalent" | "not_equivalent" | "unknown"
    qcec: str               # QCEC's raw verdict, "timeout", "error: ...", or "skipped"
    operator: str | None    # "equivalent" | "equivalent_up_to_global_phase" | "not_equivalent" | None
    seconds: float
    path_sum: str = "not run"  # "equivalent" | "equivalent_up_to_global_phase" | "no proof"

    @property
    def ok(self) -> bool:
        """True when the circuits were proven to have the same unitary, global phase included."""
        return self.verdict == EQUIVALENT

    def describe(self) -> str:
        """One line: verdict and the individual checkers' answers."""
        op = "not run" if self.operator is None else self.operator
        return (f"{self.verdict} (path sum: {self.path_sum}; qcec: {self.qcec}; operator: {op}; "
                f"{self.seconds:.2f} s)")


def _to_qiskit(circ):
    """A QuantumCircuit for a quartz.Circuit or QuantumCircuit (concrete angles only)."""
    from qiskit import QuantumCircuit

    if isinstance(circ, QuantumCircuit):
        if circ.parameters:
            raise QuartzError("equivalence check needs concrete circuits, got free parameters")
        return circ
    if not isinstance(circ, Circuit):
        raise QuartzError(f"expected a quartz.Circuit or qiskit QuantumCircuit, got {type(circ).__name__}")
    if circ.num_symbols:
        raise QuartzError("equivalence check needs concrete circuits, got symbolic angles")
    return circ.to_qiskit()


def _bench_qcec(a, b, timeout: float, hard_deadline: float | None) -> str:
    if qcec_missing():
        return QCEC_NOT_INSTALLED
    return qcec.prove_equal(a, b, timeout, hard_deadline)[0]


def _bench_path_sum(a, b, deadline: float) -> str:
    return pathsum.prove_equal_path_sum(a, b, deadline) or NO_PROOF


def check_equivalence(original: CircuitLike, optimized: CircuitLike, *,
                      timeout: float = BENCH_TIMEOUT,
                      max_operator_qubits: int = MAX_OPERATOR_QUBITS,
                      hard_deadline: float | None = None) -> EquivalenceResult:
    """Check that two concrete circuits have the same unitary, global phase included (the
    bench's independent check; see the module docstring)."""
    start = time.perf_counter()
    a, b = _to_qiskit(original), _to_qiskit(optimized)
    if a.num_qubits != b.num_qubits:
        return EquivalenceResult(NOT_EQUIVALENT, f"skipped (qubit counts {a.num_qubits} != "
                                 f"{b.num_qubits})", None, time.perf_counter() - start)
    operator = unitary.compare_operators(a, b) if a.num_qubits <= max_operator_qubits else None
    path_sum = _bench_path_sum(a, b, time.monotonic() + BENCH_PATH_SUM_SHARE * timeout)
    if a.num_qubits == 0:
        qcec_verdict = "skipped (no qubits)"
    else:
        # `timeout` bounds the whole check: what converting took is not left for qcec.
        # qcec's own reading of the circuits (about 1e-4 s a gate) is not under its timeout.
        left = max(0.05, timeout - (time.perf_counter() - start) - 1e-4 * (len(a.data) + len(b.data)))
        qcec_verdict = _bench_qcec(a, b, left, hard_deadline)
    answers = [v for v in (qcec_verdict, operator, path_sum) if v is not None]
    if any(v in (NOT_EQUIVALENT, UP_TO_PHASE) for v in answers):
        verdict = NOT_EQUIVALENT
    elif EQUIVALENT in answers:
        # Operator is a complete check on its own; QCEC's and the path sum's "equivalent" are proofs.
        verdict = EQUIVALENT
    else:
        verdict = UNKNOWN
    return EquivalenceResult(verdict, qcec_verdict, operator, time.perf_counter() - start,
                             path_sum)


def assert_equivalent(original: CircuitLike, optimized: CircuitLike, *, name: str | None = None,
                      **kwargs) -> EquivalenceResult:
    """`check_equivalence`, raising EquivalenceError (naming the circuit) unless equivalent."""
    result = check_equivalence(original, optimized, **kwargs)
    if not result.ok:
        label = f"'{name}'" if name else "circuit"
        raise EquivalenceError(f"{label}: output is not proven equivalent to the input: "
                               f"{result.describe()}")
    return result


# === the Qiskit stage's check of a block ===================================================
def check_block(original: Circuit, result, seed: int = 0) -> bool | None:
    """Whether `result` (a quartz.Circuit or QuantumCircuit) agrees with the block `original`,
    global phase included, on BLOCK_STATES random states; None when not checked here (more
    than BLOCK_MAX_QUBITS qubits, or a result quartz cannot represent)."""
    if original.num_qubits > BLOCK_MAX_QUBITS:
        return None
    if not isinstance(result, Circuit):
        try:
            result = Circuit.from_qiskit(result)
        except QuartzError:
            return None
    worst = random_states.worst_difference(original, result, states=BLOCK_STATES, seed=seed,
                                           atol=BLOCK_TOLERANCE, measure="norm")
    return worst <= BLOCK_TOLERANCE


__all__ = ["Check", "check_equivalent", "describe", "as_numeric", "EquivalenceResult",
           "check_equivalence", "assert_equivalent", "check_block", "qcec_missing",
           "UNITARY_MAX_QUBITS", "STATES_MAX_QUBITS", "DEFAULT_BUDGET", "PROOF_METHODS",
           "QCEC_MIN_SECONDS", "PATH_SUM_SHARE", "BENCH_PATH_SUM_SHARE", "BENCH_TIMEOUT",
           "MAX_OPERATOR_QUBITS", "BLOCK_MAX_QUBITS", "BLOCK_STATES", "BLOCK_TOLERANCE",
           "EQUIVALENT", "NOT_EQUIVALENT", "UNKNOWN", "UP_TO_PHASE", "NO_PROOF"]
