"""Initiative and the round: SC-15 (move + standard, full-round), SC-16 (initiative, ties, surprise,
re-rolling), SC-02 (giving up), and the engine's round limit."""

from __future__ import annotations

from affray.core.engine import Accepted

from .support import act, build, fighter, kinds, refused, state_of, who, window

OPEN = "\n".join(["." * 8] * 4)


def test_sc16_initiative_is_d20_plus_dex_and_misc_highest_first() -> None:
    """SC-16: Dex 14 (+2) with a +1 bonus rolling 10 (13) beats Dex 10 rolling 12 (12)."""
    match = build(
        OPEN,
        {"l": [fighter("a", (0, 0), abilities={"dexterity": 14}, initiative_bonus=1)], "r": [fighter("b", (7, 3))]},
        dice=[10, 12],
    )
    assert state_of(match).order == ["a", "b"]
    assert (who(match, "a").initiative, who(match, "b").initiative) == (13, 12)


def test_sc16_ties_go_to_the_dex_score_then_a_d10_roll_off() -> None:
    """SC-16: equal totals: Dex 11 beats Dex 10 (same modifier); equal Dex: d10 roll-offs until they differ."""
    match = build(
        OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3), abilities={"dexterity": 11})]}, dice=[9, 9]
    )
    assert state_of(match).order == ["b", "a"]
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]}, dice=[9, 9, 4, 4, 3, 8])
    assert state_of(match).order == ["b", "a"]
    rolled = [e.to_dict()["purpose"] for e in match.setup_events if e.kind == "rolled"]
    assert rolled == ["initiative", "initiative"] + ["initiative roll-off"] * 4


def test_sc16_the_aware_side_gets_its_surprise_bonus() -> None:
    """SC-16: surprise adds the GM's +1..+10 to the aware side's initiative."""
    from affray.core.match import Match
    from affray.core.plugin import get_ruleset
    from affray.rulesets.spellchrome.content_model import SpellchromeScenario

    from .support import ScriptedRNG

    data = {
        "ruleset": "spellchrome",
        "map": OPEN,
        "surprise": {"aware": "r", "bonus": 6},
        "sides": [
            {"name": "l", "combatants": [fighter("a", (0, 0))]},
            {"name": "r", "combatants": [fighter("b", (7, 3))]},
        ],
    }
    ruleset = get_ruleset("spellchrome")
    setup = ruleset.prepare(SpellchromeScenario.model_validate(data), ruleset.content())
    match = Match(ruleset, setup, rng=ScriptedRNG([15, 10]))
    assert state_of(match).order == ["b", "a"] and who(match, "b").initiative == 16


def test_sc16_the_surprise_bonus_counts_only_on_the_first_roll_when_rerolling() -> None:
    """SC-16: surprise (+6 for r) is the start of a fight: re-rolled initiative in round 2 is a plain d20 + Dex
    (a 12 beats b 10), unless the option ``surprise_on_reroll`` keeps the bonus
    (b 10 + 6 = 16 beats 12)."""
    from affray.core.match import Match
    from affray.core.plugin import get_ruleset
    from affray.rulesets.spellchrome.content_model import SpellchromeScenario

    from .support import ScriptedRNG

    data = {
        "ruleset": "spellchrome",
        "map": OPEN,
        "surprise": {"aware": "r", "bonus": 6},
        "sides": [
            {"name": "l", "combatants": [fighter("a", (0, 0))]},
            {"name": "r", "combatants": [fighter("b", (7, 3))]},
        ],
    }
    ruleset = get_ruleset("spellchrome")
    setup = ruleset.prepare(SpellchromeScenario.model_validate(data), ruleset.content())
    for options, order, b_total in (({}, ["a", "b"], 10), ({"surprise_on_reroll": True}, ["b", "a"], 16)):
        match = Match(ruleset, setup, {"reroll_initiative_each_round": True, **options}, rng=ScriptedRNG([15, 10]))
        assert state_of(match).order == ["b", "a"] and who(match, "b").initiative == 16
        act(match, "b", {"type": "end_turn"})
        act(match, "a", {"type": "end_turn"}, 12, 10)
        assert state_of(match).order == order and who(match, "b").initiative == b_total


def test_sc16_initiative_is_kept_unless_the_reroll_option_is_on() -> None:
    """SC-16: the standard rule keeps the order all fight; the option re-rolls every round."""
    kept = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]}, dice=[20, 1])
    act(kept, "a", {"type": "end_turn"})
    result = act(kept, "b", {"type": "end_turn"})
    assert "initiative" not in kinds(result)
    again = build(
        OPEN,
        {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]},
        {"reroll_initiative_each_round": True},
        dice=[20, 1],
    )
    act(again, "a", {"type": "end_turn"})
    result = act(again, "b", {"type": "end_turn"}, 1, 20)
    assert "initiative" in kinds(result) and state_of(again).order == ["b", "a"]


def test_sc15_a_move_and_a_standard_action_in_either_order() -> None:
    """SC-15: attack then move, and the turn ends by itself once nothing is left."""
    match = build(
        OPEN,
        {"l": [fighter("a", (1, 0), weapons=["longsword", "hand_crossbow"])], "r": [fighter("b", (2, 0))]},
        dice=[20, 1],
    )
    act(match, "a", {"type": "attack", "target": "b"}, 2)
    assert refused(match, "a", {"type": "attack", "target": "b"}).code == "no_standard_action"
    assert refused(match, "a", {"type": "full_attack", "target": "b"}).code == "needs_full_round"
    act(match, "a", {"type": "withdraw", "to": [0, 2]})
    assert window(match) == ("turn", ("b",))


def test_sc15_a_draw_is_a_move_action_spent_without_moving() -> None:
    """SC-15/SC-21: taking up another weapon uses the move action; a 5-foot step is still allowed."""
    match = build(
        OPEN,
        {"l": [fighter("a", (1, 0), weapons=["longsword", "hand_crossbow"])], "r": [fighter("b", (2, 0))]},
        dice=[20, 1],
    )
    act(match, "a", {"type": "draw", "weapon": "hand_crossbow"})
    assert refused(match, "a", {"type": "draw", "weapon": "hand_crossbow"}).code == "already_in_hand"
    assert refused(match, "a", {"type": "draw", "weapon": "halberd"}).code == "no_such_weapon"
    act(match, "a", {"type": "step", "to": [0, 0]})
    result = act(match, "a", {"type": "attack", "target": "b"}, 2)
    assert "provoked" not in kinds(result) and window(match) == ("turn", ("b",))


def test_sc_b1_targets_must_be_foes_in_reach_or_in_range() -> None:
    """SC-B1 (SRD-standard): a close weapon reaches one square; a crossbow ten increments with a clear line."""
    walled = "........\n....#...\n........"
    match = build(
        walled,
        {
            "l": [fighter("a", (3, 1), weapons=["longsword", "hand_crossbow"]), fighter("c", (0, 0))],
            "r": [fighter("b", (6, 1))],
        },
        dice=[20, 10, 1],
    )
    assert refused(match, "a", {"type": "attack", "target": "b"}).code == "out_of_reach"
    assert refused(match, "a", {"type": "attack", "target": "c"}).code == "not_a_foe"
    assert refused(match, "a", {"type": "attack", "target": "zed"}).code == "no_such_target"
    assert refused(match, "a", {"type": "attack", "target": "b", "weapon": "hand_crossbow"}).code == "not_wielded"
    act(match, "a", {"type": "draw", "weapon": "hand_crossbow"})
    assert refused(match, "a", {"type": "attack", "target": "b"}).code == "no_line_of_sight"


def test_sc02_npcs_may_give_up_characters_may_not() -> None:
    """SC-02: an NPC may give up after a big hit; the fight ends when no foe is left standing."""
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3), kind="npc")]}, dice=[1, 20])
    result = act(match, "b", {"type": "give_up"})
    outcome = match.outcome()
    assert "ended" in kinds(result) and outcome is not None and outcome.winner == "l"
    match = build(
        OPEN,
        {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3), kind="npc")]},
        {"npcs_may_give_up": False},
        dice=[1, 20],
    )
    assert refused(match, "b", {"type": "give_up"}).code == "not_allowed"
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]}, dice=[20, 1])
    assert refused(match, "a", {"type": "give_up"}).code == "not_allowed"


def test_the_round_limit_ends_an_unfinished_fight_in_a_draw() -> None:
    """Engine option round_limit: past it the fight is a draw."""
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]}, {"round_limit": 2}, dice=[20, 1])
    for _ in range(2):
        act(match, "a", {"type": "end_turn"})
        result = act(match, "b", {"type": "end_turn"})
    outcome = match.outcome()
    assert isinstance(result, Accepted) and outcome is not None and outcome.winner is None
    assert refused(match, "a", {"type": "end_turn"}).code == "match_over"


def test_unknown_and_misplaced_actions_are_refused() -> None:
    """Contract 2: a stable code and a sentence; nothing changes."""
    match = build(OPEN, {"l": [fighter("a", (0, 0))], "r": [fighter("b", (7, 3))]}, dice=[20, 1])
    assert refused(match, "a", {"type": "dance"}).code == "unknown_action"
    assert refused(match, "a", {"type": "attack_of_opportunity"}).code == "no_opportunity"
    assert refused(match, "a", {"type": "decline"}).code == "no_opportunity"
    assert refused(match, "a", {"type": "cast", "spell": "steal_life", "target": "b"}).code == "unknown_spell"


def test_sc25_encumbrance_is_not_tracked() -> None:
    """SC-25: however much a character carries, a 30-ft speed is 6 squares a move action."""
    laden = ["longsword", "war_hammer", "short_sword", "rail_carbine", "hand_crossbow", "quarterstaff"]
    match = build(
        OPEN,
        {"l": [fighter("a", (0, 0), weapons=laden, armour="empowered_plate")], "r": [fighter("b", (7, 3))]},
        dice=[20, 1],
    )
    act(match, "a", {"type": "move", "to": [6, 0]})
    assert who(match, "a").pos == (6, 0)


def test_sc_b9_the_dc22_roll_is_called_a_fortitude_save_and_armour_is_spelt_armour() -> None:
    """SC-B9: one name, 'Fortitude save', for the stabilising roll; the seed's 'armour' spelling."""
    from affray.rulesets.spellchrome.content_model import SpellchromeContent

    match = build(
        OPEN,
        {"l": [fighter("a", (0, 0), hp=-3), fighter("a2", (1, 1))], "r": [fighter("b", (7, 3))]},
        dice=[20, 10, 1, 5],
    )
    checks = [e.to_dict() for e in match.setup_events if e.kind == "check"]
    assert checks == [
        {"type": "check", "actor": "a", "check": "Fortitude save to stabilise", "total": 7, "dc": 22, "success": False}
    ]
    assert "armour" in SpellchromeContent.model_fields and "armor" not in SpellchromeContent.model_fields
