"""`quartz optimize IN.qasm [-o OUT.qasm]`: optimise a circuit, progress and summary on stderr."""
from __future__ import annotations

import sys
import time

from quartz.errors import QuartzError


def add_parser(sub):
    """Register `quartz optimize IN [-o OUT] [--gateset G] [--timeout S] [--cost C] ...`."""
    p = sub.add_parser("optimize", help="optimize a QASM circuit (search or RL)",
                       description="Optimize an OpenQASM circuit with verified ECC transformations. "
                                   "The result is checked equivalent to the input (global phase "
                                   "included) before it is written.")
    p.add_argument("input", metavar="IN.qasm", help="input OpenQASM 2/3 file")
    p.add_argument("-o", "--output", metavar="OUT.qasm", help="write the result here (default: stdout)")
    p.add_argument("--gateset", default="nam", help="target gate set (default: nam)")
    p.add_argument("--ecc", default=None, metavar="ECC", help="ECC set name or file (default: shipped)")
    p.add_argument("--trust-ecc", action="store_true",
                   help="use the --ecc file without verifying it first (default: a file that is "
                        "not shipped is verified when loaded, and refused if a class is false)")
    p.add_argument("--timeout", type=float, default=60.0, help="time budget in seconds (default: 60)")
    p.add_argument("--cost", default="gates",
                   help="gates (default), two_qubit, cx, t_count or depth")
    p.add_argument("--method", choices=("search", "rl"), default="search")
    p.add_argument("--model", default=None, metavar="PATH", help="RL checkpoint (with --method rl)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--threads", type=int, default=2, help="search threads (default: 2)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    return p


def _stats(c) -> str:
    return f"{len(c)} gates, {c.cx_count} cx, {c.t_count} T, depth {c.depth}"


def run(args) -> int:
    """Optimise args.input; exit 0 on success."""
    from quartz.api import optimize
    from quartz.io_utils import atomic_write_text
    from quartz.qasm import load

    if args.timeout < 0:
        raise QuartzError("--timeout must be non-negative")
    if args.threads < 1:
        raise QuartzError("--threads must be at least 1")
    if args.model and args.method != "rl":
        raise QuartzError("--model is only used with --method rl")
    circuit = load(args.input)
    ecc = None
    if args.ecc is not None:  # read (and verified) before any work: a bad file fails fast
        from quartz import ecc_sets

        ecc = ecc_sets.load(args.ecc, trust=args.trust_ecc)
    t0 = time.monotonic()
    out = optimize(circuit, args.gateset, ecc_set=ecc, cost=args.cost, timeout=args.timeout,
                   seed=args.seed, method=args.method, model=args.model,
                   progress=not args.no_progress, threads=args.threads)
    dt = time.monotonic() - t0
    text = out.to_qasm()
    if args.output:
        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    saved = 100.0 * (1 - len(out) / len(circuit)) if len(circuit) else 0.0
    print(f"before: {_stats(circuit)}", file=sys.stderr)
    print(f"after:  {_stats(out)}  ({saved:.1f}% fewer gates, {dt:.1f} s)", file=sys.stderr)
    return 0
