"""The docstring example of quartz.search.preprocess runs and gives what it shows."""
import doctest

import quartz.search.preprocess as pp


def test_package_doctest():
    result = doctest.testmod(pp, verbose=False)
    assert result.attempted > 0 and result.failed == 0
