"""Dice pools and notation. Rules: X-1, WR-01, WR-02, WR-B2, WR-B13."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from affray.core.dice import roll_die, roll_pool, warp_pool
from affray.core.notation import NotationError, parse, roll_expr, roll_notation
from affray.core.rng import ScriptedRNG


def test_x1_roll_records_natural_dice_modifier_and_draws() -> None:
    """X-1: the event record shows natural values and modifiers separately."""
    rng = ScriptedRNG([5])
    roll = roll_die(rng, 13, 2)
    assert (roll.total, roll.natural, roll.modifier, roll.notation) == (7, 5, 2, "1d13+2")
    assert roll.to_dict()["dice"] == [{"sides": 13, "value": 5, "kept": True, "draw": 0}]


def test_x1_keep_highest_and_lowest() -> None:
    roll = roll_pool(ScriptedRNG([2, 6, 1, 5]), 4, 6, keep=3)
    assert roll.total == 13 and [d.kept for d in roll.dice] == [True, True, False, True]
    low = roll_pool(ScriptedRNG([2, 6, 1, 5]), 4, 6, keep=2, keep_lowest=True)
    assert low.total == 3 and [d.kept for d in low.dice] == [True, False, True, False]


def test_x1_tied_faces_drop_the_later_die() -> None:
    roll = roll_pool(ScriptedRNG([4, 4, 4]), 3, 6, keep=2)
    assert [d.kept for d in roll.dice] == [True, True, False]


def test_wr02_bonus_die_drops_lowest_penalty_die_drops_highest() -> None:
    """WR-02: a bonus die rolls one extra and drops the lowest; a penalty die drops the highest."""
    assert warp_pool(ScriptedRNG([1, 6, 3, 4]), 3, bonus=1).total == 13
    assert warp_pool(ScriptedRNG([1, 6, 3, 4]), 3, penalty=1).total == 8


def test_wr_b2_bonus_and_penalty_cancel_one_for_one() -> None:
    """WR-B2: 2 bonus and 1 penalty is one net bonus die: 4 dice rolled, 3 kept."""
    roll = warp_pool(ScriptedRNG([2, 5, 1, 6]), 3, bonus=2, penalty=1)
    assert len(roll.dice) == 4 and roll.total == 13 and roll.notation == "3d6+1b"
    even = warp_pool(ScriptedRNG([2, 5, 1]), 3, bonus=1, penalty=1)
    assert len(even.dice) == 3 and even.total == 8


def test_wr_b13_bonus_die_is_not_a_full_die() -> None:
    """WR-B13: '2 dice + bonus die' rolls 3 and keeps the 2 highest, never sums 3."""
    assert warp_pool(ScriptedRNG([6, 6, 6]), 2, bonus=1).total == 12


def test_wr01_sum_of_d6_pool_exact_mean_of_4d6_keep_3() -> None:
    """WR-01/X-1: mean of 4d6 keep highest 3 is 15869/1296, computed through roll_pool on every outcome."""
    total = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=4):
        total += roll_pool(ScriptedRNG(list(faces)), 4, 6, keep=3).total
    assert total / 6**4 == Fraction(15869, 1296)


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        warp_pool(ScriptedRNG([]), -1)


@pytest.mark.parametrize(
    ("text", "groups", "modifier", "bonus", "penalty"),
    [("3d6+1b", [(3, 6, None)], 0, 1, 0), ("1d13+2", [(1, 13, None)], 2, 0, 0), ("4d6kh3", [(4, 6, 3)], 0, 0, 0),
     ("d20", [(1, 20, None)], 0, 0, 0), ("2d6 + 1d4 - 1", [(2, 6, None), (1, 4, None)], -1, 0, 0),
     ("2d6+2p", [(2, 6, None)], 0, 0, 2), ("3D6+1B", [(3, 6, None)], 0, 1, 0)],
)
def test_notation_parses(text: str, groups: list[tuple[int, int, int | None]], modifier: int, bonus: int,
                         penalty: int) -> None:
    expr = parse(text)
    assert [(g.count, g.sides, g.keep) for g in expr.groups] == groups
    assert (expr.modifier, expr.bonus, expr.penalty) == (modifier, bonus, penalty)


BAD = ["", "3x6", "d", "2d0", "1d6kh2", "2d6-1b", "2d6+1d4+1b", "3d6+", "1d6 1d6", "4d6kh3+1b"]


@pytest.mark.parametrize("text", BAD)
def test_bad_notation_says_what_was_expected(text: str) -> None:
    with pytest.raises(NotationError, match="expected something like 3d6"):
        parse(text)


def test_notation_rolls_groups_and_bonus_dice() -> None:
    assert roll_notation(ScriptedRNG([3, 4, 2]), "2d6+1d4-1").total == 8
    assert roll_notation(ScriptedRNG([1, 5, 6, 2]), "3d6+1b").total == 13
    assert roll_notation(ScriptedRNG([1, 5, 6, 2]), "3d6+1p").total == 8
    assert roll_expr(ScriptedRNG([6, 1]), parse("1d6-1d6")).total == 5
