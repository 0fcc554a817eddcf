"""Fixtures of the search tests."""
import pytest

from search_rules import make_set, small_nam_classes


@pytest.fixture(scope="session")
def small_set():
    return make_set(small_nam_classes())
