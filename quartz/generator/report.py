"""GenerationReport: counts and timings of one `generate` run."""
from __future__ import annotations

from dataclasses import dataclass, field

from quartz.generator.pruning import PassCount


@dataclass
class GenerationReport:
    """What `generate` did: circuits considered, classes before/after each pass, time per phase."""

    gate_set: tuple[str, ...]
    n: int
    q: int
    m: int
    order: str = "type"
    considered_per_round: list[int] = field(default_factory=list)
    kept_per_round: list[int] = field(default_factory=list)
    circuits_kept: int = 0        # every circuit RepGen kept (all classes, singletons included)
    classes_found: int = 0        # numeric classes, singletons included
    before: PassCount | None = None   # non-singleton classes before simplification (Quartz's "before")
    passes: list[PassCount] = field(default_factory=list)
    after_pruning: PassCount | None = None
    final: PassCount | None = None    # proven classes with >= 2 circuits
    unproven_circuits: int = 0    # circuits the verifier could not prove equal to their class
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def considered(self) -> int:
        return sum(self.considered_per_round)

    def to_json(self) -> dict:
        """A JSON-serialisable dict of the report."""
        pc = (lambda p: p.to_json() if p is not None else None)
        return {
            "gate_set": list(self.gate_set), "n": self.n, "q": self.q, "m": self.m,
            "order": self.order, "considered": self.considered,
            "considered_per_round": self.considered_per_round,
            "kept_per_round": self.kept_per_round, "circuits_kept": self.circuits_kept,
            "classes_found": self.classes_found, "before": pc(self.before),
            "passes": [p.to_json() for p in self.passes], "after_pruning": pc(self.after_pruning),
            "final": pc(self.final), "unproven_circuits": self.unproven_circuits,
            "seconds": {k: round(v, 4) for k, v in self.seconds.items()},
        }

    def summary(self) -> str:
        """Human-readable multi-line summary."""
        def line(label, p):
            return f"  {label:<28} {p.classes:>8} ECCs {p.circuits:>8} circuits {p.transformations:>8} transformations"
        out = [f"gate set {','.join(self.gate_set)}  n={self.n} q={self.q} m={self.m}",
               f"  circuits considered          {self.considered:>8} (kept by RepGen: {self.circuits_kept}, "
               f"numeric classes: {self.classes_found})"]
        if self.before is not None:
            out.append(line("before pruning", self.before))
        if self.after_pruning is not None:
            out.append(line("after pruning", self.after_pruning))
        if self.final is not None:
            out.append(line("proven (final)", self.final))
        if self.unproven_circuits:
            out.append(f"  circuits not proven          {self.unproven_circuits:>8} (dropped)")
        out.append("  time: " + ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items()))
        return "\n".join(out)
