"""`quartz bench SUITE`: benchmark our methods and baselines on a suite, check every output,
and write results.csv, results.md and plots to a report folder.

SIGINT or SIGTERM stops the suite: the circuit being benchmarked ends early (its outcomes get
status "interrupted"), no further circuit starts, the report of the circuits so far is
written atomically with an "Interrupted" note (no plots), and the exit status is 130 or 143.
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import signal
import sys
import time
from pathlib import Path

from quartz.cli.options import spellings
from quartz.cli.work_option import WORK_HELP, work_units
from quartz.errors import QuartzError
from quartz.io_utils import check_output_folder


def add_parser(sub):
    p = sub.add_parser("bench", help="benchmark optimizers on a suite and write a report",
                       description="Optimize every circuit of SUITE (a folder of .qasm files or "
                       "a circuit family such as tof, qft:4,6 or gf2_mult) with our methods and "
                       "the baselines, check every output for equivalence (mqt.qcec, and "
                       "Qiskit's Operator up to 10 qubits), and write a report. Exits 1 if any "
                       "output is not proven equivalent.")
    p.add_argument("suite", metavar="SUITE", help="folder of .qasm files, or a family name "
                   "(optionally with sizes: 'tof:3,4,5')")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per circuit and method "
                   "(default 60)")
    p.add_argument("--methods", default="search", help="comma list of our methods: search, rl "
                   "(default search; 'none' for baselines only)")
    p.add_argument("--baselines", default="auto", help="comma list: qiskit, tket; 'auto' = those "
                   "installed (default), 'none' = no baseline")
    p.add_argument(*spellings("--jobs"), type=int, default=1,
                   help="circuits benchmarked in parallel (default 1): local processes, or "
                        "Ray tasks with --address")
    p.add_argument("--address", default=None, metavar="HOST:PORT",
                   help="run on Ray: join the cluster at HOST:PORT ('local': a Ray started on "
                        "this machine with --jobs CPUs; default: RAY_ADDRESS if set, else no "
                        "Ray). One task per circuit and method; a killed worker's task is "
                        "retried (the ray extra)")
    p.add_argument(*spellings("--gateset"), default=None,
                   help="target gate set (default: from the folder name or the gates used; nam "
                        "for families)")
    p.add_argument("--sizes", default=None, help="family sizes, e.g. 3,4,5 or 3-6")
    p.add_argument("--max-gates", type=int, default=None, help="skip circuits with more gates")
    p.add_argument(*spellings("--ecc-set"), default=None, metavar="ECC",
                   help="ECC set name or file for our methods (default: the shipped set of the "
                        "gate set)")
    p.add_argument("--trust-ecc", action="store_true",
                   help="use the --ecc-set file without verifying it first")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--threads", type=int, default=None,
                   help="search threads per circuit (default: the CPUs shared out among "
                        "the --jobs, all of them with one job or on a Ray cluster; 1 with "
                        "--work)")
    p.add_argument("--work", type=work_units, default=None, metavar="UNITS",
                   help=WORK_HELP + "; the same gates with any --jobs (search threads "
                        "default to 1 with it)")
    p.add_argument("--check-timeout", type=float, default=300.0, metavar="S",
                   help="seconds for each equivalence check (default 300)")
    p.add_argument("-o", "--output", default="report", help="report folder (default report/)")
    p.add_argument("--no-qasm", action="store_true", help="do not write the output circuits")
    p.add_argument("--plots", action=argparse.BooleanOptionalAction, default=None,
                   help="write the PNG plots (matplotlib, from the bench extra). Default: when "
                        "matplotlib is installed, else a note; --plots refuses to start without it")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _names(text: str, what: str) -> list[str]:
    if text.strip().lower() == "none":
        return []
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names:
        raise QuartzError(f"--{what} needs at least one name (or 'none')")
    return names


def command_line(args) -> str:
    """The command that reproduces this run."""
    parts = ["quartz", "bench", args.suite, "--timeout", f"{args.timeout:g}"]
    defaults = {"methods": "search", "baselines": "auto", "jobs": 1, "gateset": None,
                "sizes": None, "max_gates": None, "ecc_set": None, "trust_ecc": False, "seed": 0,
                "check_timeout": 300.0, "output": "report", "plots": None, "address": None,
                "threads": None, "work": None}
    for key, default in defaults.items():
        value = getattr(args, key, default)
        if key == "plots":
            parts += [] if value is None else ["--plots" if value else "--no-plots"]
        elif isinstance(value, bool):
            parts += [f"--{key.replace('_', '-')}"] if value else []
        elif value != default:
            parts += [f"--{key.replace('_', '-')}" if key != "output" else "-o",
                      f"{value:g}" if isinstance(value, float) else str(value)]
    return shlex.join(parts)


def _interrupted(sig, results: list, total: int, notes: list[str], save, out: str) -> int:
    """Write the report of the circuits so far, marked interrupted; the exit status."""
    cut = [r.circuit for r in results if any(o.status == "interrupted" for o in r.outcomes)]
    notes.append(f"**Interrupted** by {sig.name}: {len(results)} of {total} circuits"
                 + (f"; cut short: {', '.join(cut)}" if cut else "") + ".")
    try:
        save(results)
    except KeyboardInterrupt:
        print(f"quartz bench: interrupted by {sig.name} again while writing the report; "
              f"{out}/ may hold the report of fewer circuits", file=sys.stderr)
        return sig.exit_code
    print(f"quartz bench: interrupted by {sig.name}; wrote the report of {len(results)} of "
          f"{total} circuits to {out}/ (results.csv, results.md)", file=sys.stderr)
    return sig.exit_code


def run(args: argparse.Namespace) -> int:
    from quartz.bench.baselines import BASELINES, available_baselines, check_baselines
    from quartz.check import qcec_missing
    from quartz.bench import plots as bench_plots
    from quartz.bench.plots import plot_cost_over_time, plot_reduction
    from quartz.bench.report import write_report
    from quartz.bench.runner import check_work, failures, run_suite, threads_per_job
    from quartz.bench.suite import load_suite
    from quartz.cli.interrupt import catch_signals

    if args.timeout < 0:
        raise QuartzError(f"--timeout must be non-negative, got {args.timeout:g}")
    if args.jobs < 1:
        raise QuartzError(f"--jobs must be at least 1, got {args.jobs}")
    if args.threads is not None and args.threads < 1:
        raise QuartzError(f"--threads must be at least 1, got {args.threads}")
    check_work(args.work, _names(args.methods, "methods"))
    from quartz.distributed import cluster_address, wants_ray

    on_ray = wants_ray(args.address)
    methods = _names(args.methods, "methods")
    for m in methods:
        if m not in ("search", "rl"):
            raise QuartzError(f"unknown method '{m}'; methods: search, rl")
    if "rl" in methods:  # before any work: torch is the rl extra
        from quartz.rl import require_torch

        require_torch()
    notes_up_front = []  # optional dependencies that are missing: what is left out
    if args.baselines.strip().lower() == "auto":
        baselines = available_baselines()
        absent = [b for b in BASELINES if b not in baselines]
        if absent:
            notes_up_front.append(f"baseline(s) {', '.join(absent)} skipped: not installed "
                                  f"({bench_plots.INSTALL_HINT})")
    else:
        baselines = _names(args.baselines, "baselines")
        check_baselines(baselines)
    if not methods and not baselines:
        raise QuartzError("nothing to run: no method and no baseline")
    check_output_folder(args.output)  # fail before the work, not after it
    plots = args.plots is not False
    what = bench_plots.missing() if plots else None
    if what:
        if args.plots:
            raise QuartzError(f"--plots needs {what}, which is not installed: run "
                              f"{bench_plots.INSTALL_HINT}")
        plots = False
        notes_up_front.append(f"no plots: {what} is not installed ({bench_plots.INSTALL_HINT}; "
                              "--no-plots skips them without this note)")
    if qcec_missing():
        notes_up_front.append("mqt.qcec is not installed: outputs are checked by path sums and "
                              "Qiskit's Operator (up to 10 qubits) only, so larger ones may stay "
                              f"unproven ({bench_plots.INSTALL_HINT})")
    if args.ecc_set is not None:  # a bad ECC file fails here, before any work
        from quartz import ecc_sets

        ecc_sets.load(args.ecc_set, trust=args.trust_ecc)
    suite = load_suite(args.suite, sizes=args.sizes, gate_set=args.gateset,
                       max_gates=args.max_gates)
    if "rl" in methods:  # a gate set with no shipped model fails here, not once per circuit
        from quartz.rl import default_model_path

        default_model_path(suite.gate_set)
    out = args.output
    title = f"quartz bench: {suite.name} ({suite.gate_set})"
    command = command_line(args)
    notes = [f"{len(suite.circuits)} circuits; methods: {', '.join(methods) or 'none'}; "
             f"baselines: {', '.join(baselines) or 'none'}; timeout {args.timeout:g} s per "
             f"circuit and method; "
             + (f"search budget {args.work:,} work units per thread "
                f"({threads_per_job(args.jobs, args.threads, on_ray, args.work)} thread(s)); "
                if args.work is not None else "")
             + (f"Ray at {cluster_address(args.address)}, {args.jobs} task(s) at once; "
                if on_ray else f"{args.jobs} job(s); ")
             + f"{os.cpu_count()} CPUs "
             f"({platform.machine()}); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}."]
    for note in notes_up_front:
        print(f"quartz bench: note: {note}", file=sys.stderr)
        notes.append(f"Note: {note}.")
    print(f"quartz bench: {len(suite.circuits)} circuits from {suite.name} in gate set "
          f"{suite.gate_set}; methods: {', '.join(methods) or 'none'}; baselines: "
          f"{', '.join(baselines) or 'none'}",
          file=sys.stderr)

    def save(results):
        write_report(results, out, title=title, command=command, notes=notes,
                     qasm=not args.no_qasm)

    so_far: list = []

    def keep(results):
        so_far[:] = results
        save(results)

    with catch_signals() as sig:
        try:
            results = run_suite(suite.circuits, suite.gate_set, methods=methods,
                                baselines=baselines, timeout=args.timeout, jobs=args.jobs,
                                seed=args.seed, check_timeout=args.check_timeout,
                                progress=not args.no_progress, ecc_set=args.ecc_set,
                                trust_ecc=args.trust_ecc, on_result=keep,
                                stop=lambda: sig.signum is not None, address=args.address,
                                threads=args.threads, work=args.work)
        except KeyboardInterrupt:  # outside a search: the results so far are what there is
            sig.signum = sig.signum or signal.SIGINT
            results = list(so_far)
        if sig.signum is not None:
            return _interrupted(sig, results, len(suite.circuits), notes, save, out)
    save(results)
    written = ["results.csv", "results.md"]
    if plots:
        written.append(plot_reduction(results, os.path.join(out, "reduction.png"),
                                      title=title).name)
        curve = plot_cost_over_time(results, os.path.join(out, "cost_over_time.png"), title=title)
        if curve is not None:
            written.append(Path(curve).name)
    bad = failures(results)
    print(f"quartz bench: report in {out}/ ({', '.join(written)})", file=sys.stderr)
    if bad:
        print(f"quartz bench: {len(bad)} output(s) not proven equivalent or failed:",
              file=sys.stderr)
        for line in bad:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0
