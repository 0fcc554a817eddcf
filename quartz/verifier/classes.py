"""split_class: group circuits (a fingerprint bucket) into proven equivalence classes."""
from __future__ import annotations

import time
from typing import Sequence


from quartz.circuit import Circuit
from quartz.ecc_sets.model import ECC, Phase
from quartz.errors import QuartzError
from quartz.verifier import exact, numeric
from quartz.verifier.pair import verify_pair
from quartz.verifier.ring import Unsupported
from quartz.verifier.verdict import Verdict


class ClassSplitter:
    """Greedy clustering against class representatives, with cached exact unitaries."""

    def __init__(self, circuits: Sequence[Circuit], timeout: float = 10.0):
        for i, c in enumerate(circuits):
            if not isinstance(c, Circuit):
                raise QuartzError(f"split_class: item {i} is not a quartz.Circuit")
        self.circuits = list(circuits)
        self.timeout = timeout
        self.pairs = 0
        self.verdicts: list[tuple[int, int, Verdict]] = []  # (rep index, circuit index, verdict)
        nq = max((c.num_qubits for c in circuits), default=0)
        m = max((c.num_symbols for c in circuits), default=0)
        pt = [float(x) for x in numeric.random_points(m, 1, 4321)[0]] if m else []
        self._num = [numeric.image(c, pt, nq) for c in self.circuits]
        try:
            self.ctx: exact.Context | None = exact.Context(self.circuits)
            if self.ctx.float_vars:
                self.ctx = None  # verify_pair handles generalised floats
        except Unsupported:
            self.ctx = None
        self._exact: dict[int, exact.ExactUnitary] = {}

    def _unitary(self, i: int) -> exact.ExactUnitary:
        u = self._exact.get(i)
        if u is None:
            u = self._exact[i] = exact.exact_unitary(self.ctx, self.circuits[i],
                                                     time.monotonic() + self.timeout)
        return u

    def compare(self, i: int, j: int) -> Verdict:
        """Verdict for U_j = e^{i phase} U_i."""
        self.pairs += 1
        if numeric.distance(self._num[i], self._num[j]) > numeric.TOLERANCE:
            return Verdict("refuted", "numeric")
        if self.ctx is not None:
            try:
                equal, mono = exact.compare(self.ctx, self._unitary(i), self._unitary(j))
            except Unsupported:
                self.ctx = None
            else:
                if equal:
                    return Verdict("proven", "exact", phase=exact.phase_of(self.ctx, *mono))
                return Verdict("refuted", "exact")
        return verify_pair(self.circuits[i], self.circuits[j], timeout=self.timeout)

    def split(self) -> list[ECC]:
        """The proven classes, greedily: each circuit joins the first representative it equals."""
        return classes_from_partition(self.circuits, self.partition())

    def partition(self) -> list[tuple[list[int], list[Phase]]]:
        """split() as plain data: each class's member indices (representative first) and their
        phases relative to it (what a worker process sends back instead of circuits)."""
        classes: list[tuple[list[int], list[Phase]]] = []
        for j in range(len(self.circuits)):
            for members, phases in classes:
                v = self.compare(members[0], j)
                self.verdicts.append((members[0], j, v))
                if v.status == "proven":
                    members.append(j)
                    phases.append(v.phase)
                    break
            else:
                classes.append(([j], [Phase()]))
        return classes


def classes_from_partition(circuits: Sequence[Circuit],
                           partition: list[tuple[list[int], list[Phase]]]) -> list[ECC]:
    """The proven ECCs that a partition (ClassSplitter.partition) makes of `circuits`."""
    return [ECC([circuits[i] for i in members], list(phases), proven=True)
            for members, phases in partition]


def split_class(circuits: Sequence[Circuit], *, timeout: float = 10.0) -> list[ECC]:
    """Proven classes of `circuits` (first member = representative, phases relative to it)."""
    return ClassSplitter(circuits, timeout).split()


__all__ = ["split_class", "ClassSplitter", "classes_from_partition"]
