"""The exact WitchHammer duel with fixed card plans against the full engine (Monte Carlo with the same steady
policy), exact against float, and the refusals. Rules: WH-03..WH-06, WH-15..WH-22, WH-B10, WH-B12, WH-B18."""

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
from affray.odds.markov import NotSolvable
from affray.rulesets.witchhammer.duel import duel_odds
from affray.rulesets.witchhammer.policies import steady_plan
from affray.rulesets.witchhammer.view_types import CardInfo
from affray.sim.session import simulate

EXAMPLES = Path(__file__).parents[2] / "examples" / "witchhammer"
MILL = EXAMPLES / "mill_gate_duel.yaml"


def _variant(**changes: dict[str, Any]) -> Scenario:
    """The mill-gate duel with fields of its two combatants changed (``tomas={...}``, ``peasant={...}``)."""
    data = copy.deepcopy(load_scenario_data(MILL))
    for side in data["sides"]:
        for c in side["combatants"]:
            c.update(changes.get(c["id"], {}))
    return scenario_from_data(data, MILL)


def test_wh_duel_mill_gate_agrees_with_the_engine() -> None:
    """The exact duel (the peasant's Fumble a Bolt gives Poise back: a cyclic chain) against 1,500 engine fights
    with the same steady plans: win rate and mean rounds within 4 standard errors (a false alarm about once in
    16,000 runs; the seed is fixed, so the test is deterministic)."""
    scenario = affray.load_scenario(MILL)
    exact = duel_odds(scenario.setup, scenario.options)
    n = 1500
    tally = simulate(scenario, n, 21, None, {"hunter": "steady", "mill": "steady"}, engine_only=True).result.tally
    p = float(exact.outcomes["hunter"])
    assert abs(tally.wins.get("hunter", 0) / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
    e = float(exact.expected_rounds)
    variance = sum(k * k * float(q) for k, q in exact.rounds) - e * e
    assert abs(sum(k * v for k, v in tally.rounds.items()) / n - e) <= 4 * math.sqrt(variance / n)
    assert tally.draws == 0 and exact.outcomes["draw"] == 0
    assert all(p == 0 for k, p in exact.rounds if k % 2 == 0)  # slot 2 holds no attack: fights end in odd rounds


def test_exact_and_float_witchhammer_duel_agree_to_12_digits() -> None:
    scenario = _variant(tomas={"poise": 3, "health": 4}, peasant={"poise": 3, "health": 4})
    exact = duel_odds(scenario.setup, scenario.options, exact=True)
    fast = duel_odds(scenario.setup, scenario.options)
    assert isinstance(exact.outcomes["hunter"], Fraction) and sum(exact.outcomes.values()) == 1
    for k in exact.outcomes:
        assert abs(float(exact.outcomes[k]) - fast.outcomes[k]) < 1e-12
    assert abs(float(exact.expected_rounds) - fast.expected_rounds) < 1e-12
    assert sum(p for _, p in exact.rounds) + exact.tail == 1


def test_wh_b18_steady_plan_is_the_first_two_reusable_action_cards() -> None:
    def card(cid: str, kind: str = "action", one_shot: bool = False) -> CardInfo:
        return CardInfo(cid, cid.title(), kind, 0, 0, {}, (), one_shot, "")

    cards = {
        "jab": card("jab"),
        "knife": card("knife", one_shot=True),
        "calm": card("calm", "psych"),
        "guard": card("guard"),
        "wait": card("wait"),
    }
    assert steady_plan({"knife": 1, "calm": 1, "jab": 1, "guard": 1, "wait": 1}, cards) == ["jab", "guard"]
    assert steady_plan({"jab": 2, "guard": 1}, cards) == ["jab", "jab"]
    assert steady_plan({"knife": 1, "guard": 1}, cards) == ["guard"]  # the empty slot takes the default card


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"tomas": {"deck": ["thrown_knife", "sword_swing", "dodge_away"]}}, "Dodge Away moves away"),
        ({"tomas": {"deck": ["searing_sign", "sword_swing"]}}, "Searing Sign triggers effect"),
        ({"tomas": {"at": [1, 2]}}, "start adjacent"),
        ({"tomas": {"facing": "n"}}, "facing each other"),
    ],
)
def test_scenarios_outside_the_model_are_refused_with_the_reason(change: dict[str, Any], reason: str) -> None:
    scenario = _variant(**change)
    with pytest.raises(NotSolvable, match=reason):
        duel_odds(scenario.setup, scenario.options)


def test_the_drama_timer_is_refused() -> None:
    scenario = affray.load_scenario(MILL)
    with pytest.raises(NotSolvable, match="Drama Timer"):
        duel_odds(scenario.setup, {"drama_timer": True})


def test_more_than_two_combatants_are_refused() -> None:
    scenario = affray.load_scenario(EXAMPLES / "ember_wight.yaml")
    with pytest.raises(NotSolvable, match="one combatant on each"):
        duel_odds(scenario.setup, scenario.options)


def test_too_many_states_are_refused_not_approximated() -> None:
    scenario = affray.load_scenario(MILL)
    with pytest.raises(NotSolvable, match="too large"):
        duel_odds(scenario.setup, scenario.options, max_states=500)
