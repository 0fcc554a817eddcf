"""Regenerate the ECC sets shipped in quartz/data/: `python -m quartz.generator.ship [NAME...]`.

Each set is generated, proven by quartz.verifier (generate() keeps proven classes only) and
written gzip-compressed in quartz's native format. SHIPPED lists the settings.
"""
from __future__ import annotations

import argparse
import sys
import time

# name -> (gate set, n, q, m)
SHIPPED: dict[str, tuple[str, int, int, int]] = {
    "nam_3_3": ("nam", 3, 3, 2),
    "nam_6_3": ("nam", 6, 3, 2),
    "clifford_t_3_3": ("clifford_t", 3, 3, 0),
    "clifford_t_5_3": ("clifford_t", 5, 3, 0),
    "ibm_3_3": ("ibm", 3, 3, 4),
    "ibm_4_3": ("ibm", 4, 3, 4),
    "ibm_modern_3_3": ("ibm_modern", 3, 3, 2),
    "ibm_modern_5_3": ("ibm_modern", 5, 3, 2),
    "rigetti_3_3": ("rigetti", 3, 3, 2),
    "rigetti_5_3": ("rigetti", 5, 3, 2),
    "ionq_3_3": ("ionq", 3, 3, 2),
    "ionq_4_3": ("ionq", 4, 3, 2),
}


def main(argv: list[str] | None = None) -> int:
    """Generate and write the named shipped sets (all by default)."""
    from quartz.ecc_sets import write
    from quartz.ecc_sets.shipped import DATA_DIR
    from quartz.generator import generate

    ap = argparse.ArgumentParser(prog="python -m quartz.generator.ship")
    ap.add_argument("names", nargs="*", default=list(SHIPPED))
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    for name in args.names:
        gs, n, q, m = SHIPPED[name]
        t = time.perf_counter()
        ecc_set, report = generate(gs, n, q, m, jobs=args.jobs, progress=False)
        if not all(e.proven for e in ecc_set.classes):
            raise SystemExit(f"{name}: unproven class in a set to ship")
        write(ecc_set, DATA_DIR / f"{name}.json.gz", "native")
        f = report.final
        print(f"{name}: {f.classes} ECCs, {f.circuits} circuits, {f.transformations} xfers, "
              f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
