"""Checkpoints: model weights, sizes, the ECC set they index, optimizer state and progress.

A checkpoint file is untrusted input: it is read with `torch.load(weights_only=True)`, which
unpickles only tensors and plain containers (dict, list, tuple, str, numbers, None), so a file
that would run code is refused. Everything but the tensors (sizes, `meta`) is plain JSON-able
data; `save_checkpoint` refuses anything else, and `load_checkpoint` checks the layout and the
tensor shapes before it builds the network.
"""
from __future__ import annotations

import hashlib
import io
import math
import numbers
import os
import pickle
import warnings
from dataclasses import fields
from pathlib import Path

from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_bytes, check_input_size
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


def plain_data(value, where: str = "meta"):
    """A copy of `value` as JSON-able plain data (None, bool, int, finite float, str, and lists,
    tuples and str-keyed dicts of them; numpy scalars become Python numbers); a QuartzError
    naming the offending entry for anything else."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise QuartzError(f"{where} is {value}, not a finite number")
        return float(value)
    if isinstance(value, (list, tuple)):
        return type(value)(plain_data(v, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise QuartzError(f"{where} has a key {k!r} that is not a string")
            out[k] = plain_data(v, f"{where}[{k!r}]")
        return out
    raise QuartzError(f"{where} is a {type(value).__name__}, not plain data "
                      "(None, bool, int, float, str, list, tuple or dict)")


def save_checkpoint(path: str | os.PathLike, model: ActorCritic, meta: dict,
                    optimizer=None) -> None:
    """Write a checkpoint atomically (no partial file on failure); `meta` must be plain data."""
    torch, _ = require_torch()
    state = {"format": FORMAT, "config": model.config.to_dict(),
             "model": {k: v.detach().cpu() for k, v in model.state_dict().items()},
             "meta": plain_data(dict(meta))}
    if optimizer is not None:
        state["optimizer"] = optimizer.state_dict()
    buf = io.BytesIO()
    torch.save(state, buf)
    atomic_write_bytes(path, buf.getvalue())


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _unpickling_reason(e: Exception) -> str:
    """The line of torch's long weights-only error that says what was refused."""
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    for ln in lines:
        if "GLOBAL" in ln or "Unsupported" in ln or "load key" in ln:
            return ln
    return lines[0] if lines else type(e).__name__


def _read_state(path: Path) -> dict:
    """The checkpoint's dict, unpickled with weights_only=True (no code runs); a file larger
    than $QUARTZ_MAX_INPUT_MB megabytes (default 100) is refused before it is read."""
    torch, _ = require_torch()
    check_input_size(path, "RL model")
    try:
        with warnings.catch_warnings():  # torch warns about odd pickle protocols; we say more
            warnings.simplefilter("ignore")
            state = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        raise QuartzError(f"cannot read RL model {path}: refusing a file that is not only tensors "
                          "and plain data (unpickling it in full could run code; "
                          f"{_unpickling_reason(e)})") from None
    except Exception as e:  # torch raises many types for corrupt files
        raise QuartzError(f"cannot read RL model {path}: {_first_line(e)}") from None
    if not isinstance(state, dict) or state.get("format") != FORMAT:
        raise QuartzError(f"{path} is not a quartz RL model (expected format {FORMAT})")
    return state


def _config(state: dict, path: Path) -> ModelConfig:
    cfg = state.get("config")
    names = {f.name for f in fields(ModelConfig)}
    if (not isinstance(cfg, dict) or not set(cfg) <= names or "num_actions" not in cfg
            or not all(type(v) is int and v > 0 for v in cfg.values())):
        raise QuartzError(f"RL model {path}: bad 'config' (expected positive integers "
                          f"{', '.join(sorted(names))})")
    return ModelConfig(**cfg)


def _weights(state: dict, config: ModelConfig, path: Path) -> dict:
    """The state dict, checked key by key and shape by shape against the network `config`
    describes (built on the meta device first, so absurd sizes allocate nothing)."""
    torch, _ = require_torch()
    weights = state.get("model")
    if not isinstance(weights, dict) or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in weights.items()):
        raise QuartzError(f"RL model {path}: 'model' is not a dict of tensors")
    with torch.device("meta"):
        shapes = {k: tuple(v.shape) for k, v in ActorCritic(config).state_dict().items()}
    if set(weights) != set(shapes):
        missing, extra = sorted(set(shapes) - set(weights)), sorted(set(weights) - set(shapes))
        raise QuartzError(f"RL model {path}: weights do not match its config (missing "
                          f"{missing[:3]}, unexpected {extra[:3]})")
    for k, shape in shapes.items():
        if tuple(weights[k].shape) != shape:
            raise QuartzError(f"RL model {path}: weight {k} has shape {tuple(weights[k].shape)}, "
                              f"its config needs {shape}")
    return weights


def load_checkpoint(path: str | os.PathLike, dev=None) -> tuple[ActorCritic, dict, dict | None]:
    """(model, meta, optimizer state or None) from a checkpoint file; a QuartzError for a file
    that is not a quartz RL model or that would run code when unpickled."""
    path = Path(path)
    if not path.is_file():
        raise QuartzError(f"RL model {path} does not exist")
    state = _read_state(path)
    config = _config(state, path)
    weights = _weights(state, config, path)
    meta = state.get("meta", {})
    if not isinstance(meta, dict):
        raise QuartzError(f"RL model {path}: 'meta' is not a dict")
    meta = plain_data(meta, f"RL model {path}: meta")
    opt = state.get("optimizer")
    if opt is not None and not isinstance(opt, dict):
        raise QuartzError(f"RL model {path}: 'optimizer' is not a dict")
    model = ActorCritic(config)
    model.load_state_dict(weights)
    if dev is not None:
        model.to(dev)
    model.eval()
    return model, meta, opt


def check_compatible(meta: dict, transformations, path="model") -> None:
    """Raise a QuartzError when a model was trained for another ECC set."""
    fp = ecc_fingerprint(transformations)
    if meta.get("ecc_fingerprint") != fp:
        raise QuartzError(
            f"RL {path} was trained for another ECC set ({meta.get('num_transformations')} "
            f"transformations, fingerprint {meta.get('ecc_fingerprint')}; this one has "
            f"{len(transformations)}, fingerprint {fp}); train one with 'quartz rl train'")
