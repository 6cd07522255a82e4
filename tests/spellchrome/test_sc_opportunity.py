"""Attacks of opportunity: what provokes (SC-27 (a)..(e)), one per round (SC-26), when it comes back
(SC-B7), and the legal-action list's warnings (SC-28)."""

from __future__ import annotations

import copy

from affray.core.engine import Rejected
from affray.core.json import as_str
from affray.core.match import Match

from .support import act, build, fighter, kinds, refused, state_of, who, window

OPEN = "\n".join(["." * 10] * 5)


def _pair(a: dict[str, object], b: dict[str, object], options: dict[str, object] | None = None) -> Match:
    return build(OPEN, {"left": [a], "right": [b]}, options, dice=[20, 1])


def test_sc27a_fleeing_melee_at_full_speed_provokes_and_the_move_waits() -> None:
    """SC-27 (a): leaving a melee-armed foe's reach with a normal move stops for its decision."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2)))
    result = act(match, "a", {"type": "move", "to": [0, 2]})
    assert kinds(result) == ["provoked"] and who(match, "a").pos == (4, 2)
    assert window(match) == ("attack_of_opportunity", ("b",))
    assert [s.action["type"] for s in match.legal("b")] == ["attack_of_opportunity", "decline"]
    result = act(match, "b", {"type": "decline"})
    assert "opportunity_declined" in kinds(result) and who(match, "a").pos == (0, 2)
    assert who(match, "b").aoo_left == 1


def test_sc27a_a_taken_attack_lands_before_the_move_goes_on() -> None:
    """SC-27 (a): the attack of opportunity is rolled, then the move finishes."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2)))
    act(match, "a", {"type": "move", "to": [0, 2]})
    result = act(match, "b", {"type": "attack_of_opportunity"}, 20, 3)
    assert kinds(result)[:3] == ["rolled", "attacked", "rolled"] and "moved" in kinds(result)
    assert who(match, "a").hp == 17 and who(match, "a").pos == (0, 2) and who(match, "b").aoo_left == 0


def test_sc27b_entering_melee_is_safe_moving_on_past_provokes() -> None:
    """SC-27 (b): walking into reach provokes nothing; walking on past the foe does."""
    match = _pair(fighter("a", (0, 0), speed_ft=60), fighter("b", (4, 1)))
    result = act(match, "a", {"type": "move", "to": [3, 0]})
    assert "provoked" not in kinds(result)
    match = _pair(fighter("a", (0, 0), speed_ft=60), fighter("b", (4, 1)))
    path = [[x, 0] for x in range(1, 9)]
    result = act(match, "a", {"type": "move", "to": [8, 0], "path": path})
    provoked = [e.to_dict() for e in result.events if e.kind == "provoked"]
    assert provoked and as_str(provoked[0]["trigger"]).startswith("(b)") and who(match, "a").pos == (3, 0)


def test_sc28_the_engine_picks_a_path_that_provokes_nobody_when_there_is_one() -> None:
    """SC-28/SC-24: without a given path the engine walks around the foe's reach if the budget allows."""
    match = _pair(fighter("a", (0, 0), speed_ft=60), fighter("b", (4, 1)))
    result = act(match, "a", {"type": "move", "to": [8, 0]})
    assert "provoked" not in kinds(result) and who(match, "a").pos == (8, 0)


def test_sc26_one_attack_of_opportunity_per_round() -> None:
    """SC-26: having taken one, a foe is offered no other this round; trying anyway is refused."""
    match = build(
        OPEN,
        {"left": [fighter("a", (4, 1)), fighter("c", (4, 3))], "right": [fighter("b", (5, 2)), fighter("d", (3, 4))]},
        dice=[20, 15, 5, 1],
    )
    act(match, "a", {"type": "move", "to": [0, 0]})
    act(match, "b", {"type": "attack_of_opportunity"}, 2)  # a miss
    act(match, "a", {"type": "end_turn"})
    assert who(match, "b").aoo_left == 0 and window(match) == ("turn", ("c",))
    act(match, "c", {"type": "move", "to": [8, 4], "path": [[5, 3], [6, 4], [7, 4], [8, 4]]})
    assert window(match) == ("attack_of_opportunity", ("d",))  # b is not asked again
    state, rng = state_of(match), match.rng
    before, index = copy.deepcopy(match.ruleset.snapshot(state)), rng.index
    result = match.ruleset.step(state, "b", {"type": "attack_of_opportunity"}, rng)
    assert isinstance(result, Rejected) and result.code == "no_attack_of_opportunity_left"
    assert "one attack of opportunity" in result.message
    assert match.ruleset.snapshot(state) == before and rng.index == index
    assert refused(match, "b", {"type": "attack_of_opportunity"}).code == "no_attack_of_opportunity_left"


def test_sc_b7_the_attack_of_opportunity_comes_back_on_the_own_turn() -> None:
    """SC-B7: the allowance refreshes at the start of the character's own turn (or each round, by option)."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2)))
    act(match, "a", {"type": "move", "to": [0, 2]})
    act(match, "b", {"type": "attack_of_opportunity"}, 2)
    assert who(match, "b").aoo_left == 0
    act(match, "a", {"type": "end_turn"})
    assert window(match) == ("turn", ("b",)) and who(match, "b").aoo_left == 1


def test_sc27c_an_unarmed_attack_on_a_melee_armed_foe_provokes_unless_guarded() -> None:
    """SC-27 (c): the armed target may strike first; Guarded Unarmed Attack removes the opening."""
    match = _pair(fighter("a", (4, 2), weapons=[]), fighter("b", (5, 2)))
    result = act(match, "a", {"type": "attack", "target": "b"})
    assert kinds(result) == ["provoked"] and window(match) == ("attack_of_opportunity", ("b",))
    result = act(match, "b", {"type": "decline"}, 2)
    assert "attacked" in kinds(result)  # the punch goes ahead after the decision
    guarded = _pair(fighter("a", (4, 2), weapons=[], feats=["guarded_unarmed_attack"]), fighter("b", (5, 2)))
    assert "provoked" not in kinds(act(guarded, "a", {"type": "attack", "target": "b"}, 2))
    bare = _pair(fighter("a", (4, 2), weapons=[]), fighter("b", (5, 2), weapons=[]))
    assert "provoked" not in kinds(act(bare, "a", {"type": "attack", "target": "b"}, 2))


def test_sc27d_a_ranged_attack_on_an_adjacent_melee_foe_provokes() -> None:
    """SC-27 (d): unless the shooter steps back first or has Guarded Ranged Attack."""
    match = _pair(fighter("a", (4, 2), weapons=["hand_crossbow"]), fighter("b", (5, 2)))
    assert kinds(act(match, "a", {"type": "attack", "target": "b"})) == ["provoked"]
    stepped = _pair(fighter("a", (4, 2), weapons=["hand_crossbow"]), fighter("b", (5, 2)))
    act(stepped, "a", {"type": "step", "to": [3, 2]})
    assert "provoked" not in kinds(act(stepped, "a", {"type": "attack", "target": "b"}, 2))
    guarded = _pair(
        fighter("a", (4, 2), weapons=["hand_crossbow"], feats=["guarded_ranged_attack"]), fighter("b", (5, 2))
    )
    assert "provoked" not in kinds(act(guarded, "a", {"type": "attack", "target": "b"}, 2))


def test_sc_r6_shooting_past_an_adjacent_foe_provokes_only_under_the_srd_option() -> None:
    """Ruling SC-R6: the seed's trigger is a ranged attack *on* the adjacent foe; 'any_adjacent' is the SRD's."""
    sides = {
        "left": [fighter("a", (4, 2), weapons=["hand_crossbow"])],
        "right": [fighter("b", (5, 2)), fighter("c", (9, 2))],
    }
    match = build(OPEN, sides, dice=[20, 10, 1])
    assert "provoked" not in kinds(act(match, "a", {"type": "attack", "target": "c"}, 2))
    match = build(OPEN, sides, {"ranged_provokes_when": "any_adjacent"}, dice=[20, 10, 1])
    assert kinds(act(match, "a", {"type": "attack", "target": "c"})) == ["provoked"]


def _caster(options: dict[str, object] | None = None) -> Match:
    return _pair(fighter("a", (4, 2), hp=10, spells={"swift_healing": 2}), fighter("b", (5, 2)), options)


def test_sc27e_casting_in_melee_needs_concentration_dc15() -> None:
    """SC-27 (e): Concentration DC 15 (untrained: Con modifier) casts safely; a failure provokes after the
    spell resolves (SC-B7)."""
    match = _caster()
    result = act(match, "a", {"type": "cast", "spell": "swift_healing", "target": "a"}, 15, 3)
    assert "provoked" not in kinds(result) and who(match, "a").hp == 14
    match = _caster()
    result = act(match, "a", {"type": "cast", "spell": "swift_healing", "target": "a"}, 14, 3)
    order = kinds(result)
    assert order.index("healed") < order.index("provoked") and window(match) == ("attack_of_opportunity", ("b",))


def test_sc_b7_before_spell_option_lets_the_attack_land_first() -> None:
    """SC-B7 (option 'before_spell'): the attack of opportunity comes before the spell."""
    match = _caster({"failed_concentration_provokes": "before_spell"})
    result = act(match, "a", {"type": "cast", "spell": "swift_healing", "target": "a"}, 14)
    assert "healed" not in kinds(result)
    result = act(match, "b", {"type": "attack_of_opportunity"}, 2, 3)
    assert "healed" in kinds(result) and who(match, "a").hp == 14


def test_sc27_every_adjacent_melee_foe_may_punish_in_turn_order() -> None:
    """SC-26: one target may take attacks of opportunity from several attackers, one window each."""
    match = build(
        OPEN, {"left": [fighter("a", (4, 2))], "right": [fighter("b", (5, 2)), fighter("c", (3, 2))]}, dice=[20, 10, 1]
    )
    act(match, "a", {"type": "move", "to": [4, 4]})
    assert window(match) == ("attack_of_opportunity", ("b",))
    act(match, "b", {"type": "decline"})
    assert window(match) == ("attack_of_opportunity", ("c",))
    act(match, "c", {"type": "decline"})
    assert who(match, "a").pos == (4, 4)


def test_sc_r3_a_foe_holding_only_a_ranged_weapon_threatens_nobody() -> None:
    """Ruling SC-R3: only melee or natural weapons make a combatant 'melee-armed' (SC-27)."""
    match = _pair(fighter("a", (4, 2)), fighter("b", (5, 2), weapons=["hand_crossbow"]))
    assert "provoked" not in kinds(act(match, "a", {"type": "move", "to": [0, 2]}))


def test_sc28_the_legal_list_warns_and_offers_withdraw() -> None:
    """SC-28: moves and shots that provoke say so and by whom; withdraw and the 5-foot step are offered."""
    match = _pair(fighter("a", (4, 2), weapons=["hand_crossbow", "short_sword"]), fighter("b", (5, 2)))
    legal = match.legal("a")
    flee = next(s for s in legal if s.action == {"type": "move", "to": [0, 2]})
    assert any("provokes an attack of opportunity from B" in n for n in flee.notes)
    assert any("withdraw (10 ft)" in n for n in flee.notes)
    shot = next(s for s in legal if s.action == {"type": "attack", "target": "b", "weapon": "hand_crossbow"})
    assert any("provokes" in n for n in shot.notes)
    withdraws = [s for s in legal if s.action["type"] == "withdraw"]
    steps = [s for s in legal if s.action["type"] == "step"]
    assert withdraws and all(not any("provokes" in n for n in s.notes) for s in withdraws)
    assert steps and all(s.notes == ("never provokes",) for s in steps)
    closer = next(s for s in legal if s.action == {"type": "move", "to": [5, 3]})
    assert any("provokes" in n for n in closer.notes)  # leaving a threatened square, even to another
