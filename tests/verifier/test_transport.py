"""transport.pack/unpack: circuits survive the trip to worker processes exactly."""
import pickle

from quartz import Circuit, Param
from quartz.verifier.transport import pack, unpack


def test_roundtrip_exact_symbolic_float_and_phase():
    c = Circuit(3).h(0).cx(0, 2).rz(Param.symbol(0) - Param.symbol(1, 2) + Param.pi(3, 4), 1)
    c.u3(Param.radians(0.25), Param.pi(1, 3), Param.symbol(2), 2).ccz(0, 1, 2)
    c.global_phase = Param.pi(-1, 8)
    cache = {}
    d = unpack(pickle.loads(pickle.dumps(pack(c))), cache)
    assert d == c and d.global_phase == c.global_phase and d.num_qubits == 3
    assert unpack(pack(Circuit(2))) == Circuit(2)
    e = Circuit(1).x(0)
    e.global_phase = Param.radians(0.5)
    assert unpack(pack(e)).global_phase == Param.radians(0.5)
