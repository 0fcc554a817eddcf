"""The ECC sets shipped in quartz/data/ and `load`, which returns them (cached).

Shipped files are named <gate set>_<n>_<q>.json.gz (quartz's native format, gzip'd; every
class proven by quartz.verifier when it was generated, and the file's sha256 recorded then in
quartz/data/ecc_manifest.json, which `load` checks). Any other file is verified when it is
loaded (quartz.ecc_sets.load_check) unless `trust=True`. `DEFAULTS` names the set that
`load(<gate set>)` returns.
"""
from __future__ import annotations

import copy
import os
import threading
from pathlib import Path

from quartz.ecc_sets.files import loads, read_bytes
from quartz.ecc_sets.manifest import DATA_DIR, check_shipped
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError

# Gate set -> the shipped set load() returns by default.
DEFAULTS = {
    "nam": "nam_6_3",
    "clifford_t": "clifford_t_5_3",
    "ibm": "ibm_4_3",
    "ibm_modern": "ibm_modern_5_3",
    "ibm_heron": "ibm_heron_5_3",
    "rigetti": "rigetti_5_3",
    "ionq": "ionq_4_3",
}

_cache: dict[tuple[str, float, int, bool], ECCSet] = {}
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


def _is_shipped_name(s: str) -> bool:
    p = Path(s)
    return not (p.suffix in (".json", ".gz") or os.sep in s or p.is_file())


def load(name_or_path: str | os.PathLike[str] = "nam", *, trust: bool = False) -> ECCSet:
    """A shipped ECC set by gate set ('nam') or set name ('nam_3_3'), or any ECC set file.

    A shipped set must match the sha256 recorded when it was built; any other file is verified
    (the verdict cached by content hash) unless `trust`. A false class is a QuartzError naming
    the file, the class and its circuits. Files are read once and cached (keyed by path,
    modification time and size); each call returns a shallow copy, so callers may reorder or
    filter its classes freely."""
    s = str(name_or_path)
    shipped = _is_shipped_name(s)
    p = shipped_path(s) if shipped else Path(s)
    try:
        st = p.stat()
        key = (str(p.resolve()), st.st_mtime, st.st_size, trust)
    except OSError as e:
        raise QuartzError(f"cannot read ECC set {p}: {e.strerror}") from None
    with _lock:
        ecc_set = _cache.get(key)
    if ecc_set is None:
        data = read_bytes(p)
        if shipped and not trust:
            check_shipped(p.name[: -len(".json.gz")], p, data)
        ecc_set = loads(data, source=str(p), trust=trust or shipped)
        if shipped and not trust:
            ecc_set.metadata["load_check"] = "shipped"
        with _lock:
            _cache[key] = ecc_set
    out = copy.copy(ecc_set)
    out.classes = list(ecc_set.classes)
    out.metadata = dict(ecc_set.metadata)
    return out
