"""The exact Spellchrome melee duel against the full engine (Monte Carlo with the same steady policy), exact
against float, and the refusals. Rules: SC-02..SC-05, SC-07, SC-15, SC-16, SC-27, SC-B1, SC-B6."""

from __future__ import annotations

import copy
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.api import Scenario, scenario_from_data
from affray.core.scenario import load_scenario_data
from affray.odds.markov import DuelOdds, NotSolvable
from affray.rulesets.spellchrome.duel import duel_odds
from affray.sim.session import simulate

EXAMPLES = Path(__file__).parents[2] / "examples" / "spellchrome"
FORD = EXAMPLES / "ford_duel.yaml"

#: Full attacks (BAB 7: +7 then +2, SC-15) and initiative rolled every round with a surprise bonus (SC-16).
VETERANS: dict[str, Any] = {
    "ruleset": "spellchrome",
    "name": "Veterans",
    "map": "....\n....",
    "options": {"reroll_initiative_each_round": True},
    "surprise": {"aware": "b", "bonus": 3},
    "sides": [
        {
            "name": "a",
            "combatants": [
                {
                    "id": "a",
                    "position": [1, 0],
                    "stats": {
                        "name": "Ash",
                        "saves": [2, 2, 2],
                        "max_hp": 24,
                        "base_attack": 7,
                        "weapons": ["longsword"],
                        "speed_ft": 30,
                    },
                }
            ],
        },
        {"name": "b", "combatants": [{"id": "b", "position": [2, 1], "use": "cutthroat"}]},
    ],
}


def _check_against_engine(scenario: Scenario, exact: DuelOdds, n: int, seed: int) -> None:
    """Win rate and mean rounds within 4 standard errors (a false alarm about once in 16,000 runs)."""
    side = scenario.model.sides[0].name
    tally = simulate(
        scenario, n, seed, None, {s.name: "steady" for s in scenario.model.sides}, engine_only=True
    ).result.tally
    p = float(exact.outcomes[side])
    assert abs(tally.wins.get(side, 0) / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    e = float(exact.expected_rounds)
    variance = sum(k * k * float(q) for k, q in exact.rounds) - e * e
    assert abs(sum(k * v for k, v in tally.rounds.items()) / n - e) <= 4 * math.sqrt(variance / n)
    assert tally.draws == 0


def test_sc_duel_knuckles_at_the_ford_agrees_with_the_engine() -> None:
    scenario = affray.load_scenario(FORD)
    _check_against_engine(scenario, duel_odds(scenario.setup, scenario.options), 1500, 31)


def test_sc15_sc16_full_attacks_and_rerolled_initiative_agree_with_the_engine() -> None:
    scenario = scenario_from_data(VETERANS, EXAMPLES / "veterans.yaml")
    _check_against_engine(scenario, duel_odds(scenario.setup, scenario.options), 1500, 32)


def test_exact_and_float_spellchrome_duel_agree_to_12_digits() -> None:
    scenario = affray.load_scenario(FORD)
    exact = duel_odds(scenario.setup, scenario.options, exact=True)
    fast = duel_odds(scenario.setup, scenario.options)
    assert isinstance(exact.outcomes["dockside"], Fraction) and sum(exact.outcomes.values()) == 1
    for k in exact.outcomes:
        assert abs(float(exact.outcomes[k]) - fast.outcomes[k]) < 1e-12
    assert abs(float(exact.expected_rounds) - fast.expected_rounds) < 1e-12


def _moved(**changes: Any) -> Scenario:
    data = copy.deepcopy(load_scenario_data(FORD))
    for side in data["sides"]:
        for c in side["combatants"]:
            c.update(changes.get(c["id"], {}))
    return scenario_from_data(data, FORD)


@pytest.mark.parametrize(
    ("scenario", "reason"),
    [
        (lambda: _moved(tamsin={"position": [0, 0]}), "start adjacent"),
        (lambda: _moved(vell={"stats": {"weapons": ["hand_crossbow", "short_sword"]}}), "ranged weapon"),
        (lambda: _moved(tamsin={"stats": {"feats": []}}), "unarmed against a weapon"),
        (lambda: affray.load_scenario(EXAMPLES / "crossroads_2v2.yaml"), "one combatant on each"),
    ],
)
def test_scenarios_outside_the_model_are_refused_with_the_reason(scenario: Any, reason: str) -> None:
    loaded = scenario()
    with pytest.raises(NotSolvable, match=reason):
        duel_odds(loaded.setup, loaded.options)
