"""ECC set files: both formats round-trip, Quartz's half angles, gzip, atomic writes, errors."""
from __future__ import annotations

import gzip
import json
import os

import numpy as np
import pytest

from quartz import Circuit, Param, QuartzError
from quartz.ecc_sets import ECC, ECCSet, Phase, dumps, loads, read, spot_check, write
from quartz.ecc_sets.param_text import param_to_text, text_to_param
from quartz.ecc_sets.native_format import phase_from_text, phase_to_text
from quartz.generator import generate


@pytest.fixture(scope="module")
def nam_set():
    return generate("nam", 3, 3, 2, jobs=1, progress=False)[0]


def circuits_of(s):
    return [[c for c in e.circuits] for e in s.classes]


@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_native_round_trip_keeps_everything(nam_set, tmp_path, suffix):
    p = tmp_path / f"set{suffix}"
    write(nam_set, p, "native")
    back = read(p)
    assert circuits_of(back) == circuits_of(nam_set)
    assert [e.phases for e in back.classes] == [e.phases for e in nam_set.classes]
    assert all(e.proven for e in back.classes)
    assert (back.gate_set, back.n, back.q, back.m) == (nam_set.gate_set, 3, 3, 2)
    assert back.metadata["generator"]["version"] == nam_set.metadata["generator"]["version"]
    assert (p.read_bytes()[:2] == b"\x1f\x8b") == suffix.endswith(".gz")


@pytest.mark.parametrize("suffix", [".json", ".json.gz"])
def test_quartz_format_round_trip_keeps_circuits(nam_set, tmp_path, suffix):
    p = tmp_path / f"q{suffix}"
    write(nam_set, p, "quartz")
    back = read(p)
    assert circuits_of(back) == circuits_of(nam_set)
    assert not any(e.proven for e in back.classes)  # Quartz's files carry no phases
    assert spot_check(back, sample=None) == []


def test_quartz_format_layout_and_half_angles():
    c0 = Circuit(1).rz(Param.symbol(0) + Param.symbol(1), 0)
    c1 = Circuit(1).rz(Param.symbol(0), 0).rz(Param.symbol(1), 0)
    s = ECCSet(("rz",), 2, 1, 2, [ECC([c0, c1], [Phase(), Phase()], proven=True)])
    obj = json.loads(dumps(s, "quartz"))
    table, body = obj
    assert table[0][:3] == [3, "", ""] and table[0][3] == ["add", ["P2"], ["P0", "P1"]]
    assert body["0_2"][0] == [[1, 1], [["rz", ["Q0"], ["Q0", "P2"]]]]
    assert body["0_2"][1][1][0] == ["rz", ["Q0"], ["Q0", "P0"]]


def test_reads_quartz_excerpt_with_exact_half_angle_conversion():
    # Excerpt of a Nam set written by Quartz (quartz-internals.md section 3).
    text = json.dumps([[[6, "", "", ["add", ["P2"], ["P0", "P0"]], ["add", ["P3"], ["P0", "P1"]],
                         ["add", ["P4"], ["P1", "P1"]], ["add", ["P5"], ["P1", "P0"]]],
                        [2, "450225094720268847/4611686018427387904", "3175291039876297539/4611686018427387904"]],
                       {"4_3": [[[1, 1], [["rz", ["Q0"], ["Q0", "P3"]]]],
                                [[1, 2], [["rz", ["Q0"], ["Q0", "P0"]], ["rz", ["Q0"], ["Q0", "P1"]]]]]}])
    s = loads(text)
    a, b = s.classes[0].circuits
    assert a[0].params[0] == Param.symbol(0) + Param.symbol(1)
    assert b[0].params[0] == Param.symbol(0)
    assert spot_check(s, sample=None) == []


def test_reads_non_halved_odd_coefficients_by_doubling_halved_slots():
    # Quartz: rz(t) = diag(e^{-it}, e^{it}) ~ u1(2t). u1(P0) has an odd coefficient, so our
    # symbols are Quartz's (p = P) and the halved rz slot doubles: rz(P0) -> our rz(2 p0).
    text = json.dumps([[[4, "", "", ["add", ["P2"], ["P0", "P1"]], ["add", ["P3"], ["P0", "P0"]]],
                        [2, 0.5, 0.25]],
                       {"0_2": [[[1, 1], [["u1", ["Q0"], ["Q0", "P2"]]]],
                                [[1, 2], [["u1", ["Q0"], ["Q0", "P0"]], ["u1", ["Q0"], ["Q0", "P1"]]]]],
                        "1_2": [[[1, 1], [["u1", ["Q0"], ["Q0", "P3"]]]],
                                [[1, 1], [["rz", ["Q0"], ["Q0", "P0"]]]]]}])
    s = loads(text)
    (a, b), (u1, rz) = (e.circuits for e in s.classes)
    assert a[0].params[0] == Param.symbol(0) + Param.symbol(1) and b[1].params[0] == Param.symbol(1)
    assert u1[0].params[0] == Param.symbol(0, 2) and rz[0].params[0] == Param.symbol(0, 2)
    assert spot_check(s, sample=None) == []


def test_quartz_fixed_angle_gates_are_converted():
    text = json.dumps([[[0], [0]], {"0_2": [[[1, 1], [["rx1", ["Q0"], ["Q0"]]]],
                                             [[1, 1], [["rx3", ["Q0"], ["Q0"]]]]]}])
    a, b = loads(text).classes[0].circuits
    assert a[0].name == "rx" and a[0].params[0] == Param.pi(1, 2)
    assert b[0].params[0] == Param.pi(3, 2)


def test_bad_files_give_clear_errors(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(QuartzError, match="not JSON"):
        read(p)
    p.write_text('{"a": 1}')
    with pytest.raises(QuartzError, match="not a quartz ECC set"):
        read(p)
    p.write_text('[[], {"0_2": []}]')
    with pytest.raises(QuartzError, match="legacy"):
        read(p)
    with pytest.raises(QuartzError, match="cannot read"):
        read(tmp_path / "missing.json")
    with pytest.raises(QuartzError, match="unknown ECC set format"):
        dumps(ECCSet(("h",), 1, 1, 0, []), "bogus")


def test_write_is_atomic_and_reports_unwritable(nam_set, tmp_path):
    with pytest.raises(QuartzError, match="cannot write"):
        write(nam_set, tmp_path / "no" / "such" / "dir.json")
    assert not (tmp_path / "no").exists()
    p = tmp_path / "ok.json.gz"
    write(nam_set, p)
    assert os.listdir(tmp_path) == ["ok.json.gz"]
    assert json.loads(gzip.decompress(p.read_bytes()))["format"] == "quartz-ecc-set"


@pytest.mark.parametrize("p", [Param(), Param.symbol(0), Param.symbol(3, -2), Param.pi(3, 4),
                               Param.pi(-1, 1) + Param.symbol(1), Param.radians(0.3),
                               Param.radians(-1e-7) + Param.symbol(0, 5)])
def test_param_text_round_trip(p):
    assert text_to_param(param_to_text(p)) == p


def test_param_text_rejects_garbage():
    for bad in ("", "q0", "p0*", "1/0x"):
        with pytest.raises(ValueError):
            text_to_param(bad)


def test_phase_text_round_trip():
    from fractions import Fraction as F
    for ph in (Phase(), Phase.make(F(1, 4)), Phase.make(F(3, 2), {0: F(-1, 2), 1: F(1)})):
        assert phase_from_text(phase_to_text(ph)) == ph


def test_spot_check_detects_a_wrong_class():
    good = ECC([Circuit(1).h(0).h(0), Circuit(1)], [Phase(), Phase()], proven=True)
    bad = ECC([Circuit(1).h(0), Circuit(1).x(0)], [Phase(), Phase()], proven=True)
    wrong_phase = ECC([Circuit(1).rz(Param.symbol(0), 0), Circuit(1).p(Param.symbol(0), 0)],
                      [Phase(), Phase()], proven=True)
    s = ECCSet(("h", "x", "rz", "p"), 2, 1, 1, [good, bad, wrong_phase])
    assert spot_check(s, sample=None) == [1, 2]
    assert np.isfinite(spot_check(s, sample=1, seed=3).__len__())


def test_quartz_format_round_trip_with_constants(tmp_path):
    s, _ = generate("rigetti", 3, 2, 1, jobs=1, progress=False)
    p = tmp_path / "r.json"
    write(s, p, "quartz")
    back = read(p)
    assert circuits_of(back) == circuits_of(s)
    assert spot_check(back, sample=None) == []


@pytest.mark.parametrize("wire", ["P5", "P-1"])
def test_quartz_format_wire_outside_the_table_is_refused(wire):
    # a gate input naming no table entry (past the end, or negative: never the last entry)
    text = json.dumps([[[1, ""], [1, 0.5]],
                       {"0_1": [[[1, 1], [["rz", ["Q0"], ["Q0", wire]]]]]}])
    with pytest.raises(QuartzError, match=f"parameter {wire} used before it is defined"):
        loads(text, trust=True)
