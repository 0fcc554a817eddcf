"""`quartz gen`: generate a proven, pruned ECC set and write it to a file.

    quartz gen --gateset nam -n 6 -q 3 -m 2 -o nam_6_3.json.gz
    quartz gen --gates h,cx,rz -n 3 -q 2 -m 2 --format quartz -o out.json --json

SIGINT or SIGTERM stops the generation and writes nothing: an ECC set is only ever written
complete (atomically), since a partial set would be missing identities silently. The exit
status is then 130 or 143.
"""
from __future__ import annotations

import json
import signal
import sys

from quartz.cli.options import spellings
from quartz.errors import QuartzError
from quartz.io_utils import check_output_file


def add_parser(sub):
    p = sub.add_parser("gen", help="generate an ECC set (RepGen + proofs + pruning)",
                       description="Generate every circuit of up to N gates on Q qubits with M "
                                   "symbolic angles, group them into proven equivalence classes, "
                                   "prune, and write the ECC set.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(*spellings("--gateset"),
                     help="built-in gate set: nam, clifford_t, ibm, ibm_modern, ibm_heron, rigetti, "
                          "ionq")
    src.add_argument("--gates", help="comma-separated gate names, e.g. h,cx,rz")
    p.add_argument("-n", type=int, required=True, help="maximum gates per circuit")
    p.add_argument("-q", type=int, required=True, help="qubits")
    p.add_argument("-m", type=int, default=2, help="symbolic angles (default 2)")
    p.add_argument("-o", "--output", help="output file (.gz = gzip); omit to only print the summary")
    p.add_argument("--format", choices=("native", "quartz"), default="native",
                   help="native (quartz's format, with proven phases) or quartz (Quartz's ECC JSON)")
    p.add_argument("--order", choices=("type", "qubit"), default="type",
                   help="representative order: gate type first (default) or qubit first")
    p.add_argument("--constants", default=None,
                   help="constant angles in units of pi per gate, e.g. 'rx=1/2,-1/2,1;ry=1/2', or "
                        "'none' (default: the gate set's own, e.g. Rigetti's rx quarter turns)")
    p.add_argument(*spellings("--jobs"), type=int, default=None,
                   help="worker processes (default: all CPUs)")
    p.add_argument("--address", default=None, metavar="HOST:PORT",
                   help="verify the classes as Ray tasks on this cluster ('local': a Ray of "
                        "--jobs CPUs here; default: RAY_ADDRESS if set); same ECC set as a "
                        "local run (the ray extra)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def parse_constants(spec: str | None) -> dict | None:
    """'rx=1/2,-1/2;ry=1' -> {'rx': [Fraction(1, 2), ...]}; 'none' -> {}; None -> None."""
    from fractions import Fraction

    if spec is None:
        return None
    if spec.strip().lower() in ("none", ""):
        return {}
    out = {}
    for part in spec.split(";"):
        gate, sep, angles = part.partition("=")
        if not sep or not gate.strip() or not angles.strip():
            raise QuartzError(f"bad --constants entry {part!r}; expected GATE=ANGLE,... (units of pi)")
        try:
            out[gate.strip()] = [Fraction(a.strip()) for a in angles.split(",")]
        except (ValueError, ZeroDivisionError):
            raise QuartzError(f"bad angle in --constants entry {part!r}; use fractions of pi like 1/2") from None
    return out


def run(args) -> int:
    from quartz.cli.interrupt import catch_signals
    from quartz.ecc_sets import write
    from quartz.gatesets import get_gate_set
    from quartz.generator import check_arguments, generate

    gs = get_gate_set(args.gateset if args.gateset else args.gates)
    constants = parse_constants(args.constants)
    check_arguments(tuple(gs.gates), args.n, args.q, args.m, constants)
    if args.jobs is not None and args.jobs < 1:
        raise QuartzError(f"--jobs must be at least 1, got {args.jobs}")
    if args.output:
        check_output_file(args.output)  # fail before the work, not after it
    from quartz.distributed import wants_ray

    wants_ray(args.address)  # before any work: Ray is the ray extra
    with catch_signals() as sig:
        try:
            ecc_set, report = generate(gs, args.n, args.q, args.m, jobs=args.jobs,
                                       progress=not args.no_progress,
                                       order=args.order, constants=constants,
                                       address=args.address)
            if args.output:
                write(ecc_set, args.output, args.format)
        except KeyboardInterrupt:
            sig.signum = sig.signum or signal.SIGINT
            print(f"quartz gen: interrupted by {sig.name}; nothing written (an ECC set is "
                  "only written complete)", file=sys.stderr)
            return sig.exit_code
    if args.json:
        out = report.to_json()
        out["output"] = args.output
        out["format"] = args.format
        print(json.dumps(out, indent=2))
    else:
        print(report.summary())
        if args.output:
            print(f"  wrote {args.output} ({args.format} format)")
    return 0
