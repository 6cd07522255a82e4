"""Rounds and initiative, holding an action, movement. Rules: WR-05, WR-06, WR-07, WR-B8 (and WR-X4)."""

from __future__ import annotations

from affray.core.engine import Action
from affray.core.events import Defeated, Rolled
from affray.rulesets.warp.events import InitiativeSet, Moved
from affray.rulesets.warp.mechanics import PACES
from tests.warp.helpers import attack, brawler, fighter, kinds, ok, rejected, rolls, state, thug, warp_match, who

TRAIT = {"initiative": "trait"}
PASS: Action = {"type": "pass"}


def test_wr05_initiative_is_rolled_once_per_fight_highest_first() -> None:
    """WR-05: a rolls 3, b rolls 12 (2 dice each, no initiative trait): b acts first every round, and
    round 2 rolls nothing."""
    m = warp_match([brawler("a")], [thug("b")], [1, 2, 6, 6], TRAIT)
    assert state(m).order == ["b", "a"]
    assert [r.roll.total for r in rolls(list(m.setup_events), "initiative")] == [3, 12]
    ok(m.act("b", PASS))
    events = ok(m.act("a", PASS))
    assert m.rounds() == 2 and rolls(events, "initiative") == [] and m.pending().actors == ("b",)  # type: ignore[union-attr]


def test_wr05_initiative_uses_an_appropriate_trait() -> None:
    """WR-05: Quick Reflexes 4 rolls 4 dice; a flaw 'Slow off the Mark' adds a penalty die."""
    m = warp_match(
        [fighter("a", traits={"quick_reflexes": 4})], [fighter("b", "enforcer")], [1, 1, 1, 1, 6, 6, 6, 6, 6], TRAIT
    )
    a_roll, b_roll = rolls(list(m.setup_events), "initiative")
    assert a_roll.roll.notation == "4d6" and a_roll.trait == "Quick Reflexes"
    assert b_roll.roll.notation == "4d6+1p" and b_roll.penalty == ["Slow off the Mark"]


def test_wr05_seating_order_gm_first_or_last() -> None:
    """WR-05: the seating alternative: PCs in scenario order, GM characters first or last; no dice."""
    last = warp_match([brawler("a"), brawler("c")], [thug("b")], [], {"initiative": "seating_gm_last"})
    first = warp_match([brawler("a"), brawler("c")], [thug("b")], [], {"initiative": "seating_gm_first"})
    assert state(last).order == ["a", "c", "b"] and state(first).order == ["b", "a", "c"]
    assert last.rng.index == 0


def test_wr05_the_gm_may_roll_once_for_all_gmcs() -> None:
    """WR-05: with one roll for the GM characters, two thugs share a single 2-dice roll and act in the
    scenario's order."""
    m = warp_match([brawler("a")], [thug("b"), thug("c")], [3, 3, 5, 5], {**TRAIT, "gmc_single_initiative": True})
    assert m.rng.index == 4
    assert who(m, "b").initiative == who(m, "c").initiative == 10 and state(m).order == ["b", "c", "a"]


def test_wr_b8_ties_go_to_the_larger_pool_then_pcs_then_a_roll_off() -> None:
    """WR-B8: 4 (3 dice) beats 4 (2 dice); a PC's 4 beats a GMC's 4 from equal pools; two PCs tied roll off
    (a 2 against c 5: c first)."""
    pool = warp_match([fighter("a", pc=False, traits={"quick_reflexes": 3})], [thug("b")], [1, 1, 2, 2, 2], TRAIT)
    assert state(pool).order == ["a", "b"]
    pc = warp_match([thug("x")], [brawler("a")], [1, 3, 2, 2], TRAIT)
    assert state(pc).order == ["a", "x"]
    rolloff = warp_match([brawler("a"), brawler("c")], [thug("b")], [2, 2, 1, 3, 1, 1, 2, 5], TRAIT)
    assert state(rolloff).order == ["c", "a", "b"]
    assert [e.roll.total for e in rolloff.setup_events if isinstance(e, Rolled) and "roll-off" in e.purpose] == [2, 5]
    plain = warp_match(
        [fighter("a", pc=False, traits={"quick_reflexes": 3})],
        [thug("b")],
        [1, 1, 2, 2, 2, 1, 4],
        {**TRAIT, "initiative_ties": "rolloff"},
    )
    assert state(plain).order == ["b", "a"]


def test_wr_b8_reroll_initiative_each_round_option() -> None:
    """WR-B8: with the option, round 2 rolls initiative again and the order may change."""
    m = warp_match(
        [brawler("a")], [thug("b")], [6, 6, 1, 1, 1, 1, 6, 6], {**TRAIT, "reroll_initiative_each_round": True}
    )
    assert state(m).order == ["a", "b"]
    ok(m.act("a", PASS))
    events = ok(m.act("b", PASS))
    assert len(rolls(events, "initiative")) == 2 and state(m).order == ["b", "a"]
    assert next(e for e in events if isinstance(e, InitiativeSet)).order == ["b", "a"]


def test_wr06_hold_and_interrupt_later_in_the_round() -> None:
    """WR-06: a holds; before b's turn a may interrupt (it attacks first), then b still takes its turn."""
    m = warp_match([brawler("a")], [thug("b"), thug("c")], [6, 6, 6, 1, 1, 1])
    ok(m.act("a", {"type": "hold"}))
    assert m.pending().actors == ("a", "b")  # type: ignore[union-attr]
    ok(m.act("a", attack("b")))
    assert who(m, "b").hp == 6 and m.pending().actors == ("b",)  # type: ignore[union-attr]
    ok(m.act("b", PASS))
    assert m.pending().actors == ("c",)  # type: ignore[union-attr]


def test_wr06_a_holder_may_keep_waiting_and_act_at_the_end_of_the_round() -> None:
    """WR-06: waiting skips the moment; at the round's end the holder acts or lets the action go."""
    m = warp_match([brawler("a")], [thug("b"), thug("c")], [])
    ok(m.act("a", {"type": "hold"}))
    ok(m.act("a", {"type": "wait"}))
    assert m.pending().actors == ("b",)  # type: ignore[union-attr]
    ok(m.act("b", PASS))
    assert m.pending().actors == ("a", "c")  # type: ignore[union-attr]
    ok(m.act("c", PASS))
    window = m.pending()
    assert window is not None and (window.phase, window.actors) == ("held", ("a",))
    assert rejected(m, "a", {"type": "wait"}).code == "not_allowed_now"
    ok(m.act("a", PASS))
    assert m.rounds() == 2 and not who(m, "a").holding


def test_wr07_paces_in_metres_per_round() -> None:
    """WR-07: walk 2.5, hurry 5, jog 7.5, steady run 10, fast run 15, sprint 20 metres a round."""
    assert PACES == {"walk": 2.5, "hurry": 5.0, "jog": 7.5, "run": 10.0, "fast_run": 15.0, "sprint": 20.0}
    m = warp_match([brawler("a", position=0)], [thug("b", position=40)], [])
    events = ok(m.act("a", {"type": "move", "pace": "sprint", "toward": "b"}))
    assert next(e for e in events if isinstance(e, Moved)).end == 20.0
    ok(m.act("b", {"type": "move", "pace": "walk", "to": 37.5}))
    ok(m.act("a", {"type": "move", "pace": "run", "toward": "b"}))
    assert who(m, "a").position == 30.0


def test_wr07_toward_stops_within_reach_and_the_gm_can_cap_the_pace() -> None:
    """WR-07, WR-X2: moving toward a foe 5 m away at a jog stops 1 m from it (half the 2 m reach); with
    the pace capped at a run, a sprint is refused; 'to' cannot outrun the pace."""
    m = warp_match([brawler("a", position=0)], [thug("b", position=5)], [], {"max_pace": "run"})
    assert rejected(m, "a", {"type": "move", "pace": "sprint", "toward": "b"}).code == "bad_pace"
    assert rejected(m, "a", {"type": "move", "pace": "walk", "to": 3}).code == "too_far"
    ok(m.act("a", {"type": "move", "pace": "jog", "toward": "b"}))
    assert who(m, "a").position == 4.0


def test_wr_x4_running_far_from_every_foe_leaves_the_fight() -> None:
    """WR-X4: a character more than 100 m from every foe has escaped; its side loses if nobody is left."""
    m = warp_match([brawler("a", position=0)], [thug("b", position=85)], [])
    events = ok(m.act("a", {"type": "move", "pace": "sprint", "away": "b"}))
    assert any(isinstance(e, Defeated) and e.how == "escaped" for e in events)
    assert m.outcome() is not None and m.outcome().winner == "B"  # type: ignore[union-attr]
    assert "ended" in kinds(events)
