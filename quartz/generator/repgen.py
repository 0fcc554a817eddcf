"""RepGen driver: runs the native enumeration (quartz._core.Generator) round by round and
returns the candidate classes (circuits with equal fingerprints and equal states on the
fingerprint's random input, i.e. numerically equal up to global phase)."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from quartz import _core
from quartz.generator.light import LightCircuit

# Representatives expanded per native call (progress granularity).
_CHUNK = 4096


@dataclass
class Enumeration:
    """What RepGen produced: every kept circuit, grouped into numeric classes."""

    classes: list[list[LightCircuit]]  # classes with >= 2 circuits, members in generation order
    num_circuits: int                 # circuits kept (all classes, the empty circuit included)
    num_classes: int
    considered_per_round: list[int] = field(default_factory=list)
    kept_per_round: list[int] = field(default_factory=list)
    symbol_values: list[float] = field(default_factory=list)
    seconds: float = 0.0
    generator: Any = None  # the native quartz._core.Generator, for pruning in C++


def param_terms(gen: Any) -> list[tuple]:
    """The generator's parameter table as light parameters (quartz.generator.light)."""
    return [((-1, Fraction(k, d)),) if a < 0 else ((a, 1),) if b < 0
            else (((a, 2),) if a == b else ((a, 1), (b, 1))) for a, b, k, d in gen.params()]


def enumerate_classes(gates: tuple[str, ...], n: int, q: int, m: int, *, jobs: int = 1,
                      progress: bool = True, seed: int = 0, order: str = "type",
                      constants: dict[str, list[Fraction]] | None = None,
                      collect: bool = True) -> Enumeration:
    """Run RepGen for k = 1..n gates on q qubits with m symbols (and their pairwise sums), plus
    `constants`: gate name -> angles in units of pi offered to that gate. collect=False leaves
    `classes` empty (the caller prunes `generator` natively instead of building Python tuples)."""
    t0 = time.perf_counter()
    consts = [(g, Fraction(a).numerator, Fraction(a).denominator)
              for g, angles in (constants or {}).items() for a in angles]
    gen = _core.Generator(list(gates), q, m, True, seed, order == "qubit", consts)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=0, desc="enumerate", unit="rep", file=sys.stderr, leave=False)
    for k in range(1, n + 1):
        gen.begin_round(k == n)
        if bar is not None:
            bar.set_description(f"enumerate {k}/{n} gates")
            bar.total = gen.frontier_size
            bar.n = 0
            bar.refresh()
        while True:
            done = gen.expand(_CHUNK, max(1, jobs))
            if not done:
                break
            if bar is not None:
                bar.update(done)
    if bar is not None:
        bar.close()
    classes = _light_classes(gen, gates) if collect else []
    return Enumeration(classes=classes, num_circuits=gen.num_circuits, num_classes=gen.num_classes,
                       considered_per_round=list(gen.considered_per_round),
                       kept_per_round=list(gen.kept_per_round),
                       symbol_values=list(gen.symbol_values), seconds=time.perf_counter() - t0,
                       generator=gen)


def _light_classes(gen: Any, gates: tuple[str, ...]) -> list[list[LightCircuit]]:
    """The generator's classes of two or more circuits as light circuits, in class order."""
    choices = gen.choices()
    pterms = param_terms(gen)
    light_choices = []
    rank = {g: i for i, g in enumerate(gates)}
    for name, qs, ps in choices:
        light_choices.append((rank[name], tuple(qs), tuple(pterms[p] for p in ps)))
    ng, gs, cls, _fps = gen.results()
    # Only classes with two or more circuits can give transformations: skip the singletons
    # (the vast majority) before building Python tuples.
    sizes = np.bincount(cls)
    keep = np.nonzero(sizes[cls] >= 2)[0]
    keep = keep[np.argsort(cls[keep], kind="stable")]
    classes: list[list[LightCircuit]] = []
    cur = -1
    for i, c in zip(keep.tolist(), cls[keep].tolist()):
        circ = tuple(light_choices[j] for j in gs[i, : ng[i]].tolist())
        if c != cur:
            classes.append([])
            cur = c
        classes[-1].append(circ)
    return classes
