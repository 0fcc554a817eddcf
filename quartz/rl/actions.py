"""A matcher seen through a model's action space, for models trained on a related ECC set.

Model action j is transformation mapping[j] of the real matcher (-1: not in this ECC set, so
never applicable). Transformations the model does not know are invisible to the policy; the
final greedy pass still uses them.
"""
from __future__ import annotations

from quartz.circuit import Circuit


class RemappedMatcher:
    """`applicable` / `applicable_at` / `apply` in model-action indices."""

    def __init__(self, matcher, mapping: list[int]):
        self.matcher = matcher
        self.to_real = list(mapping)
        self.to_model = {r: j for j, r in enumerate(self.to_real) if r >= 0}
        self.transformations = [matcher.transformations[r] if r >= 0 else None for r in self.to_real]

    def applicable(self, circuit: Circuit) -> list[tuple[int, int]]:
        """(gate, model action) pairs the real matcher can apply."""
        return [(g, self.to_model[x]) for g, x in self.matcher.applicable(circuit) if x in self.to_model]

    def applicable_at(self, circuit: Circuit, gate_index: int) -> list[int]:
        """Model actions applicable at a gate."""
        return [self.to_model[x] for x in self.matcher.applicable_at(circuit, gate_index)
                if x in self.to_model]

    def apply(self, circuit: Circuit, gate_index: int, action: int) -> Circuit | None:
        """Apply model action `action` at a gate (None when it does not match)."""
        real = self.to_real[action]
        return None if real < 0 else self.matcher.apply(circuit, gate_index, real)
