"""Ray, quartz's one engine for work across processes and machines.

`session(workers, address)` is where quartz meets Ray: with an `address` (or the RAY_ADDRESS
environment variable) it joins that cluster (`ray start --head` on one machine, `ray start
--address HEAD:6379` on the others); without one, or with 'local', it starts Ray on this
machine with `workers` CPUs for the duration of the block and stops it after. A Ray that this process already
started (`ray.init(...)`, as the tests do) is used as it is and left running.

`run_tasks(fn, items)` runs `fn(item)` as one Ray task per item and yields `(index, result)`
as tasks finish. Items and results are plain data (QASM text, numbers, dataclasses of them),
so a worker needs only the installed package. A task whose worker process dies is retried by
Ray (`retries` times); one that still fails, or raises, ends the run with a QuartzError that
names the item: nothing is dropped silently.

Ray is an optional dependency: `pip install 'quartz-superopt[ray]'`.
"""
from __future__ import annotations

import contextlib
import inspect
import os
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from quartz.errors import QuartzError

T = TypeVar("T")
R = TypeVar("R")

INSTALL_LINE = "pip install 'quartz-superopt[ray]'"
RETRIES = 3  # re-runs of a task whose worker process died


def import_ray() -> Any:
    """The ray module, or a QuartzError with the install line."""
    try:
        import ray
    except ImportError:
        raise QuartzError(f"distributed runs need Ray; install it with: {INSTALL_LINE}") from None
    return ray


def cluster_address(address: str | None) -> str | None:
    """The cluster to join: `address`, else RAY_ADDRESS, else None (a local Ray)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def wants_ray(address: str | None) -> bool:
    """Whether `address` (or RAY_ADDRESS) asks for Ray; when it does, Ray must be installed
    (a QuartzError with the install line otherwise), so a command fails before its work."""
    if cluster_address(address) is None:
        return False
    import_ray()
    return True


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """A QuartzError at once when nothing listens at a HOST:PORT (or ray://HOST:PORT)
    address; Ray itself would retry for minutes. Other forms ('auto') pass unchecked."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise QuartzError(f"could not start the Ray cluster at {address}: nothing answers "
                          f"there ({e.strerror or e}); start it with `ray start --head` or "
                          "check --address / RAY_ADDRESS") from None


@contextlib.contextmanager
def session(workers: int | None = None, address: str | None = None) -> Iterator[Any]:
    """Ray connected for the block (see the module docstring); yields the ray module."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if workers is not None and workers < 1:
        raise QuartzError(f"workers must be at least 1, got {workers}")
    where = cluster_address(address)
    if where == "local":
        where = None
    kw: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False)
    if where is not None:
        check_reachable(where)
    try:
        if where is not None:
            ray.init(address=where, **kw)
        else:
            # "local": a new Ray of our own, even when `ray start` runs on this machine
            ray.init(address="local", num_cpus=workers, **kw)
    except (ConnectionError, ValueError, RuntimeError) as e:
        target = f"the Ray cluster at {where}" if where else "a local Ray"
        raise QuartzError(f"could not start {target}: {e}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def run_tasks(fn: Callable[[T], R], items: Sequence[T], *, retries: int = RETRIES,
              num_cpus: float = 1, describe: Callable[[T], str] = repr,
              stop: Callable[[], bool] | None = None,
              in_flight: int | None = None) -> Iterator[tuple[int, R]]:
    """(index, fn(item)) for every item, in the order tasks finish, on the connected Ray.

    `num_cpus`: CPUs Ray reserves per task (a 2-thread search: 2). `describe(item)` names an
    item in errors. `stop()` is polled while waiting: once true, the running tasks are
    cancelled and the iteration ends. `in_flight`: at most this many tasks submitted at once
    (default: all; Ray queues what its CPUs cannot run yet).
    """
    ray = import_ray()
    if not ray.is_initialized():
        raise QuartzError("run_tasks needs a Ray session (quartz.distributed.session)")
    if not inspect.isfunction(fn):  # ray.remote takes Python functions only (not builtins)
        inner = fn

        def fn(item: T) -> R:
            return inner(item)

    remote = ray.remote(fn).options(max_retries=retries, retry_exceptions=False,
                                    num_cpus=num_cpus)
    limit = len(items) if in_flight is None else max(1, in_flight)
    queue = iter(range(len(items)))
    pending: dict[Any, int] = {}

    def submit() -> None:
        while len(pending) < limit:
            i = next(queue, None)
            if i is None:
                return
            pending[remote.remote(items[i])] = i

    submit()
    try:
        while pending:
            if stop is not None and stop():
                break
            done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in done:
                i = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    cause = e.cause if isinstance(e, ray.exceptions.RayTaskError) else e
                    raise QuartzError(f"task for {describe(items[i])} failed: "
                                      f"{type(cause).__name__}: {cause}") from None
                yield i, result
            submit()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def map_ordered(fn: Callable[[T], R], items: Iterable[T], **kw: Any) -> list[R]:
    """[fn(item) for item in items], computed as Ray tasks (run_tasks), in item order."""
    items = list(items)
    out: dict[int, R] = dict(run_tasks(fn, items, **kw))
    if len(out) != len(items):
        raise QuartzError(f"{len(items) - len(out)} of {len(items)} tasks did not finish")
    return [out[i] for i in range(len(items))]


__all__ = ["session", "run_tasks", "map_ordered", "import_ray", "cluster_address", "wants_ray",
           "check_reachable",
           "INSTALL_LINE", "RETRIES"]
