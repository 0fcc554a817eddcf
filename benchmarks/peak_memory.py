"""Peak memory (ru_maxrss) and wall time of quartz.optimize on one benchmark file.

    python benchmarks/peak_memory.py ../shared/benchmarks/nam/gf2^32_mult.qasm --timeout 5

Prints one JSON line: circuit, gates in/out, timeout, seconds, peak_rss_mib. Run it in a fresh
process so that the peak belongs to this optimization alone.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("qasm")
    p.add_argument("--timeout", type=float, default=5.0)
    p.add_argument("--gate-set", default="nam")
    args = p.parse_args(argv)

    import quartz

    c = quartz.load(args.qasm)
    start = time.perf_counter()
    out = quartz.optimize(c, args.gate_set, timeout=args.timeout, seed=0)
    seconds = time.perf_counter() - start
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"circuit": c.name, "gates_in": len(c), "gates_out": len(out),
                      "timeout": args.timeout, "seconds": round(seconds, 2),
                      "peak_rss_mib": round(rss_kib / 1024, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
