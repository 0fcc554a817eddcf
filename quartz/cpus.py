"""How many CPUs this process may use: the default for threads and worker processes."""
from __future__ import annotations

import os

from quartz.errors import QuartzError


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one), at least 1.

    >>> available_cpus() >= 1
    True
    """
    count = getattr(os, "process_cpu_count", None)  # Python >= 3.13: honours affinity
    if count is not None:
        n = count()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - platforms without affinity masks
        n = os.cpu_count()
    return max(1, n or 1)


def resolve_threads(threads: int | None, what: str = "threads") -> int:
    """`threads`, or the available CPUs when None; a clear error for anything but an int >= 1."""
    if threads is None:
        return available_cpus()
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise QuartzError(f"{what} must be a whole number >= 1, got {threads!r}")
    return threads
