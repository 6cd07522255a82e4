"""Dice Simplified and Free Form. Rules: WL-00, WL-04..WL-07, WL-B1, WL-B8."""

from __future__ import annotations

from affray.rulesets.hud.state import HudState
from affray.rulesets.hud.views import HudDetail
from tests.hud.helpers import combatant, declare, hud_match, ok, rejected, totals


def state_of(match: object) -> HudState:
    return match.state  # type: ignore[attr-defined, no-any-return]


def plain(cid: str) -> dict[str, object]:
    return combatant(cid, name=cid.upper(), endurance=10)


def test_wl04_everyone_has_three_hp_and_zero_is_out() -> None:
    """WL-04: 3 HP each in Dice Simplified, whatever the Endurance; at 0 the combatant is out."""
    m = hud_match("simplified", plain("a"), plain("b"), [], first="a")
    assert {f.hp for f in state_of(m).fighters.values()} == {3}


def test_wl05_post_order_from_the_scene_or_opposed_chance_with_rerolled_ties() -> None:
    """WL-05: the scene's attacker goes first; otherwise opposed Chance, higher first; WL-B8: ties re-roll."""
    m = hud_match("simplified", plain("a"), plain("b"), [], first="b")
    assert state_of(m).order == ["b", "a"] and m.pending().actors == ("b",)  # type: ignore[union-attr]
    m2 = hud_match("simplified", plain("a"), plain("b"), [6, 6, 2, 10])
    assert state_of(m2).order == ["b", "a"]
    rolls = [e.roll.total for e in m2.events() if e.kind == "rolled"]  # type: ignore[attr-defined]
    assert rolls == [6, 6, 2, 10]


def test_wl06_attacker_and_defender_choose_their_dice_tie_to_defender() -> None:
    """WL-06: the attacker rolls Attack or Damage, then the defender Defense or Injury; higher attacker
    roll costs 1 HP; a tie goes to the defender. Bors: sword +1 attack, shield +2 defense, gambeson +1."""
    m = hud_match("simplified", combatant("bors", "bors"), plain("b"), [7, 8, 5, 5, 3, 9], first="bors")
    assert [x.action for x in m.legal("bors")] == [
        {"type": "attack", "target": "b", "die": "attack"},
        {"type": "attack", "target": "b", "die": "damage"},
    ]
    events = ok(m.act("bors", {"type": "attack", "target": "b", "die": "attack"}))
    assert totals(events, "attack") == [8]
    events = ok(m.act("b", {"type": "respond", "die": "defense"}))
    assert totals(events, "defense") == [8] and state_of(m).fighters["b"].hp == 3  # tie: defender
    ok(m.act("b", {"type": "attack", "target": "bors", "die": "damage"}))
    events = ok(m.act("bors", {"type": "respond", "die": "injury"}))
    assert totals(events, "injury") == [6]  # 5 + gambeson 1, ties the damage 5
    ok(m.act("bors", {"type": "attack", "target": "b", "die": "damage"}))
    events = ok(m.act("b", {"type": "respond", "die": "injury"}))
    assert state_of(m).fighters["b"].hp == 3 and totals(events, "injury") == [9]
    assert rejected(m, "b", {"type": "attack", "target": "bors", "die": "defense"}).code == "bad_die"
    assert rejected(m, "bors", {"type": "attack", "target": "b", "die": "attack"}).code == "not_your_turn"


def test_wl06_three_hits_end_the_fight() -> None:
    m = hud_match("simplified", plain("a"), plain("b"), [9, 1, 1, 9, 9, 1, 1, 9, 9, 1], first="a")
    for _ in range(3):
        ok(m.act("a", {"type": "attack", "target": "b", "die": "attack"}))
        ok(m.act("b", {"type": "respond", "die": "defense"}))
        if m.outcome() is None:
            ok(m.act("b", {"type": "attack", "target": "a", "die": "attack"}))
            ok(m.act("a", {"type": "respond", "die": "defense"}))
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "A" and state_of(m).fighters["b"].out == "down"


def test_wl07_free_attack_for_a_ranged_combatant_at_range() -> None:
    """WL-07: at range with a ranged weapon when combat starts: one free attack while the foe closes."""
    m = hud_match(
        "simplified",
        combatant("ilka", "ilka", at_range=True),
        plain("b"),
        [3, 9, 8, 2],
    )
    s = state_of(m)
    assert s.order == ["b", "ilka"] and m.pending().actors == ("ilka",)  # type: ignore[union-attr]
    ok(m.act("ilka", {"type": "attack", "target": "b", "die": "attack"}))
    ok(m.act("b", {"type": "respond", "die": "defense"}))
    assert s.fighters["b"].hp == 2 and m.pending().actors == ("b",)  # type: ignore[union-attr]
    m2 = hud_match(
        "simplified", combatant("ilka", "ilka", at_range=True), combatant("v", "vesna", at_range=True), [3, 9]
    )
    assert not state_of(m2).free_attackers  # everyone ranged: no free attack


def test_wl00_free_form_posts_hand_kept_hp_and_dice_on_demand() -> None:
    """WL-00: posts in a post order, HP (3 each) adjusted by hand, Dice Simplified called to settle one
    exchange, and the scene goes on in Free Form."""
    m = hud_match("free_form", plain("a"), plain("b"), [10, 2])
    s = state_of(m)
    assert s.order == ["a", "b"] and {f.hp for f in s.fighters.values()} == {3}
    ok(m.act("a", {"type": "post", "text": "Steel flashes in the rain."}))
    ok(m.act("b", {"type": "post", "text": "I stumble back.", "hp": {"b": -1}}))
    assert s.fighters["b"].hp == 2 and m.pending().actors == ("a",)  # type: ignore[union-attr]
    ok(m.act("a", {"type": "settle", "target": "b", "die": "attack"}))
    assert m.pending().phase == "settle"  # type: ignore[union-attr]
    ok(m.act("b", {"type": "respond", "die": "injury"}))
    assert s.fighters["b"].hp == 1 and m.pending().phase == "post"  # type: ignore[union-attr]
    detail = m.view("a").detail
    assert isinstance(detail, HudDetail) and detail.reference is not None  # WL-00: Nerdified as a frame of reference
    assert rejected(m, "b", {"type": "post", "text": 5}).code == "bad_post"
    ok(m.act("b", {"type": "end_scene"}))
    outcome = m.outcome()
    assert outcome is not None and outcome.winner is None


def test_wl00_free_form_hp_to_zero_ends_the_scene() -> None:
    m = hud_match("free_form", plain("a"), plain("b"), [])
    ok(m.act("a", {"type": "post", "text": "A finishing blow.", "hp": {"b": -3}}))
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "A"


def test_wl_b1_zero_based_dice_change_the_numbers_shown_never_the_outcome() -> None:
    """WL-B1: dice shown as 0..N-1 shift every total by -1; since every HuD roll is opposed, nothing else."""
    dice = [3, 9, 10, 4, 9, 5]
    results = []
    for zero in (False, True):
        m = hud_match("nerdified", plain("a"), plain("b"), [*dice, 5, 2, 6, 6, 4, 4], options={"zero_based_dice": zero})
        ok(declare(m, "a", {"type": "attack", "target": "b"}, {"type": "defense"}))
        ok(declare(m, "b", {"type": "attack", "target": "a"}, {"type": "defense"}))
        ok(m.act("a", {"type": "defend"}))
        events = ok(m.act("b", {"type": "damage"}))
        results.append((totals(list(m.events()), "attack"), state_of(m).fighters["a"].hp, totals(events, "damage")))
    assert results[0][1] == results[1][1] == 6
    assert [x - 1 for x in results[0][0]] == results[1][0] and results[1][2] == [8]
