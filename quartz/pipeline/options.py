"""quartz.optimize's keywords, checked once before any work: one clear error for a bad value
or a combination that cannot hold."""
from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence, Union

from quartz.cpus import resolve_threads
from quartz.errors import QuartzError

if TYPE_CHECKING:  # pragma: no cover
    from quartz.ecc_sets.model import ECCSet, Transformation
    from quartz.search.costs import CostLike
    from quartz.search.matcher import Matcher
    from quartz.search.patience import PatienceLike

# An ECC set: a Matcher, an ECCSet, transformations, a shipped set name or file, or None (the
# gate set's shipped set).
EccSetLike = Union["Matcher", "ECCSet", Sequence["Transformation"], str, "os.PathLike[str]", None]

METHODS = ("search", "rl")


@dataclass(frozen=True)
class Options:
    """What the caller asked for (quartz.optimize's keywords), checked."""

    timeout: float = 60.0
    seed: int = 0
    method: str = "search"
    model: str | None = None
    ecc_set: EccSetLike = None
    cost: CostLike = "gates"
    trust_ecc: bool = False
    progress: bool = False
    preprocess: bool = True
    threads: int = 1
    algorithm: str = "anneal"
    patience: PatienceLike = "auto"
    exact: bool = True
    work: int | None = None  # the search's budget in work units per chain
    check_timeout: float | None = None
    history: list[tuple[float, float]] | None = None
    workers: int | None = None
    address: str | None = None
    coupling: tuple[tuple[int, int], ...] | None = None  # the pairs a two-qubit gate may use

    @classmethod
    def checked(cls, **kw: Any) -> Options:
        """Options from optimize's keywords, with a clear QuartzError for a bad value; `seed`
        None draws one, `threads` None takes the CPUs, and patience 'auto' (it reads the wall
        clock) is off with a work budget."""
        from quartz.search.patience import as_patience

        o = cls(**kw)
        if o.method not in METHODS:
            raise QuartzError(f"unknown method '{o.method}'; choose one of {', '.join(METHODS)}")
        check_seconds("timeout", o.timeout)
        threads = resolve_threads(kw.get("threads"))
        as_patience(o.patience)  # a bad value fails before any work
        seed = resolve_seed(kw.get("seed"))
        if not o.exact and o.method != "search":
            raise QuartzError("exact=False (block resynthesis) needs method='search'")
        if o.check_timeout is not None:
            check_seconds("check_timeout", o.check_timeout)
        check_work(o.work, o.method, o.algorithm, o.exact)
        coupling = None if o.coupling is None else coupling_of(o.coupling)
        if coupling is not None and o.method != "search":
            raise QuartzError("a coupling map needs method='search'")
        work = None if o.work is None else int(o.work)
        patience = o.patience
        if work is not None and isinstance(patience, str) and patience == "auto":
            patience = None  # a wall-clock rule would make the result depend on the machine
        return replace(o, threads=threads, seed=seed, work=work, patience=patience,
                       coupling=coupling)

    def with_timeout(self, seconds: float) -> Options:
        """The same options with another timeout (a part's share of the call's)."""
        return replace(self, timeout=seconds)


def coupling_of(coupling: Any) -> tuple[tuple[int, int], ...]:
    """The directed qubit pairs of a Qiskit CouplingMap (its edges) or of a list of pairs."""
    from quartz.search.coupling import coupling_pairs

    edges = getattr(coupling, "get_edges", None)
    return coupling_pairs(edges() if callable(edges) else coupling)


def check_seconds(what: str, value: object) -> None:
    """A clear error unless `value` is a non-negative number of seconds."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise QuartzError(f"{what} must be a non-negative number of seconds, got {value!r}")


def check_work(work: object, method: str, algorithm: str, exact: bool) -> None:
    """A clear error for a `work` budget optimize cannot honour."""
    if work is None:
        return
    if isinstance(work, bool) or not isinstance(work, numbers.Integral) or work < 0:
        raise QuartzError(f"work must be a non-negative number of work units, got {work!r}")
    if method != "search" or algorithm != "anneal" or not exact:
        raise QuartzError("work (a budget in work units) needs method='search', "
                          "algorithm='anneal' and exact=True")


def resolve_seed(seed: object) -> int:
    """`seed` checked, or a fresh random one for None (the same rule for every method)."""
    if seed is None:
        return int.from_bytes(os.urandom(4), "little")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise QuartzError(f"seed must be an int or None, got {seed!r}")
    return int(seed)
