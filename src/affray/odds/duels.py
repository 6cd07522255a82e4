"""Which rulesets' one-on-one duels can be solved exactly, and by what."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from affray.odds.markov import DuelOdds, NotSolvable

Solver = Callable[[Mapping[str, Any], Mapping[str, Any] | None, bool], DuelOdds]


def _hud(setup: Mapping[str, Any], options: Mapping[str, Any] | None, exact: bool) -> DuelOdds:
    from affray.odds.hud import duel_odds

    return duel_odds(setup, options, exact)


def _warp(setup: Mapping[str, Any], options: Mapping[str, Any] | None, exact: bool) -> DuelOdds:
    from affray.odds.warp_duel import duel_odds

    return duel_odds(setup, options, exact)


SOLVERS: dict[str, Solver] = {"hud": _hud, "warp": _warp}


def solve_scenario(ruleset: str, setup: Mapping[str, Any], options: Mapping[str, Any] | None,
                   exact: bool = False) -> DuelOdds:
    """Solve a prepared scenario's duel; :class:`NotSolvable` with the reason if it cannot be done."""
    solver = SOLVERS.get(ruleset)
    if solver is None:
        raise NotSolvable(f"no exact duel model for {ruleset} yet")
    return solver(setup, options, exact)
