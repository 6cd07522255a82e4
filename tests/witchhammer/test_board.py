"""Positions on the grid, driven turn by turn on a bare state. Rules: WH-07, WH-08, WH-09, WH-10, WH-25, WH-26,
WH-B13, WH-B14, WH-B15, WH-A4."""

from __future__ import annotations

from typing import Any

from affray.core import grid
from affray.core.events import Event
from affray.core.journal import Journal
from affray.rulesets.witchhammer import targeting, violence
from affray.rulesets.witchhammer.state import WitchHammerState
from tests.witchhammer.helpers import DiceRNG, fighter, give_card, new_state, of


def turn(state: WitchHammerState, actor: str, card: str, dice: list[int] | None = None) -> list[Event]:
    rng = DiceRNG(dice)
    events = Journal()
    give_card(state, state.fighters[actor], card)
    violence.take_turn(state, state.fighters[actor], rng, events)
    assert rng.values == [], "every scripted die was used"
    return events


def attacked(events: list[Event]) -> Any:
    (event,) = of(events, "attack")
    return event


def test_wh07_wh08_movement_toward_stops_when_adjacent() -> None:
    """WH-07/WH-08: "3 toward the nearest enemy" stops once adjacent, then the attack rolls."""
    s = new_state([fighter("a", (0, 0))], [fighter("b", (2, 0), use="dummy")])
    events = turn(s, "a", "lunge", [15])
    (moved,) = of(events, "moved")
    assert moved.path == [(1, 0)] and moved.stopped == "adjacent"
    assert attacked(events).value == 15


def test_wh08_wh09_movement_is_mandatory_and_an_out_of_range_attack_fizzles_without_a_roll() -> None:
    """WH-08: the full 3 squares are moved; WH-09/WH-10: the target is still 2 away (not close), so the attack
    fails and no die is rolled."""
    s = new_state([fighter("a", (0, 0))], [fighter("b", (5, 0), use="dummy")])
    events = turn(s, "a", "lunge", [])
    assert s.fighters["a"].pos == (3, 0) and of(events, "moved")[0].stopped == "full"
    assert not of(events, "rolled") and of(events, "fizzled")[0].reason == "Dummy is out of close range"


def test_wh08_a_wall_stops_the_move() -> None:
    """WH-08: an impassable obstacle ends the movement early (greedy steps, WH-B13)."""
    grid = "#####\n#.#.#\n#####"
    s = new_state([fighter("a", (1, 1))], [fighter("b", (3, 1), use="dummy")], map_=grid)
    events = turn(s, "a", "lunge", [])
    assert s.fighters["a"].pos == (1, 1) and of(events, "moved")[0].stopped == "blocked"


def test_wh08_moving_away_stops_at_the_edge() -> None:
    """WH-08: "6 away from the nearest enemy" ends early at the edge of the map."""
    s = new_state([fighter("a", (2, 0))], [fighter("b", (3, 0), use="dummy")], map_="......")
    events = turn(s, "a", "step_back")
    assert s.fighters["a"].pos == (0, 0) and of(events, "moved")[0].stopped == "blocked"


def test_wh_a4_difficult_terrain_costs_two() -> None:
    """WH-A4: entering '~' costs 2 of the move (the shared grid's terrain, X-3); off, it costs 1."""
    for terrain, where in ((True, (2, 0)), (False, (3, 0))):
        s = new_state(
            [fighter("a", (0, 0))],
            [fighter("b", (9, 0), use="dummy")],
            map_="..~.......",
            options={"difficult_terrain": terrain},
        )
        turn(s, "a", "lunge")
        assert s.fighters["a"].pos == where


def test_wh_a4_a_whole_move_square_is_only_a_first_step() -> None:
    """WH-A4 with SC-20's '%' (5 ft per move action): entering it takes the whole move, so a move enters it
    only as its first step and ends there; after a step, it is a block."""
    s = new_state([fighter("a", (0, 0))], [fighter("b", (9, 0), use="dummy")], map_="..%.......")
    events = turn(s, "a", "lunge")
    assert s.fighters["a"].pos == (1, 0) and of(events, "moved")[0].stopped == "blocked"
    s = new_state([fighter("a", (1, 0))], [fighter("b", (9, 0), use="dummy")], map_="..%.......")
    events = turn(s, "a", "lunge")
    assert s.fighters["a"].pos == (2, 0) and of(events, "moved")[0].stopped == "full"


def test_wh_b13_nearest_ties_by_euclid_then_actor_order() -> None:
    """WH-B13: equal Chebyshev distance breaks by Euclidean distance, then by the scenario's actor order."""
    s = new_state(
        [fighter("a", (5, 5))],
        [fighter("b1", (7, 5), use="dummy"), fighter("b2", (7, 7), use="dummy"), fighter("b3", (3, 5), use="dummy")],
    )
    a = s.fighters["a"]
    assert targeting.pick(s, a, "nearest_enemy").id == "b1"  # type: ignore[union-attr]
    s.fighters["b1"].out = "defeated"
    assert targeting.pick(s, a, "nearest_enemy").id == "b3"  # type: ignore[union-attr]
    assert targeting.pick(s, a, "farthest_enemy").id == "b2"  # type: ignore[union-attr]


def test_wh07_largest_and_weakest_selectors() -> None:
    """WH-07: "largest enemy" by size, then nearest; "weakest" by Poise + Health."""
    s = new_state(
        [fighter("a", (0, 0))], [fighter("b", (2, 0), use="dummy"), fighter("m", (6, 6), use="cinder_monitor")]
    )
    a = s.fighters["a"]
    assert targeting.pick(s, a, "largest_enemy").id == "m"  # type: ignore[union-attr]
    assert targeting.pick(s, a, "weakest_enemy").id == "b"  # type: ignore[union-attr]


def test_wh25_wh_b14_from_behind_is_plus_5() -> None:
    """WH-25/WH-B14: b faces north, so the 3 squares south of it are its back; a attacks from there at +5."""
    s = new_state([fighter("a", (5, 6))], [fighter("b", (5, 5), use="dummy", facing="n")])
    event = attacked(turn(s, "a", "jab", [10]))
    assert (event.bonus, event.position, event.value) == (5, ["behind"], 15)
    for spot, behind in (((4, 6), True), ((6, 6), True), ((4, 5), False), ((5, 4), False), ((6, 4), False)):
        assert grid.behind(spot, s.fighters["b"].pos, s.fighters["b"].facing) is behind


def test_wh_b14_facing_follows_the_last_step_or_the_target() -> None:
    """WH-B14: a mover faces its last step; one who attacks without moving turns to its target."""
    s = new_state([fighter("a", (0, 0))], [fighter("b", (3, 3), use="dummy", facing="n")])
    turn(s, "a", "lunge", [2])
    assert s.fighters["a"].pos == (2, 2) and s.fighters["a"].facing == (1, 1)
    turn(s, "b", "jab", [2])
    assert s.fighters["b"].facing == (-1, -1)


def test_wh26_wh_b15_flanking_is_plus_4_and_stacks_with_behind() -> None:
    """WH-26/WH-B15: attackers west and east of the target flank (+4); from behind too it is +9."""
    s = new_state([fighter("a", (4, 5)), fighter("c", (6, 5))], [fighter("b", (5, 5), use="dummy", facing="e")])
    event = attacked(turn(s, "a", "jab", [10]))
    assert (event.bonus, sorted(event.position)) == (9, ["behind", "flank"])
    s.fighters["b"].facing = (0, -1)
    event = attacked(turn(s, "a", "jab", [10]))
    assert (event.bonus, event.position) == (4, ["flank"])


def test_wh_b15_sides_against_opposite_flank_mode() -> None:
    """WH-B15: west and north share no side, so they flank by 'sides' but not by 'opposite' (dot product 0)."""
    assert grid.flanks((4, 5), (5, 4), (5, 5), "sides")
    assert not grid.flanks((4, 5), (5, 4), (5, 5), "opposite")
    assert not grid.flanks((4, 4), (6, 4), (5, 5), "sides")  # both on the north side
    assert grid.flanks((4, 4), (6, 6), (5, 5), "opposite")
    s = new_state(
        [fighter("a", (4, 5)), fighter("c", (5, 4))],
        [fighter("b", (5, 5), use="dummy", facing="w")],
        options={"flank_mode": "opposite"},
    )
    assert attacked(turn(s, "a", "jab", [10])).bonus == 0


def test_wh_a3_flank_partner_must_be_attacking_when_asked() -> None:
    """WH-A3: with flank_partner 'attacking', an ally whose card this round has no attack does not flank."""
    s = new_state(
        [fighter("a", (4, 5)), fighter("c", (6, 5))],
        [fighter("b", (5, 5), use="dummy", facing="n")],
        options={"flank_partner": "attacking"},
    )
    give_card(s, s.fighters["c"], "wait")
    assert attacked(turn(s, "a", "jab", [10])).bonus == 0
    give_card(s, s.fighters["c"], "jab")
    assert attacked(turn(s, "a", "jab", [10])).bonus == 4


def test_wh13_wh_b16_ranged_attack_halves_the_card_and_sheet_defense() -> None:
    """WH-13/WH-B16: a bolt against Guard (Defense 6) meets half of it (3) plus Ranged Defense (2): 5."""
    s = new_state([fighter("a", (0, 0))], [fighter("b", (3, 0), use="dummy")])
    b = s.fighters["b"]
    b.defenses["ranged"] = 2
    give_card(s, b, "guard")
    events = turn(s, "a", "bolt", [15])
    assert (attacked(events).defense, attacked(events).value) == (5, 10)
