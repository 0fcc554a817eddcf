"""Shared fixtures of the RL tests: the shipped Nam ECC set and its matcher."""
import pytest

from rl_helpers import ECC_NAME


@pytest.fixture(scope="session")
def nam_ecc():
    from quartz import ecc_sets

    return ecc_sets.load(ECC_NAME)


@pytest.fixture(scope="session")
def nam_matcher(nam_ecc):
    from quartz.search import Matcher

    return Matcher(nam_ecc.transformations())
