"""Combat Nerdified round by round on scripted dice. Rules: WL-02, WL-08..WL-18, WL-B2..WL-B7, WL-B11..WL-B13."""

from __future__ import annotations

from typing import Any

from affray.rulesets.hud.state import HudState
from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, kinds, ok, rejected, totals


def plain(cid: str, endurance: int = 10, **extra: Any) -> dict[str, object]:
    """A combatant with no weapon or armour: every HuD modifier is 0."""
    return combatant(cid, name=cid.upper(), endurance=endurance, **extra)


def state_of(match: object) -> HudState:
    return match.state  # type: ignore[attr-defined, no-any-return]


def test_wl08_wl09_wl11_wl13_a_round_declared_low_to_high_performed_high_to_low() -> None:
    """WL-08 HP = Endurance; WL-09 declare from the lowest Chance up, act from the highest down;
    WL-11 Attack > Defense hits; WL-13 HP lost = Damage - Injury; WL-02 the five HuD rolls."""
    # initiative a=3, b=9 | b hits a 10 vs 4, damage 9 vs 5 | a attacks b 5 vs 12 (parry by 7)
    m = hud_match("nerdified", plain("a"), plain("b"), [3, 9, 10, 4, 9, 5, 5, 12])
    s = state_of(m)
    assert (s.fighters["a"].hp, s.fighters["b"].hp) == (10, 10)
    assert s.order == ["b", "a"] and m.pending().actors == ("a",)  # type: ignore[union-attr]
    ok(declare(m, "a", attack("b"), DEFENSE))
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    ok(declare(m, "b", attack("a"), DEFENSE))
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("defend", ("a",))
    assert [s.action["type"] for s in m.legal("a")] == ["defend", "take"]
    events = ok(m.act("a", {"type": "defend"}))
    assert totals(events, "attack") == [10] and totals(events, "defense") == [4]
    assert m.pending().phase == "follow"  # type: ignore[union-attr]
    events = ok(m.act("b", {"type": "damage"}))
    assert totals(events, "damage") == [9] and totals(events, "injury") == [5]
    assert s.fighters["a"].hp == 6 and s.fighters["a"].defenses == 0
    events = ok(m.act("b", {"type": "defend"}))
    parry = next(e for e in events if e.kind == "exchange")
    assert (parry.attack, parry.defense, parry.result, parry.riposte) == (5, 12, "parry", True)  # type: ignore[attr-defined]
    purposes = {e.purpose for e in m.events() if e.kind == "rolled"}  # type: ignore[attr-defined]
    assert purposes == {"initiative", "attack", "defense", "damage", "injury"}


def test_wl12_wl_b5_riposte_is_free_and_defended_from_remaining_defenses() -> None:
    """WL-12: a parry by 6+ lets the defender riposte at once, free; WL-B5: the original attacker defends it
    with a remaining defense action, else takes it (or spends an emergency additional action)."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3, 4, 11, 6, 6, 7, 3])
    ok(declare(m, "b", attack("a"), DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))  # a's first attack: 4 vs 11, parried by 7
    assert [x.action["type"] for x in m.legal("b")] == ["riposte", "disengage", "pass"]
    ok(m.act("b", {"type": "riposte"}))
    assert m.pending().phase == "defend" and m.pending().actors == ("a",)  # type: ignore[union-attr]
    assert [x.action["type"] for x in m.legal("a")] == ["emergency_defense", "take"]
    events = ok(m.act("a", {"type": "take"}))
    assert kinds(events)[:1] == ["undefended"] and totals(events, "damage") == [6]
    assert state_of(m).fighters["a"].hp == 10  # 6 vs 6: soaked
    assert m.pending().phase == "defend"  # type: ignore[union-attr]  # a's second attack, b has no defense? no: emergency
    assert [x.action["type"] for x in m.legal("b")] == ["emergency_defense", "take"]


def test_wl12_no_riposte_below_six() -> None:
    """WL-12 / WL-B3: a parry by 5 offers no riposte."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3, 4, 9])
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    ok(m.act("b", {"type": "defend"}))
    assert [x.action["type"] for x in m.legal("b")] == ["disengage", "pass"]
    assert rejected(m, "b", {"type": "riposte"}).code == "not_allowed_now"


def test_wl14_undefended_goes_straight_to_damage() -> None:
    """WL-14: with no defense action left (and no additional action to spend) the attack skips Attack vs
    Defense: only Damage and Injury are rolled."""
    m = hud_match(
        "nerdified", plain("a"), plain("b"), [9, 3, 8, 2, 3, 3, 1, 1, 1, 1, 5, 4], options={"max_additional_actions": 0}
    )
    ok(declare(m, "b", attack("a"), attack("a")))
    events = ok(declare(m, "a", attack("b"), attack("b")))
    assert kinds(events)[1:5] == ["undefended", "rolled", "rolled", "wounded"]
    assert totals(events, "damage") == [8, 3, 1, 1] and totals(events, "injury") == [2, 3, 1, 1]
    assert totals(events, "attack") == [] and state_of(m).fighters["b"].hp == 4


def test_wl17_declared_additional_action_costs_two_on_every_roll_this_round() -> None:
    """WL-17 / WL-B11: an additional action declared in the declaration phase gives -2 to Attack, Defense,
    Damage and Injury this round; WL-B6: no second one that round."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3, 10, 5, 9, 4], options={})
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b"), DEFENSE, additional=True))
    s = state_of(m)
    assert s.fighters["a"].penalty == -2 and s.fighters["a"].additional_used == 1
    events = ok(m.act("b", {"type": "defend"}))
    assert totals(events, "attack") == [8] and totals(events, "defense") == [5]
    events = ok(m.act("a", {"type": "damage"}))
    assert totals(events, "damage") == [7] and totals(events, "injury") == [4]
    assert s.fighters["b"].hp == 7


def test_wl17_emergency_additional_action_penalises_the_next_round_not_initiative() -> None:
    """WL-17: an emergency additional action costs -2 on the whole next round, not on this roll, and never
    on Initiative. WL-15: a new round starts with initiative; WL-B7: unused defenses expire."""
    dice = [9, 3, 7, 6, 2, 2, 5, 5, 9, 4, 6, 2]
    m = hud_match("nerdified", plain("a"), plain("b"), dice)
    ok(declare(m, "b", attack("a"), DEFENSE))
    ok(declare(m, "a", attack("b"), attack("b")))
    assert [x.action["type"] for x in m.legal("b")] == ["defend", "take"]
    ok(m.act("b", {"type": "defend"}))  # 7 vs 6: hit
    ok(m.act("a", {"type": "damage"}))  # 2 vs 2: soaked
    events = ok(m.act("b", {"type": "emergency_defense"}))  # a's 2nd attack, b has no defense left
    assert totals(events, "attack") == [5] and totals(events, "defense") == [5]
    s = state_of(m)
    assert s.fighters["b"].penalty_next == -2
    ok(m.act("b", {"type": "pass"}))
    # b attacks a: a declared no defense and its additional action is unused -> a chooses
    events = ok(m.act("a", {"type": "take"}))
    assert s.round == 2 and s.fighters["b"].penalty == -2 and s.fighters["b"].defenses == 0
    inits = [e for e in events if e.kind == "rolled" and e.purpose == "initiative"]  # type: ignore[attr-defined]
    assert [e.roll.modifier for e in inits] == [0, 0]  # type: ignore[attr-defined]


def test_wl_b6_no_emergency_after_a_declared_additional_action() -> None:
    """WL-B6: at most one additional action per round: after a declared one, an attack on a combatant with
    no defense left is simply undefended."""
    m = hud_match("nerdified", plain("a"), plain("b"), [9, 3, 6, 6, 6, 6])
    ok(declare(m, "b", attack("a"), attack("a"), attack("a"), additional=True))
    events = ok(declare(m, "a", attack("b"), attack("b")))
    assert "undefended" in kinds(events)
    assert rejected(m, "a", {"type": "declare", "plan": [], "additional": True}).code in (
        "not_your_turn",
        "not_allowed_now",
    )


def test_wl18_charge_costs_two_actions_minus_four_attack_plus_two_damage() -> None:
    """WL-18 / WL-B4: a charge costs two actions, strikes at -4 Attack and +2 Damage for that blow; WL-B13: it
    crosses a far distance in one go."""
    m = hud_match("nerdified", plain("a", band="far"), plain("b"), [9, 3, 12, 2, 6, 5, 5, 4])
    ok(declare(m, "b", DEFENSE, DEFENSE))
    ok(declare(m, "a", {"type": "charge", "target": "b"}))
    events = ok(m.act("b", {"type": "defend"}))
    assert totals(events, "attack") == [8]
    events = ok(m.act("a", {"type": "damage"}))
    assert totals(events, "damage") == [8] and state_of(m).fighters["b"].hp == 7
    assert state_of(m).fighters["a"].place == state_of(m).fighters["b"].place


def test_wl18_charge_needs_two_actions() -> None:
    """WL-18: a charge with fewer than two actions left is refused."""
    m = hud_match("nerdified", plain("a", actions_per_round=1, band="near"), plain("b"), [3, 9])
    assert (
        rejected(m, "a", {"type": "declare", "plan": [{"type": "charge", "target": "b"}], "additional": False}).code
        == "charge_needs_two_actions"
    )
    m2 = hud_match("nerdified", plain("a", band="near"), plain("b"), [3, 9])
    result = rejected(
        m2, "a", {"type": "declare", "plan": [{"type": "charge", "target": "b"}, DEFENSE], "additional": False}
    )
    assert result.code == "charge_needs_two_actions"


def test_wl_b4_literal_charge_bonus_goes_to_the_chargers_injury() -> None:
    """WL-B4 option 'injury': the +2 goes to the charger's own Injury rolls that round, not its Damage."""
    m = hud_match(
        "nerdified",
        plain("a", band="near"),
        plain("b"),
        [9, 3, 12, 2, 6, 5, 8, 4, 7, 1],
        options={"charge_bonus_to": "injury"},
    )
    ok(declare(m, "b", {"type": "close", "target": "a"}, attack("a"), DEFENSE))
    ok(declare(m, "a", {"type": "charge", "target": "b"}))
    ok(m.act("b", {"type": "defend"}))
    events = ok(m.act("a", {"type": "damage"}))
    assert totals(events, "damage") == [6]
    events = ok(m.act("a", {"type": "take"}))  # b strikes back; a has no defense left
    assert totals(events, "injury") == [6]


def test_wl_b2_modifiers_from_weapons_and_armour() -> None:
    """WL-B2: Attack = d13 + weapon attack - armour penalty; Defense = d13 + defense in hand;
    Damage = d13 + weapon damage; Injury = d13 + armour injury. Vesna: steel sword (+1/+1/+1) in a
    brigandine (medium: penalty 1, injury +2); Hald: halberd (+1/+1/+3) in plate (penalty 2, injury +4)."""
    m = hud_match("nerdified", combatant("vesna", "vesna"), combatant("hald", "sergeant"), [9, 3, 10, 10, 7, 7])
    ok(declare(m, "hald", DEFENSE, DEFENSE))
    ok(declare(m, "vesna", attack("hald"), attack("hald")))
    events = ok(m.act("hald", {"type": "defend"}))
    assert totals(events, "attack") == [10] and totals(events, "defense") == [11]
    assert [x.action["type"] for x in m.legal("hald")] == ["disengage", "pass"]


def test_wl10_wl_b12_actions_per_round_from_content() -> None:
    """WL-10 / WL-B12: two actions by default; the Night-Widow has three, the Marsh Fiend four."""
    m = hud_match(
        "nerdified", combatant("w", "vesna"), combatant("x", "bruxa"), [5, 4, 3], extra=combatant("y", "fiend")
    )
    actions = {a: f.actions for a, f in state_of(m).fighters.items()}
    assert actions == {"w": 2, "x": 3, "y": 4}
    m2 = hud_match("nerdified", plain("a"), plain("b"), [5, 4], options={"default_actions_per_round": 3})
    assert state_of(m2).fighters["a"].actions == 3


def test_wl_b7_interleave_option_alternates_actions() -> None:
    """WL-B7: by default each combatant performs all its actions on its step; 'interleave' alternates."""
    plan = [attack("b"), attack("b"), DEFENSE]
    for order, expected in (
        ("declared", [("a", 0), ("a", 1), ("b", 0), ("b", 1)]),
        ("interleave", [("a", 0), ("b", 0), ("a", 1), ("b", 1)]),
    ):
        m = hud_match(
            "nerdified",
            plain("a", actions_per_round=3),
            plain("b", actions_per_round=3),
            [9, 3],
            options={"action_order": order},
        )
        ok(declare(m, "b", attack("a"), attack("a"), DEFENSE))
        ok(declare(m, "a", *plan))
        assert state_of(m).queue == expected
