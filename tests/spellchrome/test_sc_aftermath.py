"""The dying keep bleeding after the fight (SC-04, SC-06; option ``dying_after_the_fight``): the last blow
decides the fight, then the rounds go on without blows until every dying character is dead or stable; allies
may still give first aid. The engine's aftermath against the exact chain of :func:`dying_odds`."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from affray.api import scenario_from_data
from affray.core.plugin import get_ruleset
from affray.rulesets.spellchrome.odds import dying_odds
from affray.sim.session import simulate

from .support import act, build, fighter, kinds, refused, state_of, who, window

OPEN = "\n".join(["." * 8] * 4)


def test_sc04_a_fight_decided_with_someone_dying_plays_on_until_stable() -> None:
    """SC-04/SC-06: b starts at −5 with nobody able on its side: the fight is decided in round 1 but goes on;
    a may not strike, b fails its save (5), loses 3 at the round's end (−8), then saves on a 20 in round 2:
    the fight ends there, its length still 1 round, its reason telling how b ended."""
    match = build(OPEN, {"left": [fighter("a", (0, 0))], "right": [fighter("b", (7, 3), hp=-5)]}, dice=[20, 10])
    state = state_of(match)
    assert state.decided is not None and state.decided.winner == "left" and match.outcome() is None
    assert window(match) == ("aftermath", ("a",))
    assert [s.action["type"] for s in match.legal("a")].count("attack") == 0
    assert refused(match, "a", {"type": "attack", "target": "b"}).code == "fight_over"
    act(match, "a", {"type": "end_turn"}, 5, 3)
    assert who(match, "b").hp == -8 and who(match, "b").status == "dying"
    result = act(match, "a", {"type": "end_turn"}, 20)
    assert "ended" in kinds(result) and who(match, "b").status == "stable" and who(match, "b").hp == -8
    outcome = match.outcome()
    assert outcome is not None and outcome.winner == "left"
    assert outcome.reason == "every foe is down; after the fight B stable"
    assert outcome.details == {"decided_round": 1, "rounds_after": 1, "after_the_fight": {"b": "stable"}}
    assert match.rounds() == 1
    assert get_ruleset("spellchrome").report(state)["b"].dead is False


def test_sc04_sc05_the_dying_bleed_out_after_the_fight() -> None:
    """SC-04/SC-05: at −28 a loss of 2 at the end of round 1 reaches −30: dead, after the fight."""
    match = build(OPEN, {"left": [fighter("a", (0, 0))], "right": [fighter("b", (7, 3), hp=-28)]}, dice=[20, 10])
    act(match, "a", {"type": "end_turn"}, 5, 2)
    outcome = match.outcome()
    assert outcome is not None and outcome.reason == "every foe is down; after the fight B bled out"
    assert who(match, "b").hp == -30 and get_ruleset("spellchrome").report(state_of(match))["b"].dead


def test_sc06_an_ally_gives_first_aid_after_the_fight() -> None:
    """SC-06: after the last blow a (Heal untrained, +0) binds its dying ally a2 (15 vs DC 15: stable); b, a
    dying foe across the map, bleeds on; the fight ends when b is stable too."""
    match = build(
        OPEN,
        {"left": [fighter("a", (0, 0)), fighter("a2", (1, 0), hp=-5)], "right": [fighter("b", (7, 3), hp=-5)]},
        dice=[20, 15, 10],
    )
    assert window(match) == ("aftermath", ("a",))
    aid = [s.action for s in match.legal("a") if s.action["type"] == "first_aid"]
    assert aid == [{"type": "first_aid", "target": "a2"}]
    act(match, "a", aid[0], 15)
    assert who(match, "a2").status == "stable" and match.outcome() is None
    act(match, "a", {"type": "end_turn"}, 1, 4)  # b's save fails (1), b loses 4 at the end of round 1
    assert who(match, "b").hp == -9 and match.outcome() is None
    act(match, "a", {"type": "end_turn"}, 20)  # round 2: b saves
    outcome = match.outcome()
    assert outcome is not None and outcome.details["after_the_fight"] == {"a2": "stable", "b": "stable"}


def test_sc04_option_off_ends_the_fight_at_the_last_blow() -> None:
    """Option ``dying_after_the_fight: false``: the fight ends at once and b stays dying."""
    match = build(
        OPEN,
        {"left": [fighter("a", (0, 0))], "right": [fighter("b", (7, 3), hp=-5)]},
        {"dying_after_the_fight": False},
        dice=[20, 10],
    )
    outcome = match.outcome()
    assert outcome is not None and outcome.reason == "every foe is down" and who(match, "b").status == "dying"


def test_sc04_sc06_dying_odds_golden_values() -> None:
    """SC-04..SC-06, SC-B3: at −28 with Fort +0 the loss of the drop round kills on 2..4 (3/4); a 1 leaves −29,
    and the next round's save (a natural 20, 1/20) is the only way out: P(dead) = 3/4 + 1/4 · 19/20 = 79/80."""
    odds = dying_odds(-28, 0)
    assert odds.p_dead == Fraction(79, 80) and odds.rounds == {1: Fraction(3, 4), 2: Fraction(1, 4)}
    assert odds.expected_rounds == Fraction(5, 4)
    late = dying_odds(-28, 0, loss_in_first_round=False)  # no loss in round 1: a save first, then the same
    assert late.p_dead == Fraction(19, 20) * Fraction(79, 80) == Fraction(1501, 1600)
    five = dying_odds(-5, 5)  # Fort +5: 17..20 stabilise (1/5 a round)
    assert sum(five.hp_loss.values()) == 1 and float(five.p_dead) == 0.12900911650821364


BLEEDER = {
    "ruleset": "spellchrome",
    "name": "Left to bleed",
    "map": "........\n........",
    "sides": [
        {
            "name": "a",
            "combatants": [
                {
                    "id": "a",
                    "position": [0, 0],
                    "stats": {
                        "name": "Ash",
                        "saves": [2, 2, 2],
                        "max_hp": 20,
                        "base_attack": 2,
                        "weapons": ["longsword"],
                        "speed_ft": 30,
                    },
                }
            ],
        },
        {
            "name": "b",
            "combatants": [
                {
                    "id": "b",
                    "position": [7, 1],
                    "hp": -5,
                    "stats": {
                        "name": "Bel",
                        "saves": [4, 0, 0],
                        "max_hp": 20,
                        "base_attack": 2,
                        "weapons": ["longsword"],
                        "speed_ft": 30,
                        "abilities": {"constitution": 12},
                    },
                }
            ],
        },
    ],
}


def test_sc04_sc06_simulated_deaths_after_the_fight_match_the_exact_chain() -> None:
    """SC-04/SC-06: 1,200 engine fights of a foe left dying at −5 with Fort +5 die as often as
    :func:`dying_odds` says (0.129...), within 4 standard errors; a starting-dying combatant saves in round 1
    already (it did not drop this round: SC-B3), so the chain starts with a check."""
    scenario = scenario_from_data(BLEEDER, Path(__file__).parent / "bleeder.yaml")
    n = 1200
    tally = simulate(scenario, n, 7, None, {"a": "heuristic", "b": "heuristic"}, engine_only=True).result.tally
    exact = float(dying_odds(-5, 5, check_in_first_round=True).p_dead)
    dead = tally.combatants["b"].dead / n
    assert abs(dead - exact) <= 4 * math.sqrt(exact * (1 - exact) / n)
