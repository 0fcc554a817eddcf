"""`quartz verify`: prove every class of an ECC file, or two QASM circuits equal up to phase."""
from __future__ import annotations

import json
import sys
import time

from quartz.cli.options import spellings
from quartz.errors import QuartzError
from quartz.io_utils import check_output_file


def add_parser(sub):
    """Register `quartz verify FILE [-o OUT] [--jobs J] [--json]` / `quartz verify A.qasm B.qasm`."""
    p = sub.add_parser("verify", help="prove ECC classes or two circuits equal (up to global phase)",
                       description="Verify every class of an ECC file (quartz's or Quartz's JSON), "
                                   "or two QASM circuits against each other.")
    p.add_argument("files", nargs="+", metavar="FILE", help="an ECC file, or two QASM files")
    p.add_argument("-o", "--output", help="write the verified ECC set (proven classes) here")
    p.add_argument(*spellings("--jobs"), type=int, default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--timeout", type=float, default=10.0, help="per-query Z3 timeout in seconds")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def run(args) -> int:
    """Run the sub-command; exit 0 when everything was proven, 1 otherwise."""
    if args.jobs is not None and args.jobs < 1:
        raise QuartzError("--jobs must be at least 1")
    if len(args.files) == 2:
        return _run_pair(args)
    if len(args.files) != 1:
        raise QuartzError("give one ECC file, or two QASM files")
    return _run_file(args)


def _run_pair(args) -> int:
    from quartz.qasm import load
    from quartz.verifier import verify_pair

    if args.output:
        raise QuartzError("-o is only for ECC files")
    a, b = (load(f) for f in args.files)
    t0 = time.perf_counter()
    v = verify_pair(a, b, timeout=args.timeout)
    dt = time.perf_counter() - t0
    if args.json:
        out = {"status": v.status, "method": v.method, "seconds": round(dt, 4),
               "phase": v.phase.to_json() if v.phase is not None else None,
               "counterexample": v.counterexample, "message": v.message}
        print(json.dumps(out, indent=2))
    else:
        line = f"{v.status} ({v.method}, {dt * 1e3:.1f} ms)"
        if v.phase is not None:
            line += f": U_B = e^(i*({v.phase})) U_A"
        if v.counterexample is not None:
            vals = ", ".join(f"p{i}={x:.6g}" for i, x in enumerate(v.counterexample)) or "no symbols"
            line += f"; counterexample: {vals}"
        if v.message and v.status != "proven":
            line += f" [{v.message}]"
        print(line)
    return 0 if v.proven else 1


def _run_file(args) -> int:
    from quartz.verifier.ecc_input import load_tasks
    from quartz.verifier.ecc_set import assemble, verify_tasks

    path = args.files[0]
    writer = None
    if args.output:
        import quartz.ecc_sets as ecc_sets

        writer = getattr(ecc_sets, "write", None)
        if writer is None:
            raise QuartzError("writing ECC files needs quartz.ecc_sets.write, not in this build")
        check_output_file(args.output)  # fail before the work, not after it
    t0 = time.perf_counter()
    ecc_set, tasks = load_tasks(path)
    results = verify_tasks(tasks, jobs=args.jobs, progress=not args.no_progress, timeout=args.timeout)
    verified, report = assemble(ecc_set, tasks, results, time.perf_counter() - t0)
    if writer is not None:
        writer(verified, args.output)
    if args.json:
        out = report.to_json()
        out["file"] = path
        if args.output:
            out["output"] = args.output
        print(json.dumps(out, indent=2))
    else:
        for c in report.classes:
            if c.status != "proven":
                line = f"class {c.label or c.index}: {c.status}"
                if c.message:
                    line += f": {c.message}"
                if c.counterexample is not None:
                    line += " (counterexample: " + (", ".join(
                        f"p{i}={x:.6g}" for i, x in enumerate(c.counterexample)) or "no symbols") + ")"
                print(line)
        print(f"{path}: {report.summary()}")
        if args.output:
            print(f"wrote {len(verified.classes)} proven classes to {args.output}")
    bad = report.refuted + report.unknown + report.corrupt
    return 0 if bad == 0 else 1
