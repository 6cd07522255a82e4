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


def _witchhammer(setup: Mapping[str, Any], options: Mapping[str, Any] | None, exact: bool) -> DuelOdds:
    from affray.odds.witchhammer_duel import duel_odds

    return duel_odds(setup, options, exact)


def _spellchrome(setup: Mapping[str, Any], options: Mapping[str, Any] | None, exact: bool) -> DuelOdds:
    from affray.odds.spellchrome_duel import duel_odds

    return duel_odds(setup, options, exact)


SOLVERS: dict[str, Solver] = {"hud": _hud, "warp": _warp, "witchhammer": _witchhammer, "spellchrome": _spellchrome}


#: What each model assumes, in one sentence (printed with every answer).
MODELS: dict[str, str] = {
    "hud": "both sides play 'steady' (Nerdified: attack with every action but one, always defend and riposte, "
           "never disengage; Simplified: the die with the better modifier)",
    "warp": "both sides play 'steady': a melee attack each turn with the weapon in hand, best trait, a fresh plain "
            "maneuver, no Experience Pool dice; best defense trait; starting within reach",
    "witchhammer": "both sides play 'steady': the first two reusable Action cards of the deck every vignette, no "
                   "Psych card; starting adjacent and facing each other",
    "spellchrome": "both sides play 'steady': a (full) attack on the foe each turn with the weapon in hand, never "
                   "moving; starting adjacent",
}


def solve_scenario(ruleset: str, setup: Mapping[str, Any], options: Mapping[str, Any] | None,
                   exact: bool = False) -> DuelOdds:
    """Solve a prepared scenario's duel; :class:`NotSolvable` with the reason if it cannot be done."""
    solver = SOLVERS.get(ruleset)
    if solver is None:
        raise NotSolvable(f"no exact duel model for {ruleset} yet")
    return solver(setup, options, exact)
