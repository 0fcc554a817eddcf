"""Reading and writing ECC set files: quartz's own format or Quartz's, optionally gzip'd.

`read` detects the format from the content and gzip from the magic bytes; `write` picks gzip
when the name ends in .gz and replaces the file atomically (no partial file on failure).
A file is untrusted input: unless `trust=True`, what it marks proven is verified when it is
read (shipped sets by their recorded hash; see quartz.ecc_sets.load_check).
"""
from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path
from typing import Any

from quartz.ecc_sets import native_format, quartz_format
from quartz.ecc_sets.model import ECCSet
from quartz.errors import QuartzError
from quartz.io_utils import atomic_write_bytes, decode_text, read_input_bytes

FORMATS = ("native", "quartz")


MAX_JSON_BYTES = 512 * 2**20  # decompressed; the largest shipped set is about 1 MB


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of an ECC set file; QuartzError naming it when it cannot be read or is larger
    than $QUARTZ_MAX_INPUT_MB megabytes (default 100; checked before reading)."""
    return read_input_bytes(Path(path), "ECC set")


def read(path: str | os.PathLike[str], *, gate_set: tuple[str, ...] | None = None,
         trust: bool = False) -> ECCSet:
    """Read an ECC set file in either format (gzip or plain JSON); verified unless `trust`."""
    p = Path(path)
    return loads(read_bytes(p), source=str(p), gate_set=gate_set, trust=trust)


def _gunzip(data: bytes, source: str) -> bytes:
    """Decompressed gzip data, refusing more than MAX_JSON_BYTES (a gzip bomb)."""
    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(data, MAX_JSON_BYTES)
        if d.unconsumed_tail:
            raise QuartzError(f"{source}: more than {MAX_JSON_BYTES >> 20} MiB when decompressed")
        if not d.eof:
            raise QuartzError(f"{source}: corrupt gzip data: truncated")
    except zlib.error as e:
        raise QuartzError(f"{source}: corrupt gzip data: {e}") from None
    return out


def decode_json(data: bytes | str, source: str = "<string>") -> Any:
    """The JSON value of (optionally gzip-compressed) file bytes; QuartzError when unreadable."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    of = ""
    if data[:2] == b"\x1f\x8b":
        data, of = _gunzip(data, source), " of its decompressed data"
    text = decode_text(data, source, of)  # JSON files are UTF-8 (RFC 8259)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise QuartzError(f"{source}: not JSON (the file is not valid JSON text: {e})") from None
    except RecursionError:
        raise QuartzError(f"{source}: not an ECC set: JSON nested too deeply") from None
    return obj


def loads(data: bytes | str, *, source: str = "<string>", gate_set: tuple[str, ...] | None = None,
          trust: bool = False) -> ECCSet:
    """Parse the bytes (or text) of an ECC set file in either format; unless `trust`, the
    classes it marks proven are verified (QuartzError for a false one)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    obj = decode_json(raw, source)
    if isinstance(obj, dict):
        ecc_set = native_format.from_json(obj, source)
    else:
        ecc_set = quartz_format.from_json(obj, source, gate_set)
    if trust:
        ecc_set.metadata["load_check"] = "trusted"
        return ecc_set
    from quartz.ecc_sets.load_check import check_loaded

    return check_loaded(ecc_set, raw, source)


def dumps(ecc_set: ECCSet, format: str = "native") -> str:
    """The file text of the set in `format` ("native" or "quartz")."""
    if format not in FORMATS:
        raise QuartzError(f"unknown ECC set format '{format}'; use one of {', '.join(FORMATS)}")
    obj = native_format.to_json(ecc_set) if format == "native" else quartz_format.to_json(ecc_set)
    return json.dumps(obj, separators=(",", ":"))


def write(ecc_set: ECCSet, path: str | os.PathLike[str], format: str = "native") -> None:
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
