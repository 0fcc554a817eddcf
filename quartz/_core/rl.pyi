"""Array views of circuits for the learned optimizer (quartz._core.rl)."""
import numpy as np
import numpy.typing as npt

from . import Circuit, CostSpec, Matcher, _pybind11_type

def param_array(circuit: Circuit) -> npt.NDArray[np.float64]:
    """params[n,3] float64: constant part (radians) of each gate angle; NaN for unused slots."""

class RewriteEnv(metaclass=_pybind11_type):
    """A circuit as the search's working DAG with every gate's applicable transformations, kept up to date around each rewrite."""

    def __init__(self, matcher: Matcher, circuit: Circuit, cost: CostSpec) -> None: ...
    def reset(self, circuit: Circuit) -> None:
        """Start again from `circuit`."""
    @property
    def num_gates(self) -> int: ...
    @property
    def cost(self) -> float: ...
    @property
    def num_applicable(self) -> int:
        """Applicable (gate, transformation) pairs in all."""
    @property
    def last_refreshed(self) -> int:
        """Gates whose lists the last step recomputed."""
    @property
    def radius(self) -> int:
        """Wire steps around a rewrite whose gates are recomputed."""
    def circuit(self) -> Circuit:
        """The current circuit (O(n))."""
    def applicable_at(self, position: int) -> list[int]:
        """Sorted transformation indices that apply at a gate."""
    def applicable(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """(positions[k], offsets[k+1], transformations[total]) of the gates where something applies (CSR)."""
    def step(self, position: int, xfer: int) -> tuple[bool, float]:
        """(applied, cost change): apply a listed transformation."""
    def refresh_all(self) -> None:
        """Recompute every gate's list (O(n))."""
    def topo_order(self) -> npt.NDArray[np.int64]:
        """Positions in circuit order: circuit() gate i is position topo_order()[i]."""
    def graph(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.int64],
                             npt.NDArray[np.float32]]:
        """(gate_type[n], angles[n,6], edge_index[2,2e], edge_attr[2e,3]) by position."""
