"""Vignettes, rounds and damage in whole matches on scripted d20s. Rules: WH-01..WH-06, WH-09, WH-17..WH-24,
WH-29, WH-B4, WH-B5, WH-B7, WH-B8, WH-B9, WH-B10, WH-B11, WH-B12, WH-B18, WH-B19, WH-B23."""

from __future__ import annotations

from affray.core.events import Defeated
from affray.core.journal import Journal
from affray.core.match import Match
from affray.rulesets.witchhammer import violence
from affray.rulesets.witchhammer.state import WitchHammerState
from affray.rulesets.witchhammer.wounds import malus_of
from tests.witchhammer.helpers import RULESET, DiceRNG, fighter, give_card, new_match, new_state, of, ok, plan_all


def state(m: Match) -> WitchHammerState:
    assert isinstance(m.state, WitchHammerState)
    return m.state


def duel(dice: list[int], options: dict[str, object] | None = None, b_at: tuple[int, int] = (2, 1)) -> Match:
    return new_match([fighter("a", (1, 1))], [fighter("b", b_at, use="dummy")], dice, options)


def test_wh01_wh02_wh03_wh04_a_vignette_runs_psych_planning_and_two_rounds() -> None:
    """WH-01: Psych, Planning, Violence, then a new vignette; WH-02: the Psych cards turn over together before
    Planning; WH-03: two cards in order; WH-04: slot 1 resolves in round 1, slot 2 in round 2, and the cards
    come back except the one-shots."""
    m = duel([15])
    assert m.pending().phase == "psych" and m.pending().actors == ("a", "b")  # type: ignore[union-attr]
    ok(m.act("a", {"type": "psych", "card": "calm_once"}))
    assert m.pending().actors == ("a", "b")  # type: ignore[union-attr]  # a may still change nothing but ready
    ok(m.act("a", {"type": "ready"}))
    events = ok(m.act("b", {"type": "ready"}))
    assert [e.phase for e in of(events, "phase_started")] == ["planning"]
    assert [(e.actor, e.card, e.slot) for e in of(events, "card")] == [("a", "calm_once", 0)]
    assert state(m).fighters["a"].mod_init == 3  # Focused for the rest of the vignette
    ok(m.act("a", {"type": "commit", "cards": ["jab", "spent"]}))
    events = ok(m.act("b", {"type": "commit", "cards": ["wait"]}))
    assert [e.round for e in of(events, "round_started")] == [1, 2]
    assert [(e.actor, e.card, e.slot) for e in of(events, "card")] == [
        ("a", "jab", 1),
        ("b", "wait", 1),
        ("a", "spent", 2),
        ("b", "hesitate", 2),
    ]
    (hit,) = of(events, "attack")
    assert (hit.actor, hit.target, hit.value, hit.damage) == ("a", "b", 15, 5)
    assert [e.vignette for e in of(events, "vignette")] == [2]
    s = state(m)
    assert s.fighters["a"].deck["spent"] == 0 and s.fighters["a"].deck["calm_once"] == 0  # WH-B19
    assert s.fighters["a"].deck["jab"] == 1 and s.fighters["a"].mod_init == 0
    assert s.fighters["b"].poise == 5  # Poise carries between vignettes (WH-B10)
    assert [spec.action for spec in m.legal("a") if spec.action["type"] == "psych"] == [
        {"type": "psych", "card": "calm"}
    ]


def test_wh05_above_the_line_defense_counts_before_the_cards_turn() -> None:
    """WH-05: a's Guard (Init -5, Defense 6) acts after b, yet its Defense is in force from the reveal."""
    m = duel([15, 15])
    events = plan_all(m, {"a": ["guard", "jab"], "b": ["jab", "wait"]})
    first, second = of(events, "attack")
    assert (first.actor, first.defense, first.value, first.result) == ("b", 6, 9, "miss")
    assert (second.actor, second.defense, second.value) == ("a", 0, 15)


def test_wh06_wh_b12_initiative_order_and_ties() -> None:
    """WH-06: card Init + base Init - Malus, highest first; ties by current Poise; WH-B12: then higher base Init,
    then PCs before monsters, then a seeded d20 roll-off."""
    s = new_state([fighter("a", (0, 0)), fighter("c", (0, 2))], [fighter("b", (5, 5), use="dummy")])
    a, b, c = s.fighters["a"], s.fighters["b"], s.fighters["c"]
    for f in (a, b, c):
        give_card(s, f, "wait")
    events = Journal()
    rng = DiceRNG([3, 17])
    give_card(s, b, "quick_wait")
    c.poise = 8
    assert [f.id for f in violence.order(s, [a, b, c], rng, events)] == ["b", "a", "c"]
    assert s.initiative == {"a": 0, "b": 5, "c": 0}
    c.poise, c.init = 10, 5
    give_card(s, a, "quick_wait")  # a: 5 + 0; c: 0 + 5
    assert [f.id for f in violence.order(s, [a, c], rng, events)] == ["c", "a"]
    c.init = 0
    give_card(s, a, "wait")
    assert violence.order(s, [b, a], rng, events)[0].id == "b"  # b still holds quick_wait
    give_card(s, b, "wait")
    assert [f.id for f in violence.order(s, [b, a], rng, events)] == ["a", "b"]  # PCs before monsters
    assert [f.id for f in violence.order(s, [a, c], rng, events)] == ["c", "a"]  # roll-off: a 3, c 17
    assert [e.purpose for e in of(events, "rolled")] == ["initiative roll-off"] * 2
    s.fighters["a"].health = 14 - 5  # 5 wounds of 14: Malus -2 lowers Init (WH-20)
    assert violence.init_of(s, a) == -2


def test_wh09_a_foe_that_moves_away_first_dodges_the_attack() -> None:
    """WH-09: b steps 6 away at Init 9 before a's Jab; the Jab fails and no die is rolled for it."""
    m = duel([])
    events = plan_all(m, {"a": ["jab", "wait"], "b": ["step_back", "wait"]})
    assert not of(events, "attack") and of(events, "fizzled")[0].reason == "Dummy is out of close range"


def test_wh_a1_target_locked_at_reveal() -> None:
    """WH-A1 'reveal': the Jab's target is fixed when the cards turn over, even if another foe is nearer later."""
    for lock, victim in (("turn", "c"), ("reveal", "b")):
        m = new_match(
            [fighter("a", (1, 1))],
            [fighter("b", (3, 1), use="dummy"), fighter("c", (4, 1), use="dummy")],
            [15, 3, 4],
            {"target_lock": lock},
        )
        events = plan_all(m, {"a": ["lunge", "wait"], "b": ["step_back", "wait"], "c": ["wait", "idle"]})
        hits = of(events, "attack")
        assert [h.target for h in hits] == ([victim] if lock == "turn" else []), lock


def test_wh18_wh_b5_solid_hit_bonus_decided_on_base_damage() -> None:
    """WH-18/WH-B5: a HayMaker (Attack 3, +8 on a Solid Hit): 17 makes base 10, Solid, 18 damage; 16 makes 9,
    no bonus. With 'total', on-hit bonuses count toward the Solid Hit (Trample's +2 turns 9 into 11)."""
    for roll, damage in ((17, 18), (16, 9)):
        s = new_state([fighter("a", (1, 1), deck=["haymaker"])], [fighter("b", (2, 1), use="dummy")])
        b = s.fighters["b"]
        b.poise = 40
        give_card(s, s.fighters["a"], "haymaker")
        events = Journal()
        violence.take_turn(s, s.fighters["a"], DiceRNG([roll]), events)
        assert of(events, "attack")[0].damage == damage
    for rule, damage, result in (("base", 9 + 2, "hit"), ("total", 11, "solid")):
        s = new_state(
            [fighter("a", (1, 1), deck=["trample"])],
            [fighter("b", (2, 1), use="dummy")],
            options={"solid_hit_on": rule},
        )
        s.fighters["a"].solid_damage = 3
        give_card(s, s.fighters["a"], "trample")
        events = Journal()
        violence.take_turn(s, s.fighters["a"], DiceRNG([12]), events)
        attack = of(events, "attack")[0]
        assert (attack.damage, attack.result) == ((damage if rule == "base" else damage + 3), result)


def test_wh17_wh_b4_a_crit_on_a_miss_still_wounds() -> None:
    """WH-17/WH-B4: a natural 20 that misses still puts 1 Wound on the target; with 'on_hit' it does not."""
    for rule, health in (("always", 9), ("on_hit", 10)):
        s = new_state([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")], options={"crit_wound": rule})
        s.fighters["b"].defense = 25
        give_card(s, s.fighters["a"], "jab")
        events = Journal()
        violence.take_turn(s, s.fighters["a"], DiceRNG([20]), events)
        assert of(events, "attack")[0].result == "miss" and s.fighters["b"].health == health


def test_wh23_wh_b7_wh_b23_afflictions_for_pcs_without_crit_adjustment() -> None:
    """WH-23: 10 Wounds in one hit on a PC rolls d20 + 10 on the table; WH-B7: a natural 1 is not adjusted
    (11, Eye Scar) unless every d20 is (1 - 10 + 10 = 1, nothing); WH-B23: the result is a tag on the PC."""
    for scope, result in (("checks", "Eye Scar"), ("every_d20", None)):
        s = new_state([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")], options={"crit_scope": scope})
        b, a = s.fighters["b"], s.fighters["a"]
        b.attack = 20
        give_card(s, b, "jab")
        events = Journal()
        violence.take_turn(s, b, DiceRNG([10, 1]), events)
        (damaged,) = of(events, "damaged")
        assert (damaged.damage, damaged.penetration, damaged.wounds, a.health) == (20, 2, 10, 4)
        assert of(events, "afflicted")[0].affliction == result
        assert a.afflictions == ([result] if result else [])


def test_wh23_monsters_suffer_no_afflictions() -> None:
    """WH-23: afflictions are for PCs only."""
    s = new_state([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")])
    s.fighters["a"].attack = 20
    s.fighters["b"].health = 30
    give_card(s, s.fighters["a"], "jab")
    events = Journal()
    violence.take_turn(s, s.fighters["a"], DiceRNG([10]), events)
    assert of(events, "damaged")[0].wounds >= 5 and not of(events, "afflicted")


def test_wh21_wh22_maluses_add_and_a_downed_pc_takes_no_turn() -> None:
    """WH-21: a status Malus adds to the Health Malus; WH-22/WH-A6: at 0 Health a PC cannot act."""
    s = new_state([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy")])
    a = s.fighters["a"]
    a.health = 9  # 5 wounds of 14: -2
    events = Journal()
    give_card(s, s.fighters["b"], "curse")
    violence.take_turn(s, s.fighters["b"], DiceRNG([]), events)
    assert malus_of(s, a) == -4
    a.health, a.out = 0, "down"
    give_card(s, a, "jab")
    violence.take_turn(s, a, DiceRNG([]), events)
    assert not of(events, "attack")


def test_wh24_wh_b11_bleed_ticks_at_the_start_of_the_bearers_turns() -> None:
    """WH-24/WH-B11: a bleed for 2 rounds takes 1 Wound at the start of each of b's next two turns, then ends."""
    m = duel([15])
    events = plan_all(m, {"a": ["bleed_cut", "wait"], "b": ["wait", "idle"]})
    s = state(m)
    assert [(e.status, e.change) for e in of(events, "effect")] == [
        ("Bleeding", "started"),
        ("Bleeding", "ticked"),
        ("Bleeding", "ticked"),
        ("Bleeding", "ended"),
    ]
    assert s.fighters["b"].health == 10 - 2 and s.fighters["b"].poise == 5


def test_wh24_a_stun_after_the_victim_acted_bites_on_its_next_turn() -> None:
    """WH-24: a acts first in round 1; b then stuns it; the stun takes effect on a's round-2 turn."""
    m = duel([15])
    events = plan_all(m, {"a": ["quick_wait", "jab"], "b": ["stun_cut", "wait"]})
    assert [e.actor for e in of(events, "attack")] == ["b"]
    assert [(e.actor, e.reason) for e in of(events, "fizzled")] == [("a", "stunned")]


def test_wh_b18_empty_slots_get_hesitate_and_copies_are_limited() -> None:
    """WH-B18: a ready with no cards plays Hesitate twice; a card instance fills one slot a vignette."""
    m = duel([])
    for actor in ("a", "b"):
        ok(m.act(actor, {"type": "ready"}))
    result = m.act("a", {"type": "commit", "cards": ["jab", "jab"]})
    assert not result.ok and result.code == "card_not_in_hand"  # type: ignore[union-attr]
    events = plan_all(m, {"a": [], "b": []})
    assert {e.card for e in of(events, "card")} == {"hesitate"}


def test_wh29_wh_b8_wh_b10_deaths_door_and_poise_after_the_fight() -> None:
    """WH-29/WH-B8: both down at the end: the PC saves at 1 - Health (no Malus); a failure kills (default) or
    waits for the GM; WH-B9: the monster at 0 Health is defeated and removed; WH-B10: Poise back to max."""
    for failure in ("dies", "gm_decides"):
        m = new_match(
            [fighter("a", (1, 1)), fighter("c", (3, 1))],
            [fighter("b", (2, 1), use="dummy")],
            [10, 5, 15, 10],
            {"deaths_door_failure": failure, "malus_applies_to_monsters": False},
        )
        s = state(m)
        s.fighters["b"].attack = 20
        s.fighters["c"].poise = 3
        s.fighters["a"].health = 5  # 9 wounds of 14: Malus -5 on a's Defense
        s.fighters["b"].poise, s.fighters["b"].health = 5, 1  # more Poise than c (3): b acts first
        s.fighters["c"].attack = 10
        events = plan_all(m, {"a": ["wait", "idle"], "b": ["jab", "wait"], "c": ["jab", "wait"]})
        a = s.fighters["a"]
        # b: 20 - (-5) + 10 = 35, so 25 damage: 2 through, Poise takes 10, 13 over: 15 wounds, Health -10
        assert of(events, "damaged")[0].wounds == 15 and a.out in ("down", "dead") and a.health == -10
        assert a.afflictions == ["Nose tip missing"]  # 5 + 15 = 20
        (check,) = [e for e in of(events, "check") if e.what == "death's-door save"]
        assert (check.total, check.difficulty, check.success) == (10, 11, False)
        if failure == "dies":
            assert a.out == "dead" and m.outcome() is not None and m.outcome().winner == "A"  # type: ignore[union-attr]
        else:
            assert m.pending() is not None and m.pending().actors == ("gm",)  # type: ignore[union-attr]
            ok(m.act("gm", {"type": "fate", "actor": "a", "fate": "survives"}))
            assert (a.health, a.fate) == (0, "stable") and m.outcome() is not None
        assert s.fighters["c"].poise == s.fighters["c"].max_poise == 10


def test_wh_b9_defeated_monster_leaves_the_board() -> None:
    """WH-B9: a monster at 0 Health is defeated and stops blocking; 'stays_down' keeps its square taken."""
    for rule, out, blocks in (("removed", "defeated", False), ("stays_down", "fallen", True)):
        s = new_state(
            [fighter("a", (1, 1))],
            [fighter("b", (2, 1), use="dummy"), fighter("d", (9, 9), use="dummy")],
            options={"monster_at_zero": rule},
        )
        b = s.fighters["b"]
        b.poise, b.health = 0, 1
        give_card(s, s.fighters["a"], "jab")
        violence.take_turn(s, s.fighters["a"], DiceRNG([15]), Journal())
        assert b.out == out and ((2, 1) in s.occupied(s.fighters["a"])) is blocks


def test_wh22_a_combatant_starting_at_0_health_or_less_cannot_act() -> None:
    """WH-22: at Health 0 or less a character cannot act until combat ends, whatever the scenario says: a PC
    given Health 0 starts down (no Planning window for it) and makes its death's-door save at the end (WH-29);
    a monster given Health -2 starts defeated (WH-B9). Both sides keep one combatant up, so the fight runs."""
    m = new_match(
        [fighter("a", (1, 1), health=0), fighter("c", (3, 3))],
        [fighter("b", (2, 1), use="dummy"), fighter("d", (9, 9), use="dummy", health=-2)],
    )
    s = state(m)
    assert (s.fighters["a"].out, s.fighters["a"].health) == ("down", 0)
    assert (s.fighters["d"].out, s.fighters["d"].health) == ("defeated", -2)
    window = m.pending()
    assert window is not None and window.phase == "psych" and window.actors == ("c", "b")
    assert [e.actor for e in m.setup_events if isinstance(e, Defeated)] == ["a", "d"]
    assert RULESET.legal(s, "a") == [] and not m.act("a", {"type": "ready"}).ok


def test_wh22_a_side_all_at_0_health_loses_before_any_card_is_played() -> None:
    """WH-22: a scenario whose only monster starts at Health 0 ends at once: the hunters win, no card is placed."""
    m = new_match([fighter("a", (1, 1))], [fighter("b", (2, 1), use="dummy", health=0)])
    outcome = m.outcome()
    assert outcome is not None and outcome.winner == "A" and state(m).vignette == 0
