"""Dice pools and notation. Rules: X-1, WR-01, WR-02, WR-B2, WR-B13."""

from __future__ import annotations

import itertools
from fractions import Fraction

from affray.core.dice import roll_die, roll_pool
from affray.core.notation import parse, roll_expr, roll_notation
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


def test_wr01_sum_of_d6_pool_exact_mean_of_4d6_keep_3() -> None:
    """WR-01/X-1: mean of 4d6 keep highest 3 is 15869/1296, computed through roll_pool on every outcome."""
    total = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=4):
        total += roll_pool(ScriptedRNG(list(faces)), 4, 6, keep=3).total
    assert total / 6**4 == Fraction(15869, 1296)


def test_notation_rolls_groups_and_bonus_dice() -> None:
    assert roll_notation(ScriptedRNG([3, 4, 2]), "2d6+1d4-1").total == 8
    assert roll_notation(ScriptedRNG([1, 5, 6, 2]), "3d6+1b").total == 13
    assert roll_notation(ScriptedRNG([1, 5, 6, 2]), "3d6+1p").total == 8
    assert roll_expr(ScriptedRNG([6, 1]), parse("1d6-1d6")).total == 5
