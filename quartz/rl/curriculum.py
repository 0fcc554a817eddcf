"""The training curriculum of the shipped Nam model: which circuits it learns on and which it
is scored on, written as two folders of QASM for `quartz rl train --circuits/--heldout`.

Training: Quarl's six pretraining circuits of the Nam suite plus generated circuits of
`quartz.circuits` families that are not in the suite (adders, multipliers, multi-controlled
X, Grover, QFT at sizes the suite does not have; in another gate set, those it cannot express
exactly are left out). Held out: the other 20 suite circuits are
never trained on; the learning curve scores five small ones of them (HELDOUT_CURVE).

    python -m quartz.rl.curriculum ../shared/benchmarks/nam /tmp/curriculum
    quartz rl train --gateset nam --circuits /tmp/curriculum/train \\
        --heldout /tmp/curriculum/heldout --log rl_nam.csv -o rl_nam.pt --minutes 30
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quartz.errors import GateSetError, QuartzError

QUARL_PRETRAINING = ("barenco_tof_3", "vbe_adder_3", "mod5_4", "mod_mult_55", "tof_5", "gf2^4_mult")
GENERATED = (("cuccaro_adder", (3, 4)), ("vbe_adder", (2,)), ("gf2_mult", (3,)), ("mcx", (4, 5)),
             ("grover", (3,)), ("qft", (4,)))
HELDOUT_CURVE = ("tof_3", "tof_4", "barenco_tof_4", "csla_mux_3", "rc_adder_6")


def write_curriculum(suite: str | Path, out: str | Path, gate_set: str = "nam") -> tuple[Path, Path]:
    """Write out/train/*.qasm and out/heldout/*.qasm (see the module docstring); returns both."""
    from quartz import qasm
    from quartz.circuits import family

    suite, out = Path(suite), Path(out)
    missing = [n for n in QUARL_PRETRAINING + HELDOUT_CURVE if not (suite / f"{n}.qasm").is_file()]
    if missing:
        raise QuartzError(f"{suite} lacks {', '.join(missing)} (the Nam suite's .qasm files)")
    train, held = out / "train", out / "heldout"
    for d in (train, held):
        d.mkdir(parents=True, exist_ok=True)
    for n in QUARL_PRETRAINING:
        (train / f"{n}.qasm").write_text((suite / f"{n}.qasm").read_text())
    for fam, sizes in GENERATED:
        for size in sizes:
            try:
                made = list(family(fam, (size,), gate_set=gate_set))
            except GateSetError:  # e.g. mcx's pi/16 phases in Clifford+T: not in this curriculum
                continue
            for name, c in made:
                (train / f"{name}.qasm").write_text(qasm.dumps(c))
    for n in HELDOUT_CURVE:
        (held / f"{n}.qasm").write_text((suite / f"{n}.qasm").read_text())
    return train, held


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the RL training curriculum's two folders.")
    ap.add_argument("suite", help="folder of the Nam suite's .qasm files (../shared/benchmarks/nam)")
    ap.add_argument("out", help="folder to write train/ and heldout/ into")
    args = ap.parse_args(argv)
    try:
        train, held = write_curriculum(args.suite, args.out)
    except QuartzError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{len(list(train.glob('*.qasm')))} training circuits in {train}, "
          f"{len(list(held.glob('*.qasm')))} held-out in {held}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
