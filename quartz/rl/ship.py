"""Install trained checkpoints as the shipped RL models: `python -m quartz.rl.ship CKPT...`.

Each checkpoint (a file of `quartz rl train`) is loaded as untrusted input, checked against
the shipped ECC set of the gate set it was trained for, and written to quartz/data as that
gate set's default model (quartz.rl.optimize.DEFAULT_MODELS) without its optimizer state,
which only `--resume` needs (about two thirds of a checkpoint's bytes).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from quartz.errors import QuartzError


def ship_model(checkpoint: str | os.PathLike, data_dir: str | os.PathLike | None = None) -> Path:
    """Write `checkpoint` as the shipped model of its gate set; returns the path written."""
    from quartz import ecc_sets
    from quartz.gatesets.gate_set import GATE_SETS
    from quartz.rl.checkpoint import check_compatible, load_checkpoint, save_checkpoint
    from quartz.rl.optimize import DATA_DIR, DEFAULT_MODELS

    model, meta, _ = load_checkpoint(checkpoint)
    gates = tuple(sorted(meta.get("gate_set") or ()))
    names = [n for n, gs in GATE_SETS.items() if tuple(sorted(gs.gates)) == gates]
    if not names or gates not in DEFAULT_MODELS:
        raise QuartzError(f"{checkpoint} was trained for gates {{{', '.join(gates)}}}, not a "
                          f"built-in gate set ({', '.join(GATE_SETS)})")
    check_compatible(meta, ecc_sets.load(names[0]).transformations(), str(checkpoint))
    out = Path(DATA_DIR if data_dir is None else data_dir) / DEFAULT_MODELS[gates]
    out.parent.mkdir(parents=True, exist_ok=True)
    save_checkpoint(out, model, meta)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Install trained checkpoints as the shipped models.")
    ap.add_argument("checkpoints", nargs="+", help="files written by `quartz rl train -o`")
    ap.add_argument("--data-dir", help="where to write them (default: the package's data)")
    args = ap.parse_args(argv)
    try:
        for ckpt in args.checkpoints:
            out = ship_model(ckpt, args.data_dir)
            print(f"{ckpt} -> {out} ({out.stat().st_size / 2**20:.2f} MiB)", file=sys.stderr)
    except QuartzError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
