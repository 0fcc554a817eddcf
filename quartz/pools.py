"""Process pools that a Ctrl-C or SIGTERM can stop: the workers ignore SIGINT (the parent
decides what to keep), and an interrupted parent terminates them instead of waiting."""
from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def abandon(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued jobs and terminate the running workers, without waiting for them."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for w in workers:
        w.terminate()


@contextlib.contextmanager
def worker_pool(jobs: int, mp_context=None) -> Iterator[ProcessPoolExecutor]:
    """A ProcessPoolExecutor of `jobs` SIGINT-ignoring workers; when the block raises
    (KeyboardInterrupt included) the pool is abandoned, else shut down normally."""
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp_context, initializer=_ignore_sigint)
    try:
        yield pool
    except BaseException:
        abandon(pool)
        raise
    pool.shutdown(wait=True)
