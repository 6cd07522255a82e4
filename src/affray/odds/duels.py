"""Which rulesets' one-on-one duels can be solved exactly, and by what: each plug-in record's duel model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from affray.core.plugin import DuelModel, plugin
from affray.odds.markov import DuelOdds, NotSolvable


def duel_model(ruleset: str) -> DuelModel:
    """The exact duel model of ``ruleset``; :class:`NotSolvable` if it has none."""
    loader = plugin(ruleset).duel
    if loader is None:
        raise NotSolvable(f"no exact duel model for {ruleset} yet")
    return loader()


def solve_scenario(ruleset: str, setup: Mapping[str, Any], options: Mapping[str, Any] | None,
                   exact: bool = False) -> DuelOdds:
    """Solve a prepared scenario's duel; :class:`NotSolvable` with the reason if it cannot be done."""
    result: DuelOdds = duel_model(ruleset).solve(setup, options, exact)
    return result
