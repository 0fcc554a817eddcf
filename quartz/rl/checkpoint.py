"""Checkpoints: model weights, sizes, the ECC set they index, optimizer state and progress."""
from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_bytes
from quartz.rl._deps import require_torch
from quartz.rl.model import ActorCritic, ModelConfig

FORMAT = "quartz-rl-1"


def xfer_keys(transformations) -> list[str]:
    """A stable key per transformation: structural hashes of its source and target."""
    return [f"{t.source.structural_hash():x}:{t.target.structural_hash():x}" for t in transformations]


def ecc_fingerprint(transformations) -> str:
    """A short hash of the ordered transformation list (the actor's action space)."""
    return hashlib.sha256(";".join(xfer_keys(transformations)).encode()).hexdigest()[:16]


def action_map(meta: dict, transformations, path="model", min_overlap: float = 0.5):
    """None when the model's action space is exactly these transformations; otherwise, for each
    model action, the index of the same transformation here (-1 if absent).

    Raises a QuartzError when fewer than `min_overlap` of the model's actions are found."""
    if meta.get("ecc_fingerprint") == ecc_fingerprint(transformations):
        return None
    keys = meta.get("xfer_keys")
    if keys:
        index = {k: i for i, k in enumerate(xfer_keys(transformations))}
        mapping = [index.get(k, -1) for k in keys]
        if sum(i >= 0 for i in mapping) >= min_overlap * len(keys):
            return mapping
    check_compatible(meta, transformations, path)  # raises with the details
    return None


def save_checkpoint(path: str | os.PathLike, model: ActorCritic, meta: dict,
                    optimizer=None) -> None:
    """Write a checkpoint atomically (no partial file on failure)."""
    torch, _ = require_torch()
    state = {"format": FORMAT, "config": model.config.to_dict(),
             "model": {k: v.detach().cpu() for k, v in model.state_dict().items()},
             "meta": dict(meta)}
    if optimizer is not None:
        state["optimizer"] = optimizer.state_dict()
    buf = io.BytesIO()
    torch.save(state, buf)
    atomic_write_bytes(path, buf.getvalue())


def load_checkpoint(path: str | os.PathLike, dev=None) -> tuple[ActorCritic, dict, dict | None]:
    """(model, meta, optimizer state or None) from a checkpoint file."""
    torch, _ = require_torch()
    path = Path(path)
    if not path.is_file():
        raise QuartzError(f"RL model {path} does not exist")
    try:
        state = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as e:  # torch raises many types for corrupt files
        raise QuartzError(f"cannot read RL model {path}: {e}") from None
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        raise QuartzError(f"{path} is not a quartz RL model (expected format {FORMAT})")
    model = ActorCritic(ModelConfig(**state["config"]))
    model.load_state_dict(state["model"])
    if dev is not None:
        model.to(dev)
    model.eval()
    return model, state.get("meta", {}), state.get("optimizer")


def check_compatible(meta: dict, transformations, path="model") -> None:
    """Raise a QuartzError when a model was trained for another ECC set."""
    fp = ecc_fingerprint(transformations)
    if meta.get("ecc_fingerprint") != fp:
        raise QuartzError(
            f"RL {path} was trained for another ECC set ({meta.get('num_transformations')} "
            f"transformations, fingerprint {meta.get('ecc_fingerprint')}; this one has "
            f"{len(transformations)}, fingerprint {fp}); train one with 'quartz rl train'")
