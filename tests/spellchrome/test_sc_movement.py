"""Movement on the grid through the engine: speed, terrain, occupancy, withdraw, 5-foot step, run, tumble.

Rules: SC-17..SC-24 (and SC-27 (a) where a move provokes). Every refusal is checked to change nothing.
"""

from __future__ import annotations

from typing import Any

from affray.core.events import Defeated
from affray.core.fields import square
from affray.core.match import Match

from .support import act, build, fighter, kinds, refused, state_of, who, window

OPEN = """
..........
..........
..........
..........
..........
"""


def _duel(
    a_pos: tuple[int, int] = (0, 2),
    b_pos: tuple[int, int] = (9, 4),
    map_text: str = OPEN,
    options: dict[str, object] | None = None,
    **a_fields: object,
) -> Match:
    return build(
        map_text, {"left": [fighter("a", a_pos, **a_fields)], "right": [fighter("b", b_pos)]}, options, dice=[20, 1]
    )


def test_sc17_a_move_action_covers_the_speed_and_no_more() -> None:
    """SC-17: 30 ft is 6 squares per move action; 7 squares is refused as too far, changing nothing."""
    match = _duel()
    assert window(match) == ("turn", ("a",))
    result = act(match, "a", {"type": "move", "to": [6, 2]})
    assert "moved" in kinds(result) and who(match, "a").pos == (6, 2)
    match = _duel()
    assert refused(match, "a", {"type": "move", "to": [7, 2]}).code == "too_far"


def test_sc23_a_diagonal_counts_as_one_square() -> None:
    """SC-23: six diagonal squares cost six."""
    match = _duel(a_pos=(0, 0), b_pos=(9, 0), map_text="\n".join(["." * 10] * 8))
    act(match, "a", {"type": "move", "to": [6, 6]})
    assert who(match, "a").pos == (6, 6)


def test_sc22_sc15_the_standard_action_buys_a_second_move() -> None:
    """SC-15/SC-22: move + move doubles the distance; then nothing is left for an attack or a third move."""
    match = _duel(a_pos=(0, 0), b_pos=(9, 4), map_text="\n".join(["." * 14] * 5))
    act(match, "a", {"type": "move", "to": [6, 0]})
    act(match, "a", {"type": "move", "to": [12, 0]})
    assert who(match, "a").pos == (12, 0)
    assert window(match) == ("turn", ("b",))  # both actions spent: the turn ended by itself


def test_sc20_difficult_terrain_costs_two_or_three_squares() -> None:
    """SC-20: '~' halves speed (2 per square), '^' thirds it (3 per square)."""
    mud = "#########\n#~~~~~~~#\n#########\n#.......#\n#########"
    match = _duel(a_pos=(1, 1), b_pos=(7, 3), map_text=mud)
    assert refused(match, "a", {"type": "move", "to": [5, 1]}).code == "too_far"
    act(match, "a", {"type": "move", "to": [4, 1]})
    rubble = "#########\n#.^^^^^.#\n#########\n#.......#\n#########"
    match = _duel(a_pos=(1, 1), b_pos=(7, 3), map_text=rubble)
    assert refused(match, "a", {"type": "move", "to": [4, 1]}).code == "too_far"
    act(match, "a", {"type": "move", "to": [3, 1]})


def test_sc20_a_five_feet_per_move_action_square_takes_the_whole_move() -> None:
    """SC-20 "5 ft per move action" ('%', ruling SC-R14): entering it takes a whole move action, so only a move's
    first square may be one, and the move ends there; a 5-foot step never enters it (ruling SC-R11)."""
    bog = "#########\n#..%....#\n#########\n#.......#\n#########"
    match = _duel(a_pos=(1, 1), b_pos=(7, 3), map_text=bog)
    assert refused(match, "a", {"type": "move", "to": [3, 1]}).code == "too_far"  # a square spent first
    match = _duel(a_pos=(2, 1), b_pos=(7, 3), map_text=bog)
    listed = {square(s.action, "to") for s in match.legal("a") if s.action["type"] == "move"}
    assert (3, 1) in listed and (4, 1) not in listed
    assert refused(match, "a", {"type": "move", "to": [4, 1]}).code == "too_far"
    assert refused(match, "a", {"type": "step", "to": [3, 1]}).code == "difficult_terrain"
    act(match, "a", {"type": "move", "to": [3, 1]})
    act(match, "a", {"type": "move", "to": [7, 1]})  # the second move (SC-22) leaves it at full speed
    assert who(match, "a").pos == (7, 1)
    match = _duel(a_pos=(2, 1), b_pos=(7, 3), map_text=bog)
    act(match, "a", {"type": "withdraw", "to": [3, 1]})  # a withdraw is a move action too (SC-19)


def test_sc24_allies_may_be_passed_opponents_may_not() -> None:
    """SC-24: through an ally's square, never through an opponent's; a wall blocks a given path."""
    corridor = "##########\n#........#\n##########"
    match = build(
        corridor,
        {"left": [fighter("a", (1, 1)), fighter("ally", (2, 1))], "right": [fighter("b", (5, 1))]},
        dice=[20, 10, 1],
    )
    assert refused(match, "a", {"type": "move", "to": [2, 1]}).code == "occupied"
    assert refused(match, "a", {"type": "move", "to": [6, 1]}).code == "blocked_by_opponent"
    assert (
        refused(match, "a", {"type": "move", "to": [6, 1], "path": [[2, 1], [3, 1], [4, 1], [5, 1], [6, 1]]}).code
        == "blocked_by_opponent"
    )
    act(match, "a", {"type": "move", "to": [4, 1]})
    assert who(match, "a").pos == (4, 1)


def test_sc24_helpless_opponents_may_be_passed_and_stood_on() -> None:
    """SC-24: a helpless opponent's square may be crossed, and a move may end there."""
    corridor = "##########\n#........#\n##########"
    match = build(
        corridor,
        {"left": [fighter("a", (1, 1))], "right": [fighter("b", (3, 1), hp=0), fighter("c", (8, 1))]},
        dice=[20, 10, 1],
    )
    act(match, "a", {"type": "move", "to": [5, 1]})
    assert who(match, "a").pos == (5, 1)
    match = build(
        corridor,
        {"left": [fighter("a", (1, 1))], "right": [fighter("b", (3, 1), hp=0), fighter("c", (8, 1))]},
        dice=[20, 10, 1],
    )
    act(match, "a", {"type": "move", "to": [3, 1]})
    assert who(match, "a").pos == who(match, "b").pos == (3, 1)


def test_a_move_through_a_wall_is_refused() -> None:
    """Bad input: a path through a wall, or a square walled in, is refused and changes nothing."""
    walled = "..#..\n..#..\n..#..\n#####\n....."
    match = _duel(a_pos=(1, 1), b_pos=(4, 4), map_text=walled)
    result = refused(match, "a", {"type": "move", "to": [3, 1], "path": [[2, 1], [3, 1]]})
    assert result.code == "blocked_by_wall" and "wall" in result.message
    assert refused(match, "a", {"type": "move", "to": [4, 1]}).code == "blocked_by_wall"
    assert refused(match, "a", {"type": "move", "to": [2, 2]}).code == "blocked_by_wall"
    assert refused(match, "a", {"type": "move", "to": [1, 1]}).code == "no_movement"
    assert refused(match, "a", {"type": "move", "to": "north"}).code == "bad_action"
    assert refused(match, "a", {"type": "move", "to": [1, 0], "path": [[0, 2], [1, 0]]}).code == "bad_path"
    assert refused(match, "b", {"type": "move", "to": [3, 4]}).code == "not_your_turn"


def test_sc19_withdraw_moves_a_third_of_speed_and_never_provokes() -> None:
    """SC-19: 30 ft withdraws 10 ft (2 squares) and provokes nobody; farther is refused."""
    match = _duel(a_pos=(4, 2), b_pos=(5, 2))
    assert refused(match, "a", {"type": "withdraw", "to": [1, 2]}).code == "too_far"
    result = act(match, "a", {"type": "withdraw", "to": [2, 2]})
    assert "provoked" not in kinds(result) and window(match) == ("turn", ("a",))
    match = _duel(a_pos=(4, 2), b_pos=(5, 2), speed_ft=60)
    act(match, "a", {"type": "withdraw", "to": [0, 2]})  # 60 ft → 20 ft, four squares


def test_sc21_a_five_foot_step_never_provokes() -> None:
    """SC-21: stepping out of a melee foe's reach offers it no attack of opportunity."""
    match = _duel(a_pos=(4, 2), b_pos=(5, 2))
    result = act(match, "a", {"type": "step", "to": [3, 2]})
    assert "provoked" not in kinds(result) and who(match, "a").pos == (3, 2)
    assert window(match) == ("turn", ("a",))
    assert refused(match, "a", {"type": "move", "to": [0, 2]}).code == "already_stepped"
    assert refused(match, "a", {"type": "step", "to": [2, 2]}).code == "no_five_foot_step"


def test_sc21_a_five_foot_step_and_a_one_square_move_read_in_words() -> None:
    """SC-17, SC-21: the step reads as a 5-foot step; a move counts its squares, "1 square" (it read "(1 squares)")
    and "2 squares"."""
    match = _duel(a_pos=(4, 2), b_pos=(9, 2))
    step = next(e for e in act(match, "a", {"type": "step", "to": [3, 2]}).events if e.kind == "moved")
    assert step.describe({"a": "A"}) == "A takes a 5-foot step to (3, 2)."
    near = _duel(a_pos=(4, 2), b_pos=(9, 2))
    one = next(e for e in act(near, "a", {"type": "move", "to": [5, 2]}).events if e.kind == "moved")
    assert one.describe({"a": "A"}) == "A moves 1 square to (5, 2)."
    far = _duel(a_pos=(4, 2), b_pos=(9, 2))
    move = next(e for e in act(far, "a", {"type": "move", "to": [2, 2]}).events if e.kind == "moved")
    assert move.describe({"a": "A"}) == "A moves 2 squares to (2, 2)."


def test_sc21_no_step_after_moving_into_difficult_terrain_or_two_squares() -> None:
    """SC-21: not after a move; one square only; not into difficult terrain (ruling SC-R11); not occupied."""
    match = _duel(a_pos=(4, 2), b_pos=(9, 2), map_text="..........\n...~......\n..........")
    assert refused(match, "a", {"type": "step", "to": [3, 1]}).code == "difficult_terrain"
    assert refused(match, "a", {"type": "step", "to": [6, 2]}).code == "too_far"
    act(match, "a", {"type": "move", "to": [5, 2]})
    assert refused(match, "a", {"type": "step", "to": [6, 2]}).code == "no_five_foot_step"


def test_sc21_seed_step_spends_the_move_action_and_allows_a_full_attack() -> None:
    """SC-21 (seed): a step claims the unused move action; a full-round attack may still follow it."""
    match = _duel(a_pos=(4, 2), b_pos=(6, 2), base_attack=6)
    act(match, "a", {"type": "step", "to": [5, 2]})
    turn = state_of(match).turn
    assert turn is not None and not turn.move_left
    result = act(match, "a", {"type": "full_attack", "target": "b"}, 2, 2)
    assert kinds(result).count("attacked") == 2


def test_sc21_srd_step_keeps_the_move_action_for_other_things() -> None:
    """SC-21 (option 'srd'): the step uses nothing, but no other movement follows it."""
    match = _duel(a_pos=(4, 2), b_pos=(6, 2), options={"five_foot_step": "srd"}, weapons=["longsword", "hand_crossbow"])
    act(match, "a", {"type": "step", "to": [3, 2]})
    turn = state_of(match).turn
    assert turn is not None and turn.move_left
    act(match, "a", {"type": "draw", "weapon": "hand_crossbow"})
    assert who(match, "a").wielding == "hand_crossbow"


def test_sc18_running_adds_run_check_over_five_squares() -> None:
    """SC-18: a run covers 2 moves + ⌊Run/5⌋ squares on a straight path; a short roll stops short."""
    corridor = "#" * 22 + "\n#" + "." * 20 + "#\n" + "#" * 22
    match = _duel(a_pos=(1, 1), b_pos=(20, 1), map_text=corridor)
    assert refused(match, "a", {"type": "run", "to": [18, 1]}).code == "too_far"  # 17 > 12 + ⌊20/5⌋
    act(match, "a", {"type": "run", "to": [15, 1]}, 14)  # 14 squares: 12 + ⌊14/5⌋ = 14
    assert who(match, "a").pos == (15, 1)
    match = _duel(a_pos=(1, 1), b_pos=(20, 1), map_text=corridor)
    act(match, "a", {"type": "run", "to": [15, 1]}, 4)  # 12 + 0: stops after 12 squares
    assert who(match, "a").pos == (13, 1)


def test_sc18_a_run_needs_a_fairly_straight_path_and_the_whole_turn() -> None:
    """SC-18, ruling SC-R2: only the straight and the diagonal step toward the goal; not after a move."""
    match = _duel(a_pos=(0, 0), b_pos=(9, 4))
    bent = [[1, 1], [2, 0], [3, 0]]
    assert refused(match, "a", {"type": "run", "to": [3, 0], "path": bent}).code == "bad_path"
    act(match, "a", {"type": "move", "to": [1, 0]})
    assert refused(match, "a", {"type": "run", "to": [8, 0]}).code == "needs_full_round"
    match = _duel(a_pos=(0, 0), b_pos=(9, 4), options={"running": False})
    assert refused(match, "a", {"type": "run", "to": [8, 0]}).code == "not_allowed"


def _tumbler(foe: dict[str, Any]) -> Match:
    corridor = "##########\n#........#\n##########"
    return build(
        corridor, {"left": [fighter("a", (1, 1), speed_ft=60, skills={"tumble": 10})], "right": [foe]}, dice=[20, 1]
    )


def test_sc24_a_trained_character_tumbles_through_an_opponent() -> None:
    """SC-24, ruling SC-R1: Acrobatics and Tumbling DC 25 passes an opponent; tumbling costs double."""
    match = _tumbler(fighter("b", (3, 1), weapons=["hand_crossbow"]))
    assert refused(match, "a", {"type": "move", "to": [5, 1]}).code == "blocked_by_opponent"
    act(match, "a", {"type": "move", "to": [5, 1], "tumble": True}, 15)
    assert who(match, "a").pos == (5, 1)


def test_sc24_a_failed_tumble_stops_before_the_opponent() -> None:
    """SC-24: on a failed check the move stops on the last legal square before the opponent."""
    match = _tumbler(fighter("b", (3, 1), weapons=["hand_crossbow"]))
    act(match, "a", {"type": "move", "to": [5, 1], "tumble": True}, 14)
    assert who(match, "a").pos == (2, 1)


def test_sc24_nobody_tumbles_past_a_creature_that_fills_its_square() -> None:
    """SC-24: creatures that completely fill their squares cannot be tumbled past; untrained cannot tumble."""
    match = _tumbler(fighter("b", (3, 1), fills_square=True, weapons=["hand_crossbow"]))
    assert refused(match, "a", {"type": "move", "to": [5, 1], "tumble": True}).code == "blocked_by_opponent"
    corridor = "##########\n#........#\n##########"
    plain = build(corridor, {"left": [fighter("a", (1, 1))], "right": [fighter("b", (3, 1))]}, dice=[20, 1])
    assert refused(plain, "a", {"type": "move", "to": [5, 1], "tumble": True}).code == "untrained"


def test_sc24_a_move_stopped_on_an_illegal_square_goes_back_to_the_last_legal_one() -> None:
    """SC-24: dropped by an attack of opportunity on an ally's square, the mover ends on the square before."""
    match = build(
        OPEN,
        {"left": [fighter("a", (0, 0), hp=1), fighter("ally", (2, 0))], "right": [fighter("b", (3, 1))]},
        dice=[20, 10, 1],
    )
    act(match, "a", {"type": "move", "to": [3, 0], "path": [[1, 0], [2, 0], [3, 0]]})
    assert window(match) == ("attack_of_opportunity", ("b",))
    result = act(match, "b", {"type": "attack_of_opportunity"}, 20, 5)
    assert who(match, "a").hp == -4 and who(match, "a").pos == (1, 0)
    moved = [e for e in result.events if e.kind == "moved"]
    assert moved and moved[-1].to_dict()["how"] == "settle"
    assert any(isinstance(e, Defeated) for e in result.events)
    assert window(match) == ("turn", ("ally",))


def _ends(match: Match, actor: str, kind: str) -> set[tuple[int, int]]:
    """The end squares the legal list offers ``actor`` for moves of ``kind``."""
    return {square(s.action, "to") for s in match.legal(actor) if s.action["type"] == kind}


def test_sc_b10_a_withdraw_always_reaches_one_adjacent_square_whatever_the_ground() -> None:
    """SC-19 "minimum 5 feet", SC-20, ruling SC-B10: at speed 30 a withdraw has 10 ft (2 squares), and the '^'
    square beside the fighter costs 3; at speed 25 it has 5 ft (1 square) and a '~' square costs 2. Both are
    reached all the same (they used to be refused as too far, while a '%' square was reached), and the withdraw
    ends there, provoking nobody, with the standard action left. Beyond the first square terrain counts as usual:
    '^' then '.' costs 2 + 1 > 2. Option ``withdraw_minimum_square`` off: refused as before."""
    rubble = "..........\n..........\n...^......\n..........\n.........."
    match = _duel(a_pos=(4, 2), b_pos=(5, 2), map_text=rubble)
    assert (3, 2) in _ends(match, "a", "withdraw")
    assert refused(match, "a", {"type": "withdraw", "to": [2, 2], "path": [[3, 2], [2, 2]]}).code == "too_far"
    result = act(match, "a", {"type": "withdraw", "to": [3, 2]})
    assert who(match, "a").pos == (3, 2) and "provoked" not in kinds(result)
    assert window(match) == ("turn", ("a",)) and state_of(match).turn.standard_left  # type: ignore[union-attr]
    mud = rubble.replace("^", "~")
    match = _duel(a_pos=(4, 2), b_pos=(5, 2), map_text=mud, speed_ft=25)
    assert (3, 2) in _ends(match, "a", "withdraw") and (2, 2) not in _ends(match, "a", "withdraw")
    act(match, "a", {"type": "withdraw", "to": [3, 2], "path": [[3, 2]]})
    assert who(match, "a").pos == (3, 2)
    match = _duel(a_pos=(4, 2), b_pos=(5, 2), map_text=rubble, options={"withdraw_minimum_square": False})
    assert (3, 2) not in _ends(match, "a", "withdraw")
    assert refused(match, "a", {"type": "withdraw", "to": [3, 2]}).code == "too_far"


def _surrender(on: str, options: dict[str, object] | None = None) -> Match:
    """A corridor: ``a`` at [1, 1] (speed 30: 6 squares); ``n``, an NPC of side ``on`` at [3, 1], acts first and
    gives up (SC-02); the foe ``c`` at [8, 1] keeps the fight going."""
    corridor = "##########\n#........#\n##########"
    left, right = [fighter("a", (1, 1))], [fighter("c", (8, 1))]
    (left if on == "left" else right).insert(1, fighter("n", (3, 1), kind="npc"))
    match = build(corridor, {"left": left, "right": right}, options, dice=[10, 20, 1] if on == "left" else [10, 1, 20])
    act(match, "n", {"type": "give_up"})
    assert who(match, "n").status == "surrendered" and window(match) == ("turn", ("a",))
    return match


def test_sc_b12_a_surrendered_foe_is_not_helpless_nobody_passes_or_stands_on_it() -> None:
    """SC-24, ruling SC-B12: N gave up but stands conscious in its square, so it is not helpless: a move through
    it or onto it is refused and not offered (both used to be accepted, as for the helpless), by the engine's path
    or a given one; the squares short of it remain. Option ``surrendered_in_the_way`` off: passed as before."""
    match = _surrender("right")
    assert _ends(match, "a", "move") == {(2, 1)} and _ends(match, "a", "withdraw") == {(2, 1)}
    assert refused(match, "a", {"type": "move", "to": [5, 1]}).code == "blocked_by_opponent"
    assert (
        refused(match, "a", {"type": "move", "to": [5, 1], "path": [[2, 1], [3, 1], [4, 1], [5, 1]]}).code
        == "blocked_by_opponent"
    )
    assert refused(match, "a", {"type": "move", "to": [3, 1]}).code == "occupied"
    act(match, "a", {"type": "move", "to": [2, 1]})
    assert who(match, "a").pos == (2, 1)
    match = _surrender("right", {"surrendered_in_the_way": False})
    assert _ends(match, "a", "move") == {(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)}
    act(match, "a", {"type": "move", "to": [5, 1]})
    assert who(match, "a").pos == (5, 1)


def test_sc_b12_a_surrendered_ally_is_passed_as_an_ally_but_not_stood_on() -> None:
    """SC-24, ruling SC-B12: a surrendered ally stands in its square like any ally: A may pass through it (to
    [5, 1], three squares beyond), but no move ends on it (it used to be a square to stop on)."""
    match = _surrender("left")
    assert (3, 1) not in _ends(match, "a", "move") and (5, 1) in _ends(match, "a", "move")
    assert refused(match, "a", {"type": "move", "to": [3, 1]}).code == "occupied"
    act(match, "a", {"type": "move", "to": [5, 1]})
    assert who(match, "a").pos == (5, 1)
