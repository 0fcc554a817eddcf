"""`make demo`: optimize a small benchmark circuit with the shipped ECC set and print before/after."""
from __future__ import annotations

import sys
from pathlib import Path

import quartz


def demo_circuit() -> quartz.Circuit:
    """The Toffoli circuit tof_3 from ../shared when present, else a generated Toffoli chain."""
    here = Path(__file__).resolve().parents[1]
    path = here.parent / "shared" / "benchmarks" / "nam" / "tof_3.qasm"
    if path.exists():
        return quartz.load(path)
    from quartz.circuits.toffoli import tof_n  # generated family, no external files needed

    return tof_n(3, gate_set="nam")


def main(timeout: float = 10.0) -> int:
    """Print the demo circuit's statistics before and after optimization (timeout in s)."""
    c = demo_circuit()
    print(f"before: {c.summary()}")
    try:
        out = quartz.optimize(c, "nam", timeout=timeout, seed=0)
    except quartz.QuartzError as e:  # a broken install must not look like a working demo
        print(f"quartz demo: the optimizer failed: {e}", file=sys.stderr)
        return 1
    print(f"after:  {out.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
