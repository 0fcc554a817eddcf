"""Circuit optimisation by ECC transformations: matching, costs and the search driver.

`Matcher` compiles transformations into anchored patterns (C++), `costs.get_cost` turns a
cost name/dict/callable into a search cost, and `search` runs the greedy pass plus the
best-first backtracking search under a time budget. Most users call `quartz.optimize`.
"""
from quartz.search.costs import Cost, get_cost
from quartz.search.driver import SearchResult, search
from quartz.search.matcher import Matcher

__all__ = ["Matcher", "Cost", "get_cost", "search", "SearchResult"]
