"""Optional dependencies of quartz.rl: torch and torch-geometric, imported on demand."""
from __future__ import annotations

import importlib
import importlib.util

from quartz.errors import QuartzError

INSTALL_HINT = "pip install 'quartz-superopt[rl]'"


def require_torch():
    """Import and return (torch, torch_geometric), or raise a QuartzError saying what to install."""
    try:
        torch = importlib.import_module("torch")
        pyg = importlib.import_module("torch_geometric")
    except ImportError as e:
        raise _missing(e.name or str(e)) from None
    return torch, pyg


def _missing(what: str) -> QuartzError:
    """The error for a missing torch or torch-geometric: what is missing and what to install."""
    return QuartzError(f"method 'rl' needs torch and torch-geometric ({what} is missing): "
                       f"run {INSTALL_HINT}")


def check_torch_installed() -> None:
    """Raise require_torch's QuartzError when torch or torch-geometric is not installed, without
    importing them (which takes seconds)."""
    for name in ("torch", "torch_geometric"):
        if importlib.util.find_spec(name) is None:
            raise _missing(name)


def device():
    """The torch device quartz.rl runs the model on: CUDA when available, else CPU."""
    torch, _ = require_torch()
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
