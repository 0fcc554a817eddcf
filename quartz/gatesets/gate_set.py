"""The GateSet type and the built-in gate sets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from quartz.circuit import GATE_NAMES, Circuit
from quartz.errors import GateSetError


@dataclass(frozen=True)
class GateSet:
    """A named, ordered set of quartz gate names."""

    name: str
    gates: tuple[str, ...]

    def __post_init__(self) -> None:
        for g in self.gates:
            if g not in GATE_NAMES:
                raise GateSetError(f"unknown gate '{g}' in gate set '{self.name}'; "
                                   f"known gates: {', '.join(GATE_NAMES)}")
        if len(set(self.gates)) != len(self.gates):
            raise GateSetError(f"gate set '{self.name}' lists a gate twice")
        if not self.gates:
            raise GateSetError("a gate set needs at least one gate")

    def __contains__(self, gate: str) -> bool:
        return gate in self.gates

    def check(self, circuit: Circuit) -> None:
        """Raise GateSetError naming the first gate of `circuit` outside this set."""
        for i, g in enumerate(circuit):
            if g.name not in self.gates:
                raise GateSetError(f"gate '{g.name}' (gate {i}) is not in gate set '{self.name}' "
                                   f"({', '.join(self.gates)})")


GATE_SETS: dict[str, GateSet] = {
    gs.name: gs
    for gs in [
        GateSet("nam", ("h", "x", "rz", "cx")),
        GateSet("clifford_t", ("h", "s", "sdg", "t", "tdg", "x", "cx")),
        GateSet("ibm", ("u1", "u2", "u3", "cx")),
        GateSet("ibm_modern", ("rz", "sx", "x", "cx")),
        GateSet("ibm_heron", ("rz", "sx", "x", "cz")),  # IBM Heron's native gates
        GateSet("rigetti", ("rx", "rz", "cz")),
        GateSet("ionq", ("rx", "ry", "rz", "rxx")),
    ]
}
_ALIASES = {"clifford+t": "clifford_t", "cliffordt": "clifford_t", "clifford-t": "clifford_t",
            "ibm-modern": "ibm_modern", "ibmq": "ibm", "ibm-heron": "ibm_heron",
            "heron": "ibm_heron"}


def get_gate_set(spec: str | GateSet | Iterable[str]) -> GateSet:
    """A gate set by name ('nam', 'clifford_t', ...), comma list ('h,cx,rz') or iterable."""
    if isinstance(spec, GateSet):
        return spec
    if isinstance(spec, str):
        key = spec.strip().lower()
        key = _ALIASES.get(key, key)
        if key in GATE_SETS:
            return GATE_SETS[key]
        if "," not in key and key not in GATE_NAMES:
            raise GateSetError(f"unknown gate set '{spec}'; built-in sets: {', '.join(GATE_SETS)}, "
                               "or a comma-separated list of gates")
        gates = tuple(g.strip() for g in key.split(",") if g.strip())
    else:
        gates = tuple(spec)
    return GateSet(f"custom({','.join(gates)})", gates)
