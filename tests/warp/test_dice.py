"""Trait dice, bonus and penalty dice, the Experience Pool. Rules: WR-01..WR-04, WR-B2, WR-B12, WR-B13.

Exact odds enumerate every face through the same mechanic functions live play uses (DESIGN.md,
contract 3); one statistical test checks that live rolls agree with the enumeration.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest

from affray.core.rng import FastRNG, ScriptedRNG
from affray.rulesets.warp.mechanics import (
    hit,
    keep_flags,
    net_dice,
    pool_size,
    pool_total,
    pool_total_uncancelled,
)
from affray.rulesets.warp.rolls import throw, warp_pool
from tests.warp.helpers import attack, brawler, fighter, ok, rejected, rolls, state, thug, warp_match, who

FACES = range(1, 7)


def exact(dice: int, net: int) -> dict[int, Fraction]:
    """The exact distribution of a WaRP roll, by enumerating every face through ``pool_total``."""
    n = pool_size(dice, net)
    out: dict[int, Fraction] = {}
    for faces in itertools.product(FACES, repeat=n):
        total = pool_total(faces, dice, net)
        out[total] = out.get(total, Fraction(0)) + Fraction(1, 6**n)
    return out


def test_wr01_a_trait_roll_sums_its_d6() -> None:
    """WR-01: three dice showing 3, 4, 5 total 12; the pool's range is dice..6 x dice."""
    assert pool_total([3, 4, 5], 3) == 12
    dist = exact(3, 0)
    assert (min(dist), max(dist)) == (3, 18) and sum(dist.values()) == 1


def test_wr02_bonus_die_drops_lowest_penalty_die_drops_highest() -> None:
    """WR-02: 2 dice + a bonus die on 1, 5, 6 keep 5 + 6 = 11; with a penalty die keep 1 + 5 = 6."""
    assert pool_total([1, 5, 6], 2, +1) == 11
    assert pool_total([1, 5, 6], 2, -1) == 6
    assert pool_total([6, 1, 2, 6, 3], 3, +2) == 15  # keep the three highest of five
    assert keep_flags([4, 4, 1], 1, 0) == [True, True, False]


def test_p_3d6_beats_2d6_is_1009_over_1296_exactly() -> None:
    """WR-01, WR-10: P(3d6 > 2d6) = 1009/1296, through ``pool_total`` and ``hit``."""
    wins = sum(
        1
        for a in itertools.product(FACES, repeat=3)
        for d in itertools.product(FACES, repeat=2)
        if hit(pool_total(a, 3), pool_total(d, 2))
    )
    assert Fraction(wins, 6**5) == Fraction(1009, 1296)


def test_mean_of_4d6_keep_highest_3_is_15869_over_1296() -> None:
    """WR-02, WR-B13: 3 dice + a bonus die = 4d6 keep the highest 3, mean 15869/1296."""
    dist = exact(3, +1)
    assert sum(v * p for v, p in dist.items()) == Fraction(15869, 1296)


@pytest.mark.parametrize(("dice", "net"), [(3, +1), (2, -2), (4, 0), (3, -1), (1, +2)])
def test_wr02_pools_agree_with_icepool(dice: int, net: int) -> None:
    """WR-02: our enumeration equals icepool's keep-highest/keep-lowest pools exactly."""
    pool = icepool.d6.pool(dice + abs(net))
    kept = pool.highest(dice) if net > 0 else (pool.lowest(dice) if net < 0 else pool)
    reference = kept.sum()
    ours = exact(dice, net)
    assert {int(k): Fraction(reference.quantity(k), reference.denominator()) for k in reference.outcomes()} == ours


def test_wr_b2_bonus_and_penalty_dice_cancel_one_for_one() -> None:
    """WR-B2: 2 bonus and 1 penalty die net one bonus die: 3 dice throw 4 and keep the highest 3."""
    assert net_dice(2, 1) == 1
    m = warp_match([brawler("a")], [thug("b")], [])
    rng = ScriptedRNG([1, 2, 6, 6])
    r = throw(state(m), rng, 3, 2, 1)
    assert (rng.index, r.total, r.notation) == (4, 14, "3d6+1b")
    with pytest.raises(ValueError):
        net_dice(-1, 0)


def test_wr_b2_uncancelled_dice_option() -> None:
    """WR-B2 option off: throw 2 + 1 + 1 dice, drop the lowest then the highest: 1,2,6,6 -> 2 + 6 = 8."""
    assert pool_total_uncancelled([1, 2, 6, 6], 2, 1, 1) == 8
    m = warp_match([brawler("a")], [thug("b")], [], {"cancel_bonus_penalty": False})
    r = throw(state(m), ScriptedRNG([1, 2, 6, 6]), 2, 1, 1)
    assert r.total == 8 and [d.kept for d in r.dice] == [False, True, True, False]


def test_wr_b13_a_bonus_die_is_not_a_full_die() -> None:
    """WR-B13: "2 dice + a bonus die" on 1, 5, 6 is 11 (keep 2), not 12; the 'full_die' misreading sums 12."""
    m = warp_match([brawler("a")], [thug("b")], [])
    assert throw(state(m), ScriptedRNG([1, 5, 6]), 2, 1, 0).total == 11
    misread = warp_match([brawler("a")], [thug("b")], [], {"bonus_die_reading": "full_die"})
    assert throw(state(misread), ScriptedRNG([1, 5, 6]), 2, 1, 0).total == 12


def test_wr_b12_botch_and_blowing_the_top_off_are_off_by_default() -> None:
    """WR-B12: off, 1-1-1 totals 3 and 6-6 totals 12; on, a botch counts 0 and 6-6 explodes (6 + 2 more)."""
    plain = warp_match([brawler("a")], [thug("b")], [])
    assert throw(state(plain), ScriptedRNG([1, 1, 1]), 3, 0, 0).total == 3
    assert throw(state(plain), ScriptedRNG([6, 6]), 2, 0, 0).total == 12
    optional = warp_match([brawler("a")], [thug("b")], [], {"botch": True, "blow_the_top_off": True})
    assert throw(state(optional), ScriptedRNG([1, 1, 1]), 3, 0, 0).total == 0
    assert throw(state(optional), ScriptedRNG([6, 6, 6, 2]), 2, 0, 0).total == 20
    # a 6 dropped by a penalty die does not count: 6, 1, 6 keeps 6 and 1, so nothing explodes
    assert throw(state(optional), ScriptedRNG([6, 1, 6]), 2, 0, 1).total == 7


def test_live_pool_rolls_agree_with_the_exact_distribution() -> None:
    """WR-02: 20 000 live rolls of 3 dice + a bonus die: the mean is within 5 standard errors of
    15869/1296 (a stated statistical tolerance; the exact value is enumerated above)."""
    m = warp_match([brawler("a")], [thug("b")], [])
    rng = FastRNG(2024)
    n = 20_000
    values = [throw(state(m), rng, 3, 1, 0).total for _ in range(n)]
    dist = exact(3, +1)
    mean = sum(v * p for v, p in dist.items())
    var = sum((v - mean) ** 2 * p for v, p in dist.items())
    tolerance = 5 * (float(var) / n) ** 0.5
    assert abs(sum(values) / n - float(mean)) < tolerance


def test_warp_pool_agrees_with_pool_total() -> None:
    """WR-01, WR-02: warp_pool and the pure pool_total give the same totals on the same faces."""
    rng = FastRNG(9)
    for dice, bonus, penalty in [(3, 1, 0), (2, 0, 2), (4, 1, 1), (3, 0, 0)]:
        for _ in range(200):
            r = warp_pool(rng, dice, bonus, penalty)
            assert pool_total([d.value for d in r.dice], dice, bonus - penalty) == r.total


def test_wr03_no_suitable_trait_rolls_two_dice() -> None:
    """WR-03: a character with no melee trait attacks with 2 dice (faces 4, 4 total 8)."""
    m = warp_match([fighter("a", traits={"watchful": 3})], [thug("b")], [4, 4, 1, 1, 1])
    events = ok(m.act("a", attack("b")))
    roll = rolls(events, "melee attack")[0]
    assert (roll.roll.notation, roll.roll.total) == ("2d6", 8)


def test_wr04_experience_pool_dice_are_bonus_dice_and_run_out() -> None:
    """WR-04: spending 2 of 3 Experience Pool dice adds 2 bonus dice (3d6 keep 3 of 5) and leaves 1."""
    m = warp_match([brawler("a", experience=3)], [thug("b")], [1, 1, 6, 6, 6, 1, 1, 1, 1])
    events = ok(m.act("a", attack("b", experience=2)))
    roll = rolls(events, "melee attack")[0]
    assert (roll.roll.notation, roll.roll.total, roll.bonus) == ("3d6+2b", 18, ["experience", "experience"])
    assert who(m, "a").experience == 1


def test_wr04_cannot_spend_more_experience_than_left() -> None:
    """WR-04: with 1 die left in the pool, spending 2 is refused and nothing changes."""
    m = warp_match([brawler("a", experience=1)], [thug("b")], [])
    assert rejected(m, "a", attack("b", experience=2)).code == "not_enough_experience"


def test_wr02_warp_pool_bonus_die_drops_lowest_penalty_die_drops_highest() -> None:
    """WR-02: a bonus die rolls one extra and drops the lowest; a penalty die drops the highest."""
    assert warp_pool(ScriptedRNG([1, 6, 3, 4]), 3, bonus=1).total == 13
    assert warp_pool(ScriptedRNG([1, 6, 3, 4]), 3, penalty=1).total == 8


def test_wr_b2_warp_pool_bonus_and_penalty_cancel_one_for_one() -> None:
    """WR-B2: 2 bonus and 1 penalty is one net bonus die: 4 dice rolled, 3 kept."""
    roll = warp_pool(ScriptedRNG([2, 5, 1, 6]), 3, bonus=2, penalty=1)
    assert len(roll.dice) == 4 and roll.total == 13 and roll.notation == "3d6+1b"
    even = warp_pool(ScriptedRNG([2, 5, 1]), 3, bonus=1, penalty=1)
    assert len(even.dice) == 3 and even.total == 8 and even.notation == "3d6"


def test_wr_b13_warp_pool_bonus_die_is_not_a_full_die() -> None:
    """WR-B13: '2 dice + bonus die' rolls 3 and keeps the 2 highest, never sums 3."""
    assert warp_pool(ScriptedRNG([6, 6, 6]), 2, bonus=1).total == 12


def test_warp_pool_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        warp_pool(ScriptedRNG([]), -1)
