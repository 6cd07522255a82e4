"""Which rulesets' one-on-one duels can be solved exactly, and by what: each plug-in record's duel model."""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.json import Json
from affray.core.plugin import AnyPlugin, DuelModel, DuelResult
from affray.odds.markov import NotSolvable


def duel_model(record: AnyPlugin) -> DuelModel:
    """The exact duel model of the ruleset whose plug-in record is ``record``; :class:`NotSolvable` if it has
    none."""
    loader = record.duel
    if loader is None:
        raise NotSolvable(f"no exact duel model for {record.name} yet")
    return loader()


def solve_scenario(
    record: AnyPlugin, setup: Mapping[str, Json], options: Mapping[str, Json] | None, exact: bool = False
) -> DuelResult:
    """Solve a prepared scenario's duel; :class:`NotSolvable` with the reason if it cannot be done."""
    return duel_model(record).solve(setup, options, exact)
