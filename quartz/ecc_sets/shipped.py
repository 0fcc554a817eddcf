"""The ECC sets shipped in quartz/data/ and `load`, which returns them (cached).

Shipped files are named <gate set>_<n>_<q>.json.gz (quartz's native format, gzip'd; every
class proven by quartz.verifier when it was generated). `DEFAULTS` names the set that
`load(<gate set>)` returns.
"""
from __future__ import annotations

import copy
import os
import threading
from pathlib import Path

from quartz.ecc_sets.files import read
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

# Gate set -> the shipped set load() returns by default.
DEFAULTS = {
    "nam": "nam_6_3",
    "clifford_t": "clifford_t_5_3",
    "ibm": "ibm_4_3",
    "ibm_modern": "ibm_modern_5_3",
    "rigetti": "rigetti_5_3",
    "ionq": "ionq_4_3",
}

_cache: dict[tuple[str, float], ECCSet] = {}
_lock = threading.Lock()


def shipped_sets() -> list[str]:
    """Names of the shipped sets (e.g. 'nam_3_3'), sorted."""
    return sorted(p.name[: -len(".json.gz")] for p in DATA_DIR.glob("*.json.gz"))


def shipped_path(name: str) -> Path:
    """The file of a shipped set, by set name ('nam_3_3') or gate set name ('nam')."""
    key = name.strip().lower().replace("-", "_").replace("+", "_")
    if key in ("clifford_t", "cliffordt", "clifford_plus_t"):
        key = "clifford_t"
    key = DEFAULTS.get(key, key)
    p = DATA_DIR / f"{key}.json.gz"
    if not p.is_file():
        raise QuartzError(f"no shipped ECC set '{name}'; shipped: {', '.join(shipped_sets()) or 'none'}"
                          " (or pass a file path)")
    return p


def load(name_or_path: str | os.PathLike = "nam") -> ECCSet:
    """A shipped ECC set by gate set ('nam') or set name ('nam_3_3'), or any ECC set file.

    Files are read once and cached (keyed by path and modification time); each call returns a
    shallow copy, so callers may reorder or filter its classes freely."""
    s = str(name_or_path)
    p = Path(s)
    if not (p.suffix in (".json", ".gz") or os.sep in s or p.is_file()):
        p = shipped_path(s)
    try:
        key = (str(p.resolve()), p.stat().st_mtime)
    except OSError as e:
        raise QuartzError(f"cannot read ECC set {p}: {e.strerror}") from None
    with _lock:
        ecc_set = _cache.get(key)
        if ecc_set is None:
            ecc_set = _cache[key] = read(p)
    out = copy.copy(ecc_set)
    out.classes = list(ecc_set.classes)
    out.metadata = dict(ecc_set.metadata)
    return out
