"""Circuit -> graph tensors: one node per gate, one edge per wire segment in both directions.

Node features: the gate type index (for an embedding) and angle features (cos, sin of each
constant angle, zero for unused slots). Edge features: (source port, target port, reversed),
where a port is the qubit slot of the gate the wire segment touches. Everything is computed from
the native core's arrays with numpy; there is no Python loop over gates.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from quartz import _core
from quartz.circuit import GATE_NAMES, Circuit

NUM_GATE_TYPES = len(GATE_NAMES)
NUM_ANGLE_FEATURES = 6  # cos and sin of up to 3 angles
NUM_EDGE_FEATURES = 3


class GraphArrays(NamedTuple):
    """Numpy form of a circuit graph (what rollout workers send back; cheap to pickle)."""

    gate_type: np.ndarray   # int64 [n]
    angles: np.ndarray      # float32 [n, 6]
    edge_index: np.ndarray  # int64 [2, 2e]: forward edges, then the reversed copies
    edge_attr: np.ndarray   # float32 [2e, 3]: (source port, target port, reversed)

    @property
    def num_nodes(self) -> int:
        return int(self.gate_type.shape[0])


def circuit_arrays(circuit: Circuit) -> GraphArrays:
    """The graph of a circuit as numpy arrays (see the module docstring)."""
    native = circuit.native
    types, qubits = native.gate_arrays()
    _, nxt = native.wire_arrays()
    params = _core.rl.param_array(native)
    used = ~np.isnan(params)
    vals = np.where(used, params, 0.0)
    angles = np.concatenate([np.where(used, np.cos(vals), 0.0), np.where(used, np.sin(vals), 0.0)],
                            axis=1).astype(np.float32)
    src, src_port = np.nonzero(nxt >= 0)
    dst = nxt[src, src_port].astype(np.int64)
    wire = qubits[src, src_port]
    dst_port = np.argmax(qubits[dst] == wire[:, None], axis=1)
    fwd = np.stack([src, dst]).astype(np.int64)
    rev = fwd[::-1]
    zeros = np.zeros_like(src_port)
    attr_f = np.stack([src_port, dst_port, zeros], axis=1)
    attr_r = np.stack([dst_port, src_port, zeros + 1], axis=1)
    return GraphArrays(types.astype(np.int64), angles, np.concatenate([fwd, rev], axis=1),
                       np.concatenate([attr_f, attr_r]).astype(np.float32))


def to_data(arrays: GraphArrays):
    """A torch_geometric `Data` (x = gate type, angles, edge_index, edge_attr) from arrays."""
    from quartz.rl._deps import require_torch

    torch, pyg = require_torch()
    from torch_geometric.data import Data

    return Data(x=torch.from_numpy(arrays.gate_type), angles=torch.from_numpy(arrays.angles),
                edge_index=torch.from_numpy(np.ascontiguousarray(arrays.edge_index)),
                edge_attr=torch.from_numpy(arrays.edge_attr), num_nodes=arrays.num_nodes)


def circuit_to_data(circuit: Circuit):
    """The torch_geometric `Data` graph of a circuit."""
    return to_data(circuit_arrays(circuit))
