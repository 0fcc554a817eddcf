"""The manifest of the shipped ECC sets: the sha256 of each file in quartz/data/, recorded when
the sets were built (`python -m quartz.generator.ship` writes it), so that a shipped set is
believed without re-verification only while its bytes are the ones that were verified."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_text

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
MANIFEST = DATA_DIR / "ecc_manifest.json"
SUFFIX = ".json.gz"

_cache: dict[float, dict[str, str]] = {}


def sha256(data: bytes) -> str:
    """Hex sha256 of file bytes."""
    return hashlib.sha256(data).hexdigest()


def compute_manifest(data_dir: Path = DATA_DIR) -> dict[str, str]:
    """{set name: sha256} of the ECC set files in `data_dir`, as they are now."""
    return {p.name[: -len(SUFFIX)]: sha256(p.read_bytes()) for p in sorted(data_dir.glob(f"*{SUFFIX}"))}


def write_manifest(data_dir: Path = DATA_DIR) -> dict[str, str]:
    """Record the hashes of the shipped files (run right after they are generated and proven)."""
    hashes = compute_manifest(data_dir)
    atomic_write_text(data_dir / MANIFEST.name, json.dumps(
        {"format": "quartz-ecc-manifest", "sha256": hashes}, indent=1, sort_keys=True) + "\n")
    _cache.clear()
    return hashes


def recorded_hashes() -> dict[str, str]:
    """{set name: sha256} from the manifest ({} when there is none)."""
    try:
        mtime = MANIFEST.stat().st_mtime
    except OSError:
        return {}
    hashes = _cache.get(mtime)
    if hashes is None:
        try:
            obj = json.loads(MANIFEST.read_text())
            hashes = {str(k): str(v) for k, v in obj["sha256"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise QuartzError(f"the manifest of the shipped ECC sets {MANIFEST} is unreadable; "
                              "reinstall quartz") from None
        _cache.clear()
        _cache[mtime] = hashes
    return hashes


def is_shipped_content(data: bytes) -> bool:
    """True when `data` is byte for byte one of the shipped, verified sets."""
    return sha256(data) in set(recorded_hashes().values())


def check_shipped(name: str, path: Path, data: bytes) -> None:
    """QuartzError unless the bytes of shipped set `name` match the manifest."""
    expected = recorded_hashes().get(name)
    if expected is None:
        raise QuartzError(f"shipped ECC set {path} is not in the manifest {MANIFEST.name}; "
                          "reinstall quartz (or pass the file as a path to have it verified)")
    if sha256(data) != expected:
        raise QuartzError(f"shipped ECC set {path} does not match the sha256 recorded when it was "
                          "built (modified or corrupted); reinstall quartz, or regenerate it with "
                          "'python -m quartz.generator.ship'")
