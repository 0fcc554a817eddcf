"""A cache of load-time verification verdicts, keyed by the sha256 of an ECC file's bytes.

Folder: $QUARTZ_CACHE_DIR, else $XDG_CACHE_HOME/quartz, else ~/.cache/quartz (subfolder
ecc-verdicts/). Only files that passed verification are recorded (with the classes that were
dropped as unprovable); entries are written atomically and an unreadable or inconsistent entry
is ignored, so the cache can only save time, never make a file be believed."""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_text

VERSION = 1  # bump when the verifier or what a verdict means changes
log = logging.getLogger("quartz")


def cache_dir() -> Path:
    """The folder of the verdict cache (not created here)."""
    root = os.environ.get("QUARTZ_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg, "quartz") if xdg else os.path.join(os.path.expanduser("~"), ".cache", "quartz")
    return Path(root) / "ecc-verdicts"


def _entry(sha: str) -> Path:
    return cache_dir() / f"{sha}.v{VERSION}.json"


def lookup(sha: str, num_classes: int) -> list[int] | None:
    """The indices of the classes dropped when the file with this hash was verified, or None
    when it has no (valid) verdict."""
    try:
        obj = json.loads(_entry(sha).read_text())
    except (OSError, ValueError):
        return None
    if not (isinstance(obj, dict) and obj.get("version") == VERSION and obj.get("sha256") == sha
            and obj.get("classes") == num_classes and isinstance(obj.get("dropped"), list)):
        return None
    dropped = obj["dropped"]
    if not all(type(i) is int and 0 <= i < num_classes for i in dropped):
        return None
    return dropped


def store(sha: str, num_classes: int, dropped: list[int], seconds: float) -> None:
    """Record that the file with this hash verified (best effort: a failure is only logged)."""
    obj = {"version": VERSION, "sha256": sha, "classes": num_classes, "dropped": list(dropped),
           "seconds": round(seconds, 3)}
    try:
        cache_dir().mkdir(parents=True, exist_ok=True)
        atomic_write_text(_entry(sha), json.dumps(obj))
    except (OSError, QuartzError) as e:
        log.debug("cannot write the ECC verdict cache: %s", e)
