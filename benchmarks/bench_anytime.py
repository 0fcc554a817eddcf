"""The anytime optimizer side by side: annealing and best-first search on the same circuits,
the same budget and the same seed, one after the other in one run.

    python benchmarks/bench_anytime.py --timeout 60 --json benchmarks/results/anytime_60.json
    python benchmarks/bench_anytime.py --large --timeout 60 --json benchmarks/results/anytime_large.json
    python benchmarks/bench_anytime.py --speed --timeout 10
    python benchmarks/bench_anytime.py --algorithms anneal@auto,anneal --timeout 60 \
        --json benchmarks/results/patience_60.json
    python benchmarks/bench_anytime.py --plot benchmarks/results/anytime_curves.png \\
        --from-json benchmarks/results/anytime_60.json
    python benchmarks/bench_anytime.py --algorithms anneal --timeout 600 --at 54 \\
        --from-json benchmarks/results/anytime_600_part*.json

Suite mode: each circuit of the 26-circuit Nam suite (../shared/benchmarks/nam) through
`quartz.optimize(c, "nam", timeout=T, algorithm=A)` for every algorithm A, each output checked
against its input (quartz.check.check_equivalence: QCEC, path sums, Operator). Large mode: the four
large circuits against preprocessing alone. Speed mode: moves evaluated per second, one
thread, on a ~10^2-gate and a ~10^4-gate circuit. Prints markdown tables. Every run uses
the whole budget (patience=None) but an algorithm written ALG@PATIENCE ('anneal@auto': the
default convergence rule), which the tables then show with its time.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import BENCH, PUBLISHED, geomean_reduction, run_one  # noqa: E402

ALGORITHMS = ("anneal", "best_first")
LARGE = ("gf2^16_mult", "gf2^32_mult", "ham15-high", "mod_adder_1024")
SPEED = ("vbe_adder_3", "gf2^32_mult")  # ~10^2 and ~10^4 gates after preprocessing
CURVES = ("vbe_adder_3", "mod_red_21", "gf2^8_mult", "adder_8")


def preprocessed(name: str):
    """(input circuit, the circuit optimize() hands to the search) for a Nam benchmark."""
    import quartz
    from quartz.pipeline.convert import to_gate_set
    from quartz.pipeline.preprocess import _preprocess
    from quartz.gatesets import get_gate_set

    c = quartz.load(str(BENCH / f"{name}.qasm"))
    gs = get_gate_set("nam")
    work = to_gate_set(c, gs)
    pre = _preprocess(work, gs)
    return c, pre if len(pre) <= len(work) else work


def suite_table(rows: list[dict], algorithms: list[str], timeout: float) -> str:
    """Markdown: gates per algorithm next to the published results, and the geomeans."""
    by = {(r["circuit"], r["algorithm"]): r for r in rows}
    names = [n for n in PUBLISHED if all((n, a) in by for a in algorithms)]
    head = " | ".join(algorithms)
    lines = [f"| circuit | original | {head} | Nam'18 H | Quartz 24 h | Quarl | all checked |",
             "|---|---|" + "---|" * len(algorithms) + "---|---|---|---|"]
    for n in names:
        pub = PUBLISHED[n]
        cells = " | ".join(str(by[n, a]["ours"]) + (f" ({by[n, a]['seconds']:g} s)" if "@" in a else "")
                           for a in algorithms)
        ok = all(by[n, a]["equivalence"] == "equivalent" for a in algorithms)
        lines.append(f"| {n} | {pub[0]} | {cells} | {pub[1]} | {pub[2]} | {pub[3]} | "
                     f"{'yes' if ok else 'NO'} |")
    gm = " | ".join(f"**{100 * geomean_reduction((PUBLISHED[n][0], by[n, a]['ours']) for n in names):.1f} %**"
                    for a in algorithms)
    pubs = " | ".join(f"{100 * geomean_reduction((PUBLISHED[n][0], PUBLISHED[n][k]) for n in names):.1f} %"
                      for k in (1, 2, 3))
    lines.append(f"| **1 - geomean ({len(names)})** | | {gm} | {pubs} | |")
    secs = " | ".join(f"{sum(by[n, a]['seconds'] for n in names):.0f} s" for a in algorithms)
    lines.append(f"| total seconds | | {secs} | | | | |")
    out = ["\n".join(lines), ""]
    a0 = algorithms[0]
    worse = {k: [n for n in names if by[n, a0]["ours"] > PUBLISHED[n][k]] for k in (1, 2, 3)}
    out.append(f"{a0} at {timeout:g} s has more gates than Nam'18 heavy on {len(worse[1])} "
               f"({', '.join(worse[1]) or 'none'}), than Quartz 24 h on {len(worse[2])} "
               f"({', '.join(worse[2]) or 'none'}), than Quarl on {len(worse[3])} "
               f"({', '.join(worse[3]) or 'none'}).")
    for b in algorithms[1:]:
        better = sum(by[n, a0]["ours"] < by[n, b]["ours"] for n in names)
        tie = sum(by[n, a0]["ours"] == by[n, b]["ours"] for n in names)
        out.append(f"{a0} vs {b}: fewer gates on {better}, equal on {tie}, more on "
                   f"{len(names) - better - tie} of {len(names)}.")
    return "\n".join(out) + "\n"


def best_at(rows: list[dict], seconds: float) -> list[dict]:
    """The rows as they stood `seconds` into each run: its best by then, from its history,
    as algorithm "A at S s". With the reproducible anneal the first 54 s of a long run are
    the search of a 60 s optimize() (which gives its search 54 s)."""
    out = []
    for r in rows:
        seen = [v for t, v in r.get("history") or [] if t <= seconds]
        if seen:
            out.append(dict(r, ours=int(min(seen)), seconds=seconds,
                            algorithm=f"{r['algorithm']} at {seconds:g} s"))
    return out


def run_suite(names: list[str], algorithms: list[str], timeout: float, seed: int,
              json_path: str | None) -> list[dict]:
    """Every (circuit, algorithm) in turn; rows saved after each one."""
    from quartz.io_utils import atomic_write_text

    rows = []
    for n in names:
        for a in algorithms:
            r = run_one(n, timeout, seed, a)
            rows.append(r)
            print(f"{n} {a}: {r['original']} -> {r['ours']} gates, {r['seconds']} s, "
                  f"{r['equivalence']}", file=sys.stderr, flush=True)
            if json_path:
                atomic_write_text(json_path, json.dumps(rows, indent=1))
    return rows


def run_large(algorithms: list[str], timeout: float, seed: int, json_path: str | None) -> str:
    """The large circuits: preprocessing alone against each algorithm."""
    from quartz.io_utils import atomic_write_text

    lines = ["| circuit | original | preprocessing | " + " | ".join(algorithms) + " | checked |",
             "|---|---|---|" + "---|" * len(algorithms) + "---|"]
    rows = []
    for n in LARGE:
        c, pre = preprocessed(n)
        res = [run_one(n, timeout, seed, a) for a in algorithms]
        rows.append({"circuit": n, "original": len(c), "preprocessed": len(pre), "runs": res})
        cells = " | ".join(f"{r['ours']} ({100 * (1 - r['ours'] / len(pre)):.1f} %)" for r in res)
        checked = ", ".join(r["equivalence"] for r in res)
        lines.append(f"| {n} | {len(c)} | {len(pre)} | {cells} | {checked} |")
        print(lines[-1], file=sys.stderr, flush=True)
        if json_path:
            atomic_write_text(json_path, json.dumps(rows, indent=1))
    return "\n".join(lines) + "\n"


def run_speed(algorithms: list[str], timeout: float) -> str:
    """Moves (anneal) or expansions (best-first) per second, one thread, small vs large."""
    from quartz.pipeline.matchers import get_matcher
    from quartz.gatesets import get_gate_set
    from quartz.search.driver import search

    matcher = get_matcher(None, get_gate_set("nam"))
    rate: dict = {}
    lines = ["| algorithm | " + " | ".join(f"{n} ({len(preprocessed(n)[1])} gates)" for n in SPEED)
             + " | large / small |", "|---|" + "---|" * (len(SPEED) + 1)]
    for a in algorithms:
        for n in SPEED:
            work = preprocessed(n)[1]
            r = search(work, matcher, timeout=timeout, seed=1, progress=False, threads=1,
                       polish="rz", algorithm=a, patience=None)
            rate[a, n] = r.expansions / r.seconds
        lines.append(f"| {a} | " + " | ".join(f"{rate[a, n]:,.0f}/s" for n in SPEED)
                     + f" | {rate[a, SPEED[1]] / rate[a, SPEED[0]]:.3f} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines) + "\n"


def plot_curves(rows: list[dict], path: str) -> None:
    """Best cost over time, one panel per circuit of CURVES, one line per algorithm."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(CURVES), figsize=(4 * len(CURVES), 3.2))
    for ax, n in zip(axes, CURVES):
        for r in rows:
            if r["circuit"] != n or not r.get("history"):
                continue
            ts = [max(t, 1e-3) for t, _ in r["history"]] + [r["seconds"]]
            vs = [v for _, v in r["history"]] + [r["history"][-1][1]]
            ax.step(ts, vs, where="post", label=r["algorithm"])
        ax.set_xscale("log")
        ax.set_title(n)
        ax.set_xlabel("seconds")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("best gate count")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("circuits", nargs="*", help="suite circuits (default: the 26)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--json", metavar="PATH", help="write the rows as JSON (after each run)")
    ap.add_argument("--large", action="store_true", help="the large circuits vs preprocessing")
    ap.add_argument("--speed", action="store_true", help="moves per second, small vs large")
    ap.add_argument("--plot", metavar="PNG", help="best cost over time for four circuits")
    ap.add_argument("--from-json", metavar="PATH", nargs="+",
                    help="rows of earlier suite runs (several files: their rows together)")
    ap.add_argument("--at", type=float, metavar="S",
                    help="also each run's best at S seconds, from its history (54: a 60 s optimize())")
    args = ap.parse_args(argv)
    algorithms = [a for a in args.algorithms.split(",") if a]
    t0 = time.monotonic()
    if args.speed:
        print(run_speed(algorithms, args.timeout))
    elif args.large:
        print(run_large(algorithms, args.timeout, args.seed, args.json))
    else:
        if args.from_json:
            rows = [r for p in args.from_json for r in json.loads(Path(p).read_text())]
        else:
            names = args.circuits or list(PUBLISHED)
            missing = [n for n in names if not (BENCH / f"{n}.qasm").is_file()]
            if missing:
                print(f"bench_anytime: no benchmark {', '.join(missing)} in {BENCH}", file=sys.stderr)
                return 2
            rows = run_suite(names, algorithms, args.timeout, args.seed, args.json)
        if args.plot:
            plot_curves(rows, args.plot)
        if args.at is not None:
            early = best_at(rows, args.at)
            algorithms += sorted({r["algorithm"] for r in early})
            rows = rows + early
        print(suite_table(rows, algorithms, args.timeout))
        bad = [f"{r['circuit']} {r['algorithm']}" for r in rows if r["equivalence"] != "equivalent"]
        if bad:
            print(f"bench_anytime: NOT proven equivalent: {', '.join(bad)}", file=sys.stderr)
            return 1
    print(f"({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
