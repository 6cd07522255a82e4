"""The exact WaRP melee duel against the full engine (Monte Carlo with the same steady policy), exact against
float, and the refusals. Rules: WR-05, WR-08..WR-11, WR-19..WR-21, WR-24, WR-25, WR-31, WR-B8, WR-B15."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import affray
from affray.api import Scenario, scenario_from_data
from affray.odds.markov import DuelOdds, NotSolvable
from affray.rulesets.warp.duel import duel_odds
from affray.sim.session import simulate

EXAMPLES = Path(__file__).parents[2] / "examples" / "warp"

#: An agile brawler (a non-combat trait that serves attack *or* defense each turn, WR-09) against a thug: the
#: defense trait depends on the turn order and on the round (WR-B15), and initiative is rolled every round.
LOCKS: dict[str, Any] = {
    "ruleset": "warp",
    "name": "Locks",
    "options": {"reroll_initiative_each_round": True},
    "sides": [
        {
            "name": "mara",
            "combatants": [
                {
                    "id": "mara",
                    "position": 0,
                    "stats": {
                        "name": "Mara",
                        "traits": {"agile": 4, "street_brawler": 2},
                        "weapons": ["knife"],
                        "hp": 12,
                    },
                }
            ],
        },
        {"name": "dock", "combatants": [{"id": "thug", "use": "thug", "position": 1, "stats": {"hp": 14}}]},
    ],
}


def _check_against_engine(scenario: Scenario, exact: DuelOdds, n: int, seed: int) -> None:
    """Win rate and mean rounds within 4 standard errors (a false alarm about once in 16,000 runs; the seed is
    fixed, so the test is deterministic)."""
    sides = [s.name for s in scenario.model.sides]
    out = simulate(scenario, n, seed, None, {side: "steady" for side in sides}, engine_only=True)
    tally = out.result.tally
    assert tally.fights == n and tally.draws == 0
    p = float(exact.outcomes[sides[0]])
    assert abs(tally.wins.get(sides[0], 0) / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    mean = sum(k * v for k, v in tally.rounds.items()) / n
    e = float(exact.expected_rounds)
    variance = sum(k * k * float(q) for k, q in exact.rounds) - e * e
    assert abs(mean - e) <= 4 * math.sqrt(variance / n)


def test_wr_duel_knight_in_the_car_park_agrees_with_the_engine() -> None:
    """The steady knight duel (plate's 2 penalty dice on the fencer's agile rolls, WR-21; the bat's and the
    sword's factors; Messed Up at half HP) against 1,500 engine fights."""
    scenario = affray.load_scenario(EXAMPLES / "knight_duel.yaml")
    exact = duel_odds(scenario.setup, scenario.options)
    assert abs(sum(exact.outcomes.values()) - 1) < 1e-12 and exact.outcomes["draw"] == 0
    _check_against_engine(scenario, exact, 1500, 11)


def test_wr09_wr_b15_trait_locks_and_rerolled_initiative_agree_with_the_engine() -> None:
    """WR-09, WR-B15 as revised: Agile serves attack or defense in one round; the duel model follows the
    engine under the default lock (to the round's end) and under the earlier reading (to the next turn),
    and the two differ."""
    scenario = scenario_from_data(LOCKS, EXAMPLES / "locks.yaml")
    exact = duel_odds(scenario.setup, scenario.options)
    _check_against_engine(scenario, exact, 1500, 12)
    by_turn = {**LOCKS, "options": {**LOCKS["options"], "trait_lock": "until_next_turn"}}
    earlier = scenario_from_data(by_turn, EXAMPLES / "locks.yaml")
    loose = duel_odds(earlier.setup, earlier.options)
    _check_against_engine(earlier, loose, 1500, 13)
    assert loose.outcomes["mara"] > exact.outcomes["mara"]  # the earlier reading let Agile do both


#: A Street Brawler (a combat trait not tagged agility) in plate mail against a thug (WR-20).
PLATE: dict[str, Any] = {
    "ruleset": "warp",
    "name": "Plate",
    "sides": [
        {
            "name": "rex",
            "combatants": [
                {
                    "id": "rex",
                    "position": 0,
                    "stats": {"name": "Rex", "traits": {"street_brawler": 4}, "armour": ["plate_mail"], "hp": 14},
                }
            ],
        },
        {"name": "dock", "combatants": [{"id": "thug", "use": "thug", "position": 1, "stats": {"hp": 14}}]},
    ],
}


def test_wr20_plate_hinders_every_attack_and_defense_in_the_duel_model() -> None:
    """WR-20: the duel model puts plate's penalty die on the Street Brawler's attack and defense rolls, as the
    engine does, and the older reading (agility_rolls: tagged_traits) favours Rex."""
    scenario = scenario_from_data(PLATE, EXAMPLES / "plate.yaml")
    exact = duel_odds(scenario.setup, scenario.options)
    _check_against_engine(scenario, exact, 1500, 14)
    older = duel_odds(scenario.setup, {"agility_rolls": "tagged_traits"})
    assert older.outcomes["rex"] > exact.outcomes["rex"]


def test_exact_and_float_warp_duel_agree_to_12_digits() -> None:
    scenario = affray.load_scenario(EXAMPLES / "knight_duel.yaml")
    exact = duel_odds(scenario.setup, scenario.options, exact=True)
    fast = duel_odds(scenario.setup, scenario.options)
    assert isinstance(exact.outcomes["theo"], Fraction) and sum(exact.outcomes.values()) == 1
    for k in exact.outcomes:
        assert abs(float(exact.outcomes[k]) - fast.outcomes[k]) < 1e-12
    assert abs(float(exact.expected_rounds) - fast.expected_rounds) < 1e-12
    assert sum(p for _, p in exact.rounds) + exact.tail == 1


@pytest.mark.parametrize(
    ("name", "options", "reason"),
    [
        ("melee_brawl.yaml", {}, "one combatant on each"),
        ("gestalt_raid.yaml", {}, "gestalt"),
        ("ranged_square.yaml", {}, "one combatant on each|out of melee reach|cannot be used hand to hand"),
        ("knight_duel.yaml", {"gm_decisions": "table"}, "GM makes calls"),
        ("knight_duel.yaml", {"blow_the_top_off": True}, "explod"),
    ],
)
def test_scenarios_outside_the_model_are_refused_with_the_reason(
    name: str, options: dict[str, Any], reason: str
) -> None:
    scenario = affray.load_scenario(EXAMPLES / name)
    with pytest.raises(NotSolvable, match=reason):
        duel_odds(scenario.setup, {**scenario.options, **options})


def test_out_of_reach_is_refused() -> None:
    data = {
        **LOCKS,
        "sides": [
            LOCKS["sides"][0],
            {**LOCKS["sides"][1], "combatants": [{**LOCKS["sides"][1]["combatants"][0], "position": 6}]},
        ],
    }
    scenario = scenario_from_data(data, EXAMPLES / "far.yaml")
    with pytest.raises(NotSolvable, match="out of melee reach"):
        duel_odds(scenario.setup, scenario.options)
