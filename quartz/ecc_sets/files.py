"""Reading and writing ECC set files: quartz's own format or Quartz's, optionally gzip'd.

`read` detects the format from the content and gzip from the magic bytes; `write` picks gzip
when the name ends in .gz and replaces the file atomically (no partial file on failure).
"""
from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from quartz.ecc_sets import native_format, quartz_format
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_bytes

FORMATS = ("native", "quartz")


def read(path: str | os.PathLike, *, gate_set: tuple[str, ...] | None = None) -> ECCSet:
    """Read an ECC set file in either format (gzip or plain JSON)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise QuartzError(f"cannot read ECC set {p}: {e.strerror}") from None
    return loads(data, source=str(p), gate_set=gate_set)


def decode_json(data: bytes | str, source: str = "<string>"):
    """The JSON value of (optionally gzip-compressed) file bytes; QuartzError when unreadable."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise QuartzError(f"{source}: corrupt gzip data: {e}") from None
    try:
        obj = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise QuartzError(f"{source}: not JSON (the file is not valid JSON text: {e})") from None
    except RecursionError:
        raise QuartzError(f"{source}: not an ECC set: JSON nested too deeply") from None
    return obj


def loads(data: bytes | str, *, source: str = "<string>", gate_set=None) -> ECCSet:
    """Parse the bytes (or text) of an ECC set file in either format."""
    obj = decode_json(data, source)
    if isinstance(obj, dict):
        return native_format.from_json(obj, source)
    return quartz_format.from_json(obj, source, gate_set)


def dumps(ecc_set: ECCSet, format: str = "native") -> str:
    """The file text of the set in `format` ("native" or "quartz")."""
    if format not in FORMATS:
        raise QuartzError(f"unknown ECC set format '{format}'; use one of {', '.join(FORMATS)}")
    obj = native_format.to_json(ecc_set) if format == "native" else quartz_format.to_json(ecc_set)
    return json.dumps(obj, separators=(",", ":"))


def write(ecc_set: ECCSet, path: str | os.PathLike, format: str = "native") -> None:
    """Write the set to `path` atomically; gzip-compressed when the name ends in .gz."""
    text = dumps(ecc_set, format).encode("utf-8")
    if str(path).endswith(".gz"):
        text = gzip.compress(text, compresslevel=9, mtime=0)
    atomic_write_bytes(path, text)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(path, 0o666 & ~umask)  # the temporary file was private (mkstemp)
    except OSError:
        pass
