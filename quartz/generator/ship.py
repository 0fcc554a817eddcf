"""Regenerate the ECC sets shipped in quartz/data/: `python -m quartz.generator.ship [NAME...]`.

Each set is generated, proven by quartz.verifier (generate() keeps proven classes only) and
written gzip-compressed in quartz's native format; then the sha256 of every shipped file is
recorded in quartz/data/ecc_manifest.json, which `quartz.ecc_sets.load` checks. SHIPPED lists
the settings.
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
    "ibm_heron_3_3": ("ibm_heron", 3, 3, 2),
    "ibm_heron_5_3": ("ibm_heron", 5, 3, 2),
    "rigetti_3_3": ("rigetti", 3, 3, 2),
    "rigetti_5_3": ("rigetti", 5, 3, 2),
    "ionq_3_3": ("ionq", 3, 3, 2),
    "ionq_4_3": ("ionq", 4, 3, 2),
}


def record_manifest() -> dict[str, str]:
    """Prove every class of every shipped file again, then record the files' sha256 in the
    manifest (QuartzError, and no manifest written, when a class does not prove)."""
    from quartz.ecc_sets.files import loads, read_bytes
    from quartz.ecc_sets.manifest import DATA_DIR, SUFFIX, write_manifest
    from quartz.errors import QuartzError
    from quartz.verifier import verify_ecc_set

    for p in sorted(DATA_DIR.glob(f"*{SUFFIX}")):
        ecc_set = loads(read_bytes(p), source=str(p), trust=True)
        _, report = verify_ecc_set(ecc_set, jobs=1, progress=False)
        bad = [c for c in report.classes if c.status != "proven"]
        if bad or not all(e.proven for e in ecc_set.classes):
            raise QuartzError(f"{p}: {len(bad)} classes do not prove; not recording the manifest")
    return write_manifest(DATA_DIR)


def main(argv: list[str] | None = None) -> int:
    """Generate and write the named shipped sets (all by default)."""
    from quartz.ecc_sets import write
    from quartz.ecc_sets.manifest import DATA_DIR
    from quartz.generator import generate

    ap = argparse.ArgumentParser(prog="python -m quartz.generator.ship")
    ap.add_argument("names", nargs="*", default=list(SHIPPED))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--manifest-only", action="store_true",
                    help="only re-prove the shipped files and record their hashes")
    args = ap.parse_args(argv)
    for name in [] if args.manifest_only else args.names:
        gs, n, q, m = SHIPPED[name]
        t = time.perf_counter()
        ecc_set, report = generate(gs, n, q, m, jobs=args.jobs, progress=False)
        if not all(e.proven for e in ecc_set.classes):
            raise SystemExit(f"{name}: unproven class in a set to ship")
        write(ecc_set, DATA_DIR / f"{name}.json.gz", "native")
        f = report.final
        print(f"{name}: {f.classes} ECCs, {f.circuits} circuits, {f.transformations} xfers, "
              f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
    record_manifest()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
