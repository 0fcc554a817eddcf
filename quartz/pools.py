"""Process pools that a Ctrl-C or SIGTERM can stop: the workers ignore SIGINT (the parent
decides what to keep), and an interrupted parent terminates them instead of waiting.

Their processes are started by `spawn_context`: fresh interpreters (no fork of a process
with threads) that do not run the caller's ``__main__``, so a pool works the same from a
script, stdin (``python -``), ``python -c`` and a notebook."""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from quartz.errors import QuartzError

# The keys of multiprocessing.spawn's preparation data that make a child run the parent's
# __main__ (multiprocessing.spawn.prepare: by module name, or by running the file).
_MAIN_KEYS = ("init_main_from_name", "init_main_from_path")


def main_importable() -> bool:
    """Whether a spawned child could run this process's ``__main__`` as multiprocessing's
    "spawn" does: a module run with -m, a script file that exists, or nothing to run
    (``python -c``, a notebook). False for code read from stdin (``__file__`` is
    ``'<stdin>'``) or any other ``__file__`` that names no file."""
    from multiprocessing import process

    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None) is not None:
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(os.path.join(process.ORIGINAL_DIR or "", path))


def _spawn_launcher(keep_main: bool):
    """multiprocessing's POSIX spawn launch (popen_spawn_posix.Popen._launch), the same code,
    with its preparation data for the child less the caller's ``__main__`` (always, or with
    `keep_main` only where main_importable() is False); None where that launch is not there.

    Why a private detail: a spawned child runs the parent's ``__main__`` again when the
    preparation data names it (`_MAIN_KEYS`), and from stdin that names the file '<stdin>',
    which does not exist: every child dies at start and a pool reports BrokenProcessPool.
    multiprocessing documents no way to leave the main module out, and forkserver prepares
    its children the same way. So the stdlib's own launch function runs here with one name
    bound differently: its `spawn` module is a view of multiprocessing.spawn whose
    get_preparation_data drops those keys. Nothing global is changed (other pools, and this
    process's other users of multiprocessing, see the stock spawn). tests/test_pools.py
    checks that the children start from stdin and do not run the caller's main;
    `spawn_context` falls back to the stock spawn where this launch code is not what it
    expects."""
    if sys.platform == "win32":  # its spawn launch is another function (popen_spawn_win32)
        return None
    from multiprocessing import popen_spawn_posix, spawn
    launch = popen_spawn_posix.Popen._launch
    if not {"spawn", "get_preparation_data"} <= set(launch.__code__.co_names):
        return None

    def preparation_data(name: str) -> dict:
        data = spawn.get_preparation_data(name)
        if not (keep_main and main_importable()):
            for key in _MAIN_KEYS:
                data.pop(key, None)
        return data

    class SpawnView:
        get_preparation_data = staticmethod(preparation_data)

        def __getattr__(self, attr: str):
            return getattr(spawn, attr)

    return types.FunctionType(launch.__code__,
                              {**vars(popen_spawn_posix), "spawn": SpawnView()},
                              launch.__name__, launch.__defaults__, launch.__closure__)


_LAUNCHERS = {keep: _spawn_launcher(keep) for keep in (False, True)}

if _LAUNCHERS[False] is not None:
    from multiprocessing import popen_spawn_posix as _popen_spawn_posix

    class _Popen(_popen_spawn_posix.Popen):
        def _launch(self, process_obj) -> None:
            _LAUNCHERS[process_obj._keep_main](self, process_obj)


class _Process(multiprocessing.get_context("spawn").Process):
    """A spawned process that does not run the caller's __main__ (see _spawn_launcher)."""
    _keep_main = False

    @staticmethod
    def _Popen(process_obj):
        return _Popen(process_obj)


class _ProcessKeepingMain(_Process):
    """A spawned process that runs the caller's __main__ where it can (see _spawn_launcher)."""
    _keep_main = True


class _Context(type(multiprocessing.get_context("spawn"))):
    Process = _Process


class _ContextKeepingMain(type(multiprocessing.get_context("spawn"))):
    Process = _ProcessKeepingMain


def spawn_context(keep_main: bool = False) -> multiprocessing.context.BaseContext:
    """A multiprocessing context for quartz's worker processes: "spawn", whose children do not
    run the caller's ``__main__`` (only quartz's functions and plain data reach them), so
    they start from stdin, ``python -c``, a notebook or a script without the
    ``if __name__ == "__main__":`` guard. `keep_main`: run it where it can be run
    (main_importable), as "spawn" does, for pools that may be handed the caller's own
    functions (a cost function defined in a script).

    Where multiprocessing's launch is not the expected one (Windows, a future Python), the
    stock "spawn" context, and a QuartzError up front where its children could not start
    (main_importable() False) instead of a pool whose workers all die."""
    if _LAUNCHERS[keep_main] is None:
        if not main_importable():
            raise QuartzError("local worker processes cannot start from code read from stdin "
                              "on this platform: run it from a file, or use workers=1")
        return multiprocessing.get_context("spawn")
    return _ContextKeepingMain() if keep_main else _Context()


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
    """A ProcessPoolExecutor of `jobs` SIGINT-ignoring workers (started by `mp_context`,
    default spawn_context()); when the block raises (KeyboardInterrupt included) the pool is
    abandoned, else shut down normally."""
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp_context or spawn_context(),
                               initializer=_ignore_sigint)
    try:
        yield pool
    except BaseException:
        abandon(pool)
        raise
    pool.shutdown(wait=True)
