"""Random floats survive `to_param` bit for bit; float-rounded rational multiples of pi snap."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from quartz.angles import to_param


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.floats(min_value=-20.0, max_value=20.0, allow_nan=False, allow_infinity=False))
def test_float_angle_is_kept_or_snapped_within_rounding(x):
    p = to_param(x)
    # Either kept exactly, or snapped to k/d*pi by no more than float rounding noise.
    assert abs(float(p) - x) <= 8 * math.ulp(max(1.0, abs(x)))


def test_ordinary_float_is_not_snapped():
    # -0.15 used to become -43123/903166*pi (8e-13 off), which QCEC then saw as a phase error.
    p = to_param(-0.15)
    assert p.pi_fraction is None and float(p) == -0.15


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.integers(-64, 64), st.sampled_from([1, 2, 3, 4, 5, 7, 8, 16, 64, 1024, 1 << 20]))
def test_rational_multiple_of_pi_snaps_exactly(k, d):
    from fractions import Fraction

    f = Fraction(k, d)
    for x in (math.pi * k / d, k * math.pi / d, math.pi * (k / d)):
        p = to_param(x)
        assert p.pi_fraction == (f.numerator, f.denominator)
