"""Benchmark the ECC generator against Quartz's measured figures.

    python benchmarks/bench_generator.py            # the quick settings (seconds)
    python benchmarks/bench_generator.py --full     # adds Nam (5,3), (6,3) and Clifford+T (5,3)
    python benchmarks/bench_generator.py --json out.json
    python benchmarks/bench_generator.py --workers 1,2 --runs 5 [--old PYTHONPATH]

The --workers mode runs `quartz gen --gateset nam -n 6 -q 3 --jobs J` as whole processes,
the settings in turn (A B A B ..., after one warm-up round, so drift hits all alike), and
prints each one's median wall and CPU seconds, the median of the per-round wall ratios to
the first setting, and whether every output file has the same ECC set (the report's
timings aside). --old adds the same runs with PYTHONPATH set to an older build.

Prints one markdown row per setting: counts before/after pruning (Quartz's 2*(circuits-ECCs)
transformation count) and wall time per phase, next to Quartz's numbers where known
(../shared/reference/quartz-measured.md, 2-core machine).
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from quartz.generator import generate

# (label, gate set, n, q, m, order, Quartz before (circ, ecc, xfers), after, Quartz seconds)
QUICK = [
    ("Nam", "nam", 3, 2, 2, "type", (139, 64, 150), (42, 17, 50), "110 (SymPy) / 17.6 (Z3)"),
    ("Nam", "nam", 3, 3, 2, "type", None, None, "-"),
    ("Nam", "nam", 4, 3, 2, "type", (4170, 1990, 4360), (426, 193, 466), "259 (Z3, v0.1.1)"),
    ("Clifford+T", "t,tdg,h,x,cx", 3, 3, 0, "qubit", (310, 135, 350), (87, 31, 112), "0.05"),
    ("Clifford+T", "t,tdg,h,x,cx", 4, 3, 0, "qubit", (1951, 896, 2110), (480, 213, 534), "0.5-1.8"),
]
FULL = [
    ("Clifford+T", "t,tdg,h,x,cx", 5, 3, 0, "qubit", (12401, 5872, 13058), (2733, 1280, 2906), "5.9"),
    ("Nam", "nam", 5, 3, 2, "type", None, None, "-"),
    ("Nam", "nam", 6, 3, 2, "type", None, None, "hours (not attempted)"),
]


def run(settings, jobs: int) -> list[dict]:
    """Generate every setting and collect counts and times."""
    rows = []
    for label, gs, n, q, m, order, qb, qa, qt in settings:
        t = time.perf_counter()
        _, r = generate(gs, n, q, m, jobs=jobs, progress=False, order=order)
        wall = time.perf_counter() - t
        rows.append({"label": label, "gate_set": gs, "n": n, "q": q, "m": m, "order": order,
                     "before": r.before.to_json(), "after": r.final.to_json(),
                     "considered": r.considered, "seconds": r.seconds, "wall": wall,
                     "quartz_before": qb, "quartz_after": qa, "quartz_seconds": qt})
        print(_row(rows[-1]), flush=True)
    return rows


def _row(r: dict) -> str:
    b, a = r["before"], r["after"]
    qb = "/".join(map(str, r["quartz_before"])) if r["quartz_before"] else "-"
    qa = "/".join(map(str, r["quartz_after"])) if r["quartz_after"] else "-"
    s = r["seconds"]
    return (f"| {r['label']} ({r['n']},{r['q']},m={r['m']}) | {b['circuits']}/{b['classes']}/"
            f"{b['transformations']} | {qb} | {a['circuits']}/{a['classes']}/{a['transformations']} | "
            f"{qa} | {s['enumerate']:.2f} + {s['prune']:.2f} + {s['verify']:.2f} = {r['wall']:.2f} | "
            f"{r['quartz_seconds']} |")


def _ecc_content(path: str) -> dict:
    """The ECC set file without the report's timings (which differ run to run)."""
    d = json.loads(open(path).read())
    d.get("metadata", {}).get("report", {}).pop("seconds", None)
    return d


def compare_workers(jobs: list[int], runs: int, old: str | None, setting: tuple[int, int, int]) -> str:
    """Whole `quartz gen` processes per (build, jobs), alternating; a markdown table."""
    import os
    import resource
    import statistics
    import subprocess
    import tempfile

    n, q, m = setting
    configs = [("now", None, j) for j in jobs] + ([("old", old, j) for j in jobs] if old else [])
    walls: dict[int, list[float]] = {i: [] for i in range(len(configs))}
    cpus: dict[int, list[float]] = {i: [] for i in range(len(configs))}
    contents = []
    with tempfile.TemporaryDirectory() as tmp:
        for rnd in range(runs + 1):  # round 0 is the warm-up
            for i, (build, path, j) in enumerate(configs):
                env = dict(os.environ)
                if path:
                    env["PYTHONPATH"] = path
                out = os.path.join(tmp, f"{i}.json")
                cmd = [sys.executable, "-m", "quartz", "gen", "--gateset", "nam", "-n", str(n),
                       "-q", str(q), "-m", str(m), "--jobs", str(j), "--no-progress", "-o", out]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                # cwd: not a source tree, which `python -m` would put first on the path
                subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, cwd=tmp)
                wall = time.perf_counter() - t
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if rnd:
                    walls[i].append(wall)
                    cpus[i].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                else:
                    contents.append(_ecc_content(out))
    same = all(c == contents[0] for c in contents)
    lines = [f"`quartz gen --gateset nam -n {n} -q {q} -m {m}`, {runs} rounds after a warm-up; "
             f"the same ECC set from every setting: {'yes' if same else 'NO'}", "",
             "| build | --jobs | wall s (median) | CPU s (median) | wall ratio to the first row (median of rounds) |",
             "|---|---:|---:|---:|---:|"]
    for i, (build, _, j) in enumerate(configs):
        ratio = statistics.median(w / w0 for w, w0 in zip(walls[i], walls[0]))
        lines.append(f"| {build} | {j} | {statistics.median(walls[i]):.2f} | "
                     f"{statistics.median(cpus[i]):.2f} | {ratio:.3f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json")
    ap.add_argument("--workers", metavar="J,J", help="compare `quartz gen` processes with these --jobs")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--old", metavar="PYTHONPATH", help="also time the build at this path")
    ap.add_argument("--setting", default="6,3,2", metavar="N,Q,M")
    args = ap.parse_args(argv)
    if args.workers:
        setting = tuple(int(x) for x in args.setting.split(","))
        print(compare_workers([int(j) for j in args.workers.split(",")], args.runs, args.old, setting))
        return 0
    print(f"# {platform.node()} python {platform.python_version()}, jobs={args.jobs}")
    print("| setting | ours before (circ/ECC/xfers) | Quartz before | ours after | Quartz after | "
          "ours s (enum + prune + verify = wall) | Quartz s |")
    print("|---|---|---|---|---|---|---|")
    rows = run(QUICK + (FULL if args.full else []), args.jobs)
    if args.json:
        from quartz.io_utils import atomic_write_text

        atomic_write_text(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
