"""`quartz optimize IN.qasm [-o OUT.qasm]`: optimise a circuit, progress and summary on stderr.

The output is checked before any work (its folder exists and is writable, it is not the input
unless --in-place) and written atomically. SIGINT or SIGTERM stops the search: the best circuit
found so far (checked equivalent, or the input when none was checked yet) is written, and the
exit status is 130 or 143.

One line on stderr says how the result was checked (method, proof or evidence, seconds). With
--require-check, a result that no check concluded on is not written and the exit status is
3 (NOT_CHECKED_EXIT).
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from quartz.circuit import Circuit
from quartz.cli.options import spellings
from quartz.cli.work_option import WORK_HELP, work_units
from quartz.errors import QuartzError
from quartz.io_utils import check_output_file

NOT_CHECKED_EXIT = 3  # --require-check: no equivalence check concluded, nothing written


def add_parser(sub):
    """Register `quartz optimize IN [-o OUT] [--gateset G] [--timeout S] [--cost C] ...`."""
    p = sub.add_parser("optimize", help="optimize a QASM circuit (search or RL)",
                       description="Optimize an OpenQASM circuit with verified ECC transformations. "
                                   "The result is checked equivalent to the input (global phase "
                                   "included) before it is written.")
    p.add_argument("input", metavar="IN.qasm", help="input OpenQASM 2/3 file")
    p.add_argument("-o", "--output", metavar="OUT.qasm", help="write the result here (default: stdout)")
    p.add_argument("--in-place", action="store_true",
                   help="overwrite the input file with the result (allows -o IN.qasm)")
    p.add_argument(*spellings("--gateset"), default="nam", help="target gate set (default: nam)")
    p.add_argument(*spellings("--ecc-set"), default=None, metavar="ECC",
                   help="ECC set name or file (default: shipped)")
    p.add_argument("--trust-ecc", action="store_true",
                   help="use the --ecc-set file without verifying it first (default: a file that "
                        "is not shipped is verified when loaded, and refused if a class is false)")
    p.add_argument("--timeout", type=float, default=60.0, help="time budget in seconds (default: 60)")
    p.add_argument("--cost", default="gates",
                   help="gates (default), two_qubit, cx, t_count or depth")
    p.add_argument("--method", choices=("search", "rl"), default="search")
    p.add_argument("--model", default=None, metavar="PATH", help="RL checkpoint (with --method rl)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the search's random choices (default: a fresh one, printed)")
    p.add_argument("--threads", type=int, default=None,
                   help="search threads (default: the CPUs this process may use)")
    p.add_argument("--patience", default="auto", metavar="P",
                   help="stop once converged: 'auto' (default: a window that grows with the "
                        "circuit), seconds without a better circuit, or 'none' to use the whole "
                        "--timeout")
    p.add_argument("--work", type=work_units, default=None, metavar="UNITS", help=WORK_HELP)
    p.add_argument("--algorithm", choices=("anneal", "best_first"), default="anneal",
                   help="search algorithm (default: anneal)")
    p.add_argument("--check-timeout", type=float, default=None, metavar="S",
                   help="seconds for the final equivalence check (default: what is left of "
                        "--timeout, at least 20)")
    p.add_argument("--require-check", action="store_true",
                   help=f"exit {NOT_CHECKED_EXIT} without writing anything when no equivalence "
                        "check concluded on the result")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.add_argument(*spellings("--jobs"), type=int, default=None,
                   help="optimize a large circuit in segments in JOBS processes (or Ray tasks "
                        "with --address), each segment checked; default: one search")
    p.add_argument("--address", default=None, metavar="HOST:PORT",
                   help="run the segments as Ray tasks on this cluster ('local': a Ray of "
                        "--jobs CPUs here; the ray extra)")
    p.add_argument("--inexact", action="store_true",
                   help="also resynthesize two-qubit blocks between searches (KAK; fewer gates "
                        "on generic angles, but floating-point angles: checked numerically, "
                        "not proven)")
    return p


def _patience(text: str):
    """--patience as optimize() takes it: 'auto', None ('none') or seconds."""
    if text in ("auto", "none"):
        return None if text == "none" else "auto"
    try:
        value = float(text)
    except ValueError:
        raise QuartzError(f"--patience must be 'auto', 'none' or a number of seconds, "
                          f"got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise QuartzError(f"--patience must be a non-negative number of seconds, got {text!r}")
    return value


def _gates(c) -> int:
    """Gates of a Circuit, or the unitary gates of a QuantumCircuit with measurements."""
    if isinstance(c, Circuit):
        return len(c)
    from quartz.segments import is_boundary

    return sum(1 for inst in c.data if not is_boundary(inst))


def _baseline(c, gate_set: str) -> tuple[int, str]:
    """(the gates the saving is counted from, a note for the 'before' line): for a Circuit
    with gates outside the gate set, its gates once converted into the set (a Toffoli is 15
    Nam gates, not one), else its own gates and no note."""
    if isinstance(c, Circuit):
        from quartz.gatesets import get_gate_set
        from quartz.pipeline.convert import to_gate_set

        gs = get_gate_set(gate_set)
        if {g.name for g in c} - set(gs.gates):
            n = len(to_gate_set(c, gs))
            return n, f" ({n} gates in {gs.name} after conversion)"
    return _gates(c), ""


def _stats(c) -> str:
    if isinstance(c, Circuit):
        return f"{len(c)} gates, {c.cx_count} cx, {c.t_count} T, depth {c.depth}"
    ops = c.count_ops()
    return (f"{_gates(c)} gates, {ops.get('cx', 0)} cx, {ops.get('t', 0) + ops.get('tdg', 0)} T, "
            f"depth {c.depth()} (with {sum(ops.get(k, 0) for k in ('measure', 'reset'))} "
            f"measure/reset)")


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except OSError:
        return False


def output_path(args) -> Path | None:
    """Where the result goes (None: stdout), checked before any work: a QuartzError when the
    folder is missing or unwritable, the path is a folder, or it is the input without
    --in-place."""
    out = args.output if args.output is not None else (args.input if args.in_place else None)
    if out is None:
        return None
    if _same_file(Path(out), Path(args.input)) and not args.in_place:
        raise QuartzError(f"{out} is also the input; pass --in-place to overwrite the input")
    return check_output_file(out)


def _write(out, path: Path | None) -> None:
    from quartz.io_utils import atomic_write_text

    if isinstance(out, Circuit):
        text = out.to_qasm()
    else:  # measurements, resets or classical control: Qiskit writes it
        from quartz.segments import to_qasm_text

        text = to_qasm_text(out)
    if path is not None:
        atomic_write_text(path, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _check_line(report: dict) -> str:
    """The final check's verdict for the stderr summary."""
    from quartz.check import describe

    if not report:
        return "none (interrupted before the check; the input is written)"
    line = describe(report["check"])
    if report.get("returned") == "input":
        line += "; the input is written unchanged"
    return line


def run(args) -> int:
    """Optimise args.input; exit 0 on success, 130/143 after SIGINT/SIGTERM (result saved)."""
    from quartz.api import optimize
    from quartz.pipeline.options import resolve_seed
    from quartz.cli.interrupt import catch_signals
    from quartz.qasm import load_measured

    if args.timeout < 0:
        raise QuartzError("--timeout must be non-negative")
    if args.check_timeout is not None and args.check_timeout < 0:
        raise QuartzError("--check-timeout must be non-negative")
    if args.threads is not None and args.threads < 1:
        raise QuartzError("--threads must be at least 1")
    patience = _patience(args.patience)
    if args.model and args.method != "rl":
        raise QuartzError("--model is only used with --method rl")
    if args.method == "rl":  # before any work: torch is the rl extra
        from quartz.rl import require_torch

        require_torch()
    path = output_path(args)
    from quartz.distributed import wants_ray

    wants_ray(args.address)  # before any work: Ray is the ray extra
    circuit = load_measured(args.input)  # measurements etc.: a QuantumCircuit, in segments
    ecc = None
    if args.ecc_set is not None:  # read (and verified) before any work: a bad file fails fast
        from quartz import ecc_sets

        ecc = ecc_sets.load(args.ecc_set, trust=args.trust_ecc)
    seed = resolve_seed(args.seed)
    t0 = time.monotonic()
    report: dict = {}
    with catch_signals() as sig:
        what = "the best circuit found so far"
        try:
            out = optimize(circuit, args.gateset, ecc_set=ecc, cost=args.cost, timeout=args.timeout,
                           seed=seed, method=args.method, model=args.model,
                           progress=not args.no_progress, threads=args.threads,
                           algorithm=args.algorithm, check_timeout=args.check_timeout,
                           patience=patience, exact=not args.inexact,
                           report=report, workers=args.jobs, address=args.address,
                           work=args.work)
        except KeyboardInterrupt:  # outside the search (e.g. preprocessing or the final check)
            sig.signum = sig.signum or signal.SIGINT
            out, what = circuit, "the input unchanged (no checked result yet)"
            report.clear()
        dt = time.monotonic() - t0
        print(f"check: {_check_line(report)}", file=sys.stderr)
        if args.require_check and report and report["check"]["ok"] is None:
            print(f"quartz optimize: no equivalence check concluded (--require-check); "
                  f"{path or 'stdout'} not written", file=sys.stderr)
            return NOT_CHECKED_EXIT
        try:
            _write(out, path)
        except KeyboardInterrupt:
            sig.signum = sig.signum or signal.SIGINT
            print(f"quartz optimize: interrupted by {sig.name} while writing; "
                  f"{path or 'stdout'} not written", file=sys.stderr)
            return sig.exit_code
    base, converted = _baseline(circuit, args.gateset)
    saved = 100.0 * (1 - _gates(out) / base) if base else 0.0
    print(f"seed:   {seed}", file=sys.stderr)
    print(f"before: {_stats(circuit)}{converted}", file=sys.stderr)
    print(f"after:  {_stats(out)}  ({saved:.1f}% fewer gates, {dt:.1f} s)", file=sys.stderr)
    if (report.get("search") or {}).get("cut"):
        print("note: --timeout ended the search before its --work was done, so this result "
              "depends on the machine's speed and load", file=sys.stderr)
    if sig.signum is not None:
        print(f"quartz optimize: interrupted by {sig.name}; wrote {what} to {path or 'stdout'}",
              file=sys.stderr)
        return sig.exit_code
    return 0
