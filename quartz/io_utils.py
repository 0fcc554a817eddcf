r"""File helpers: bounded reads of input files (a size limit checked before reading, UTF-8
text), and atomic writes, so that a failure never leaves a partial output file.

>>> from quartz.io_utils import decode_text
>>> decode_text(b"h q[0];", "a.qasm")
'h q[0];'
>>> decode_text(b"\xf0\x9f\x00\xff", "b.qasm")
Traceback (most recent call last):
...
quartz.errors.QuartzError: b.qasm is not a text file (not UTF-8) at byte 0
"""
from __future__ import annotations

import math
import os
import stat
import tempfile
from pathlib import Path

from quartz.errors import QuartzError

MAX_INPUT_ENV = "QUARTZ_MAX_INPUT_MB"
DEFAULT_MAX_INPUT_MB = 100  # MB = 2**20 bytes; a large benchmark circuit is a few MB


def max_input_mb() -> float:
    """The largest input file read, in megabytes (2**20 bytes): $QUARTZ_MAX_INPUT_MB (default
    100)."""
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return float(DEFAULT_MAX_INPUT_MB)
    try:
        mb = float(raw)
    except ValueError:
        mb = math.nan
    if not (mb > 0 and math.isfinite(mb)):
        raise QuartzError(f"{MAX_INPUT_ENV} must be a positive number of megabytes, got {raw!r}")
    return mb


def max_input_bytes() -> int:
    """`max_input_mb()` in bytes."""
    return max(1, round(max_input_mb() * 2**20))


def _limit() -> str:
    return f"the limit is {max_input_mb():g} MB ({MAX_INPUT_ENV})"


def _label(path: str | os.PathLike[str], what: str) -> str:
    return f"{what} {path}" if what else str(path)


def check_input_size(path: str | os.PathLike[str], what: str = "") -> int:
    """The size of the input file `path` in bytes (from stat, nothing is read); a QuartzError
    naming it when it cannot be read, is a folder, or is larger than `max_input_bytes()`.
    `what` ("ECC set", "RL model") goes before the path in the message."""
    limit = max_input_bytes()
    label = _label(path, what)
    try:
        st = os.stat(path)
    except OSError as e:
        raise QuartzError(f"cannot read {label}: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise QuartzError(f"cannot read {label}: it is a directory")
    if st.st_size > limit:
        raise QuartzError(f"{label} is {st.st_size / 2**20:.4g} MB; {_limit()}")
    return st.st_size


def read_input_bytes(path: str | os.PathLike[str], what: str = "") -> bytes:
    """The bytes of the input file `path`, its size checked before it is read (see
    `check_input_size`); a pipe or device without a size is cut off at the limit too."""
    check_input_size(path, what)
    limit = max_input_bytes()
    label = _label(path, what)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise QuartzError(f"cannot read {label}: {e.strerror}") from None
    if len(data) > limit:
        raise QuartzError(f"{label} is more than {max_input_mb():g} MB; {_limit()}")
    return data


def decode_text(data: bytes, label: str, of: str = "") -> str:
    """`data` as UTF-8 text; a QuartzError "LABEL is not a text file (...) at byte N" for
    bytes that are not UTF-8 or a NUL byte (`of` is added after the byte offset, e.g. " of
    its decompressed data")."""
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
        bad = None
    except UnicodeDecodeError as e:
        bad = e.start
    if bad is not None and (nul < 0 or bad <= nul):
        raise QuartzError(f"{label} is not a text file (not UTF-8) at byte {bad}{of}")
    if nul >= 0:
        raise QuartzError(f"{label} is not a text file (a NUL byte) at byte {nul}{of}")
    return text


def read_input_text(path: str | os.PathLike[str], what: str = "") -> str:
    """The UTF-8 text of the input file `path` (size checked first; see `decode_text`)."""
    return decode_text(read_input_bytes(path, what), _label(path, what))


def _existing_ancestor(path: Path) -> Path:
    """The nearest of `path`'s folders (or `path` itself) that exists."""
    for p in (path, *path.parents):
        if p.exists():
            return p
    return Path(".")


def _probe(folder: Path, name: str, out: str | os.PathLike[str]) -> None:
    """Create and remove a file in `folder`: the real test of writability (os.access is wrong
    for root and on some file systems)."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise QuartzError(f"cannot write {out}: directory {folder}: {e.strerror}") from None


def check_output_file(path: str | os.PathLike[str]) -> Path:
    """`path` as a Path, checked before any work is done: a QuartzError ("cannot write PATH:
    ...") when it is a folder, or its folder does not exist, is not a folder or is not
    writable. Nothing is left behind."""
    p = Path(path)
    folder = p.parent
    if p.is_dir():
        raise QuartzError(f"cannot write {path}: it is a directory")
    if not folder.is_dir():
        anc = _existing_ancestor(folder)
        if not anc.is_dir():
            raise QuartzError(f"cannot write {path}: {anc} is not a directory")
        raise QuartzError(f"cannot write {path}: directory {folder} does not exist")
    _probe(folder, p.name, path)
    return p


def check_output_folder(path: str | os.PathLike[str]) -> Path:
    """`path` as a Path, checked before any work is done for a folder that will be created (with
    its parents) and written to: a QuartzError when it or the nearest existing folder above it
    is not a folder or is not writable. Nothing is created."""
    p = Path(path)
    anc = _existing_ancestor(p)
    if not anc.is_dir():
        where = "it is not a directory" if anc == p else f"{anc} is not a directory"
        raise QuartzError(f"cannot write to {path}: {where}")
    _probe(anc, "quartz", f"to {path}")
    return p


def _umask() -> int:
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise QuartzError(f"cannot write {path}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file normal permissions
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise QuartzError(f"cannot write {path}: {e.strerror}") from None
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Text version of `atomic_write_bytes` (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"))
