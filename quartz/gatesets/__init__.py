"""Gate sets: named sets of quartz gate types (Nam, Clifford+T, IBM, Rigetti, IonQ, custom).

>>> from quartz.gatesets import get_gate_set
>>> get_gate_set("nam").gates
('h', 'x', 'rz', 'cx')
>>> get_gate_set("h,cx,t").name
'custom(h,cx,t)'
"""
from quartz.gatesets.convert import convert, convertible
from quartz.gatesets.gate_set import GATE_SETS, GateSet, get_gate_set

__all__ = ["GateSet", "GATE_SETS", "get_gate_set", "convert", "convertible"]
