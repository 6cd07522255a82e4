"""Weapons, places, disengage and pursuit. Rules: WL-16, WL-19..WL-22, WL-B9, WL-B10, WL-B11, WL-B13."""

from __future__ import annotations

from typing import Any

from affray.core.engine import Action
from affray.core.fields import objects
from affray.rulesets.hud.state import HudState
from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, kinds, ok, rejected, totals


def state_of(match: object) -> HudState:
    return match.state  # type: ignore[attr-defined, no-any-return]


def runner(cid: str, agility: int = 0, strength: int = 0, **extra: Any) -> dict[str, object]:
    return combatant(cid, name=cid.upper(), endurance=10, agility=agility, strength=strength, **extra)


def test_wl19_rearm_costs_an_action_emergency_rearm_drops_the_weapon() -> None:
    """WL-19: a rearm sheathes and draws for one action; an emergency rearm drops the weapon for free."""
    m = hud_match("nerdified", combatant("bors", "bors"), runner("b"), [3, 9, 5, 4])
    assert (
        rejected(
            m,
            "bors",
            {
                "type": "declare",
                "plan": [{"type": "rearm", "weapon": "long_dagger"}, attack("b"), DEFENSE],
                "additional": False,
            },
        ).code
        == "wrong_action_count"
    )
    ok(declare(m, "bors", {"type": "emergency_rearm", "weapon": "long_dagger"}, DEFENSE, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    bors = state_of(m).fighters["bors"]
    assert bors.arms["arming_sword"].location == "dropped" and bors.arms["long_dagger"].location == "hand"
    assert bors.arms["round_shield"].location == "hand"


def test_wl19_pick_up_needs_to_be_next_to_the_weapon_and_a_free_hand() -> None:
    """WL-19: picking up a dropped weapon costs one action and needs the character next to it."""
    m = hud_match("nerdified", combatant("bors", "bors", in_hand=["round_shield"]), runner("b"), [3, 9])
    sword = state_of(m).fighters["bors"].arms["arming_sword"]
    sword.location, sword.place = "dropped", 0
    ok_plan: Action = {
        "type": "declare",
        "plan": [{"type": "pick_up", "weapon": "arming_sword"}, attack("b")],
        "additional": False,
    }
    sword.place = 99  # lying far from the fight
    assert rejected(m, "bors", ok_plan).code == "not_next_to_weapon"
    sword.place = 0
    ok(m.act("bors", ok_plan))
    assert state_of(m).fighters["bors"].plan[0] == {"type": "pick_up", "weapon": "arming_sword"}


def test_wl19_emergency_rearm_into_a_free_hand_drops_the_weapon_in_hand() -> None:
    """WL-19, WL-B15: Vesna holds her steel sword with a hand free and emergency-rearms to the silver sword: the
    steel sword lies on the ground where she stands (it used to stay in hand beside the silver one), and the next
    round she picks it up for one action."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), runner("b"), [3, 9] * 3)
    ok(declare(m, "vesna", {"type": "emergency_rearm", "weapon": "silver_sword"}, DEFENSE, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    vesna = state_of(m).fighters["vesna"]
    assert [a.id for a in vesna.in_hand()] == ["silver_sword"]
    assert (vesna.arms["steel_sword"].location, vesna.arms["steel_sword"].place) == ("dropped", vesna.place)
    ok(declare(m, "vesna", {"type": "pick_up", "weapon": "steel_sword"}, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    assert sorted(a.id for a in vesna.in_hand()) == ["silver_sword", "steel_sword"]


def test_wl_b15_a_pick_up_with_full_hands_sheathes_what_makes_room() -> None:
    """WL-19, WL-B15: Sergeant Hald drops his halberd for the arming sword (an emergency rearm); picking the
    halberd up again, for one action, sheathes the sword to free both hands (it used to be refused)."""
    m = hud_match("nerdified", combatant("hald", "sergeant"), runner("b"), [3, 9] * 3)
    ok(declare(m, "hald", {"type": "emergency_rearm", "weapon": "arming_sword"}, DEFENSE, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    hald = state_of(m).fighters["hald"]
    assert hald.arms["halberd"].location == "dropped" and [a.id for a in hald.in_hand()] == ["arming_sword"]
    ok(declare(m, "hald", {"type": "pick_up", "weapon": "halberd"}, DEFENSE))
    ok(declare(m, "b", DEFENSE, DEFENSE))
    assert [a.id for a in hald.in_hand()] == ["halberd"] and hald.arms["arming_sword"].location == "stowed"


def test_wl20_draw_costs_in_a_plan() -> None:
    """WL-20: a trained witcher draws from the back for free; a crossbow not in hand costs an action; a
    two-handed weapon fills both hands, so drawing beside it is refused."""
    m = hud_match("nerdified", combatant("vesna", "vesna", in_hand=[]), runner("b"), [3, 9])
    ok(declare(m, "vesna", {"type": "draw", "weapon": "silver_sword"}, attack("b"), DEFENSE))
    m2 = hud_match("nerdified", combatant("vesna", "vesna"), runner("b"), [3, 9])
    assert (
        rejected(
            m2,
            "vesna",
            {
                "type": "declare",
                "plan": [{"type": "draw", "weapon": "hand_crossbow"}, attack("b"), DEFENSE],
                "additional": False,
            },
        ).code
        == "wrong_action_count"
    )
    ok(declare(m2, "vesna", {"type": "draw", "weapon": "hand_crossbow"}, attack("b")))
    m3 = hud_match("nerdified", combatant("hald", "sergeant"), runner("b"), [3, 9])
    assert (
        rejected(
            m3,
            "hald",
            {
                "type": "declare",
                "plan": [{"type": "draw", "weapon": "arming_sword"}, attack("b"), DEFENSE],
                "additional": False,
            },
        ).code
        == "hands_full"
    )


def test_wl16_free_round_for_ranged_combatants_at_range() -> None:
    """WL-16: an archer at range gets a full free round while the foe closes in; the closer has no
    defense actions (it may spend its additional action); then everyone is engaged."""
    m = hud_match(
        "nerdified", combatant("ilka", "ilka", at_range=True), combatant("bors", "bors"), [6, 11, 3, 9, 9, 7, 2]
    )
    s = state_of(m)
    assert s.free_round and s.order == ["ilka"] and s.fighters["ilka"].place != s.fighters["bors"].place
    ok(declare(m, "ilka", attack("bors"), attack("bors")))
    assert [x.action["type"] for x in m.legal("bors")] == ["emergency_defense", "take"]
    events = ok(m.act("bors", {"type": "take"}))
    assert totals(events, "damage") == [12] and totals(events, "injury") == [4]  # bow +1, gambeson +1
    assert s.fighters["bors"].hp == 7 - 8
    assert s.outcome is not None and s.outcome.winner == "A"


def test_wl16_no_free_round_when_everyone_is_ranged() -> None:
    """WL-16: if every party is at range with a ranged weapon, nobody gets the free round; WL-B13: a melee
    attack across the distance is refused until the attacker closes in (the free 10 m move, from near)."""
    m = hud_match("nerdified", combatant("vesna", "vesna", band="near"), combatant("ilka", "ilka", band="near"), [2, 8])
    s = state_of(m)
    assert not s.free_round and s.fighters["vesna"].place != s.fighters["ilka"].place
    assert (
        rejected(m, "vesna", {"type": "declare", "plan": [attack("ilka"), DEFENSE], "additional": False}).code
        == "out_of_reach"
    )
    ok(declare(m, "vesna", {"type": "close", "target": "ilka"}, attack("ilka"), DEFENSE))


def test_wl_b13_the_free_move_never_crosses_far_a_charge_does() -> None:
    """WL-B13 (as revised): from far the free 10 m move is refused (``too_far``); a charge reaches the foe
    (WL-18). ``at_range: true`` starts far."""
    m = hud_match(
        "nerdified", combatant("vesna", "vesna", at_range=True), combatant("ilka", "ilka", band="far"), [2, 8]
    )
    s = state_of(m)
    assert (s.fighters["vesna"].band, s.fighters["ilka"].band) == ("far", "far")
    assert s.distance(s.fighters["vesna"], s.fighters["ilka"]) == "far"
    assert (
        rejected(
            m,
            "vesna",
            {
                "type": "declare",
                "plan": [{"type": "close", "target": "ilka"}, attack("ilka"), DEFENSE],
                "additional": False,
            },
        ).code
        == "too_far"
    )
    plans = [objects(x.action, "plan") for x in m.legal("vesna")]
    assert [{"type": "charge", "target": "ilka"}] in plans
    assert not any(i["type"] == "close" for plan in plans for i in plan)
    ok(declare(m, "vesna", {"type": "charge", "target": "ilka"}))


def test_wl_b13_a_charge_on_a_foe_one_is_engaged_with_is_refused() -> None:
    """WL-B13: a charge from engaged is refused (``already_engaged``), and none is listed; so is the free move."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), combatant("hald", "sergeant"), [2, 8])
    assert (
        rejected(
            m, "vesna", {"type": "declare", "plan": [{"type": "charge", "target": "hald"}], "additional": False}
        ).code
        == "already_engaged"
    )
    assert (
        rejected(
            m,
            "vesna",
            {
                "type": "declare",
                "plan": [{"type": "close", "target": "hald"}, attack("hald"), DEFENSE],
                "additional": False,
            },
        ).code
        == "already_engaged"
    )
    assert not any(i["type"] in ("charge", "close") for x in m.legal("vesna") for i in objects(x.action, "plan"))


def test_wl_b13_starting_distance_in_metres_gives_the_band() -> None:
    """WL-B13: a scenario distance of up to 2 m is engaged, up to 10 m (option free_move_metres) near, beyond
    that far; two combatants at different places are far apart when either place is far."""
    m = hud_match(
        "nerdified",
        combatant("a", name="A", endurance=5, distance=8),
        combatant("b", name="B", endurance=5, distance=2),
        [2, 8, 5],
        extra=combatant("c", name="C", endurance=5, distance=10.5),
    )
    s = state_of(m)
    a, b, c = (s.fighters[x] for x in "abc")
    assert (a.band, b.band, c.band) == ("near", "engaged", "far")
    assert (s.distance(a, b), s.distance(a, c), s.distance(b, c), s.distance(b, b)) == ("near", "far", "far", "engaged")
    m2 = hud_match(
        "nerdified",
        combatant("a", name="A", endurance=5, distance=8),
        combatant("b", name="B", endurance=5),
        [2, 8],
        options={"free_move_metres": 6},
    )
    assert state_of(m2).fighters["a"].band == "far"


def test_wl21_wl22_disengage_chase_and_catch_gives_pursuers_initiative() -> None:
    """WL-21: the winner of Attack vs Defense may disengage instead of the follow-up (WL-B10: no damage).
    WL-22: both sides roll Chance + Agility/Strength - armour; the gap moves by the difference; at 2 m or
    less everyone is back in combat with the pursuers holding initiative (WL-B9: the gap starts at 0)."""
    dice = [9, 3, 10, 2, 8, 4, 2, 9, 11, 1]
    m = hud_match("nerdified", runner("a", agility=3), runner("b", strength=1), dice)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))  # 10 vs 2: a hits
    events = ok(m.act("a", {"type": "disengage"}))
    assert "disengaged" in kinds(events) and "rolled" not in kinds(events)
    assert [x.action["type"] for x in m.legal("b")] == ["chase", "let_go"]
    events = ok(m.act("b", {"type": "chase"}))
    rounds = [e for e in events if e.kind == "pursuit_round"]
    assert [(r.flee, r.pursue, r.gap, r.state) for r in rounds] == [  # type: ignore[attr-defined]
        (11, 5, 6, "running"),
        (5, 10, 1, "caught"),
    ]
    s = state_of(m)
    assert s.fighters["a"].place == s.fighters["b"].place != 0
    assert s.round == 2 and s.order == ["b", "a"]  # b rolled 1 but holds the initiative


def test_wl22_wl_b14_escape_beyond_fifteen_metres_ends_the_fight_as_escaped() -> None:
    """WL-22 / WL-B9: a gap beyond 15 m means the fleeing side has escaped; WL-B14: an escape is not a defeat,
    the fight ends as *escaped* with no winner, naming who got away and who held the field; the library's
    ``Outcome.label`` reads "escaped" (it read "draw")."""
    dice = [9, 3, 10, 2, 11, 1, 10, 5]
    m = hud_match("nerdified", runner("a", agility=3), runner("b", strength=1), dice)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))
    ok(m.act("a", {"type": "disengage"}))
    events = ok(m.act("b", {"type": "chase"}))
    assert [(e.gap, e.state) for e in events if e.kind == "pursuit_round"] == [  # type: ignore[attr-defined]
        (12, "running"),
        (19, "escaped"),
    ]
    s = state_of(m)
    assert s.fighters["a"].out == "escaped" and s.outcome is not None
    assert (s.outcome.winner, s.outcome.reason) == (None, "escaped")
    assert dict(s.outcome.details) == {"escaped": ["a"], "held_the_field": "B", "down": []}
    outcome = m.outcome()
    assert outcome is not None and outcome.label == "escaped"  # the library's word, as affray sim counts it
    ended = [e for e in events if e.kind == "ended"]
    assert [e.describe({"a": "A"}) for e in ended] == ["The fight is over: A escaped; nobody was defeated."]
    report = m.ruleset.report(s)
    assert (report["a"].down, report["a"].conditions) == (False, ("escaped",))


def test_wl22_wl_b9_ranged_pursuer_shoots_twice_and_the_target_defends() -> None:
    """WL-22: a pursuer with a ranged weapon in hand may shoot twice instead of chasing, then the target is
    away; WL-B9: each shot is defended with a normal Defense roll."""
    dice = [9, 3, 4, 11, 9, 5, 8, 3, 2, 6, 2, 6]
    shooter = runner("b", weapons=["hand_crossbow"], in_hand=["hand_crossbow"])
    m = hud_match("nerdified", runner("a"), shooter, dice)
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))  # 4 vs 11: b parries by 7
    assert [x.action["type"] for x in m.legal("b")] == ["riposte", "disengage", "pass"]
    ok(m.act("b", {"type": "pass"}))
    ok(m.act("b", {"type": "defend"}))  # 9 vs 5: a hits
    ok(m.act("a", {"type": "disengage"}))
    assert [x.action["type"] for x in m.legal("b")] == ["chase", "shoot", "let_go"]
    events = ok(m.act("b", {"type": "shoot"}))
    assert totals(events, "attack") == [10, 4] and totals(events, "defense") == [3, 6]
    hits = [e.result for e in events if e.kind == "exchange"]  # type: ignore[attr-defined]
    assert hits == ["hit", "parry"]
    assert state_of(m).fighters["a"].out == "escaped" and state_of(m).fighters["a"].hp == 10


def test_wl_b10_option_keeps_the_damage_phase_before_fleeing() -> None:
    """WL-B10 off: the disengaging attacker still rolls its Damage phase, then flees."""
    dice = [9, 3, 10, 2, 7, 2, 8, 4]
    m = hud_match("nerdified", runner("a"), runner("b"), dice, options={"disengage_forfeits_follow_up": False})
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))
    events = ok(m.act("a", {"type": "disengage"}))
    assert totals(events, "damage") == [7] and state_of(m).fighters["b"].hp == 5


def test_wl_b11_scope_option_limits_the_penalty_to_attack_and_defense() -> None:
    """WL-B11 'attack_defense': the additional-action -2 skips Damage and Injury."""
    m = hud_match(
        "nerdified",
        runner("a"),
        runner("b"),
        [9, 3, 10, 5, 9, 4],
        options={"additional_penalty_scope": "attack_defense"},
    )
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b"), DEFENSE, additional=True))
    ok(m.act("b", {"type": "defend"}))
    events = ok(m.act("a", {"type": "damage"}))
    assert totals(events, "damage") == [9]


def test_wl19_wl20_emergency_rearm_is_never_cheaper_than_drawing_into_a_free_hand() -> None:
    """WL-19 / WL-20: an emergency rearm drops the sword for free, but the crossbow still costs its draw
    action (WL-20), as drawing it into a free hand would; option emergency_rearm_draw_cost=False: free."""
    rearm: Action = {"type": "emergency_rearm", "weapon": "hand_crossbow"}
    m = hud_match("nerdified", combatant("vesna", "vesna"), runner("b"), [3, 9])
    assert (
        rejected(m, "vesna", {"type": "declare", "plan": [rearm, attack("b"), DEFENSE], "additional": False}).code
        == "wrong_action_count"
    )
    ok(declare(m, "vesna", rearm, attack("b")))
    free_hand = hud_match("nerdified", combatant("vesna", "vesna", in_hand=[]), runner("b"), [3, 9])
    assert (
        rejected(
            free_hand,
            "vesna",
            {
                "type": "declare",
                "plan": [{"type": "draw", "weapon": "hand_crossbow"}, attack("b"), DEFENSE],
                "additional": False,
            },
        ).code
        == "wrong_action_count"
    )
    literal = hud_match(
        "nerdified", combatant("vesna", "vesna"), runner("b"), [3, 9], options={"emergency_rearm_draw_cost": False}
    )
    ok(declare(literal, "vesna", rearm, attack("b"), DEFENSE))
    dagger = hud_match("nerdified", combatant("vesna", "vesna"), runner("b"), [3, 9])
    ok(declare(dagger, "vesna", {"type": "emergency_rearm", "weapon": "silver_sword"}, attack("b"), DEFENSE))
