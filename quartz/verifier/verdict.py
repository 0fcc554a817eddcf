"""Result types of the verifier: Verdict (one pair), ClassOutcome and VerifyReport (an ECC set)."""
from __future__ import annotations

from dataclasses import dataclass, field

from quartz.ecc_sets.model import Phase


@dataclass(frozen=True)
class Verdict:
    """Outcome of comparing two circuits for all symbol values, up to a global phase.

    status: "proven" (U_b = e^{i phase} U_a), "refuted" (counterexample holds symbol values where
    they differ) or "unknown" (not proven: never to be trusted). method: "exact", "z3" or "numeric".
    """

    status: str
    method: str
    phase: Phase | None = None
    counterexample: list[float] | None = None
    message: str = ""

    @property
    def proven(self) -> bool:
        """True for "proven"."""
        return self.status == "proven"


@dataclass
class ClassOutcome:
    """What verification found for one class of an ECC set."""

    index: int
    status: str  # "proven" | "refuted" | "unknown" | "corrupt"
    num_circuits: int
    num_proven_classes: int = 0  # classes the circuits split into (0 when corrupt)
    message: str = ""
    counterexample: list[float] | None = None
    label: str = ""  # the class id in its file (e.g. Quartz's "4_3"), else str(index)

    def to_json(self) -> dict:
        """JSON-serialisable dict."""
        out = {"class": self.index, "id": self.label or str(self.index), "status": self.status,
               "circuits": self.num_circuits, "proven_classes": self.num_proven_classes}
        if self.message:
            out["message"] = self.message
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        return out


@dataclass
class VerifyReport:
    """Counts and per-class outcomes of verify_ecc_set."""

    classes: list[ClassOutcome] = field(default_factory=list)
    pairs: int = 0  # pairwise proofs/refutations attempted
    seconds: float = 0.0

    def count(self, status: str) -> int:
        """Number of classes with this status."""
        return sum(1 for c in self.classes if c.status == status)

    @property
    def proven(self) -> int:
        """Classes proven as one class."""
        return self.count("proven")

    @property
    def refuted(self) -> int:
        """Classes whose circuits were shown to differ."""
        return self.count("refuted")

    @property
    def unknown(self) -> int:
        """Classes with a circuit neither proven nor refuted."""
        return self.count("unknown")

    @property
    def corrupt(self) -> int:
        """Classes that could not be read or break the set's limits."""
        return self.count("corrupt")

    def summary(self) -> str:
        """One line: counts per status."""
        return (f"{len(self.classes)} classes: {self.proven} proven, {self.refuted} refuted, "
                f"{self.unknown} unknown, {self.corrupt} corrupt ({self.pairs} pair checks, "
                f"{self.seconds:.2f} s)")

    def to_json(self) -> dict:
        """JSON-serialisable dict."""
        return {"proven": self.proven, "refuted": self.refuted, "unknown": self.unknown,
                "corrupt": self.corrupt, "pairs": self.pairs, "seconds": round(self.seconds, 3),
                "classes": [c.to_json() for c in self.classes]}
