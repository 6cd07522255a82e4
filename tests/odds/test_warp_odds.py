"""Exact WaRP odds against the rules' numbers and the live mechanics, by enumerating every ordered throw.
Rules: WR-01, WR-02, WR-08..WR-12, WR-19, WR-22, WR-30, WR-33, WR-B2, WR-B4, WR-B12, WR-B13."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from affray.core.rng import ScriptedRNG
from affray.odds.dist import pool_sum
from affray.rulesets.warp.mechanics import armour_absorb, damage, hit, pool_total
from affray.rulesets.warp.odds import Armour, attack_odds, exchange_dist, faces_dist, roll_dist
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.rolls import throw
from affray.rulesets.warp.state import WarpState


def test_wr10_three_dice_beat_two_1009_of_1296() -> None:
    """WR-10: a hit needs attack > defense; P(3d6 > 2d6) = 1009/1296 (ties miss)."""
    assert attack_odds(3, 2).p_hit == Fraction(1009, 1296)
    assert attack_odds(2, 2).p_hit == Fraction(1 - Fraction(146, 1296), 2)  # P(tie) of 2d6 vs 2d6 = 146/1296


def test_wr02_wr_b13_bonus_die_keeps_the_best_two() -> None:
    """WR-02, WR-B13: '2 dice + a bonus die' throws 3 and keeps the 2 highest (icepool agrees); a penalty die
    keeps the 2 lowest; the misreading sums all three."""
    assert roll_dist(2, 1) == pool_sum(3, 6, keep=2)
    assert roll_dist(2, 0, 1) == pool_sum(3, 6, keep=2, keep_lowest=True)
    assert roll_dist(2, 1, full_die=True) == pool_sum(3)
    assert roll_dist(3, 2, 2) == pool_sum(3)  # WR-B2: they cancel
    assert roll_dist(3, 2, 2, cancel=False) != pool_sum(3)


def _state(**options: object) -> WarpState:
    return WarpState("combat", WarpOptions(**options), {}, {})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dice", "bonus", "penalty", "options"),
    [
        (2, 0, 0, {}),
        (2, 1, 0, {}),
        (3, 0, 2, {}),
        (2, 2, 1, {}),
        (1, 1, 2, {}),
        (2, 1, 1, {"cancel_bonus_penalty": False}),
        (2, 0, 1, {"botch": True}),
        (2, 1, 0, {"bonus_die_reading": "full_die"}),
    ],
)
def test_wr01_wr02_roll_dist_agrees_with_the_engine_throw_on_every_ordered_throw(
    dice: int, bonus: int, penalty: int, options: dict[str, object]
) -> None:
    """Every ordered throw scripted into the engine's own ``rolls.throw`` (the live roll), counted."""
    state = _state(**options)
    counts: dict[int, int] = {}
    full = options.get("bonus_die_reading") == "full_die"
    cancel = options.get("cancel_bonus_penalty", True)
    thrown = dice + (bonus + penalty if not cancel or full else abs(bonus - penalty))
    for faces in itertools.product(range(1, 7), repeat=thrown):
        total = throw(state, ScriptedRNG(list(faces)), dice, bonus, penalty).total
        counts[total] = counts.get(total, 0) + 1
    expected = {k: Fraction(v, 6**thrown) for k, v in counts.items()}
    assert (
        roll_dist(dice, bonus, penalty, cancel=bool(cancel), botch=bool(options.get("botch", False)), full_die=full)
        == expected
    )


def test_wr01_pool_total_by_multisets_equals_ordered_enumeration() -> None:
    for dice, net in [(4, 0), (3, 2), (2, -3)]:
        n = dice + abs(net)
        counts: dict[int, int] = {}
        for faces in itertools.product(range(1, 7), repeat=n):
            t = pool_total(faces, dice, net)
            counts[t] = counts.get(t, 0) + 1
        assert roll_dist(dice, max(net, 0), max(-net, 0)) == {k: Fraction(v, 6**n) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("att", "dfn", "factor", "armour", "gunfire"),
    [
        ((3, 0, 0), (2, 0, 0), 3, Armour(1, 1), False),
        ((2, 1, 0), (2, 0, 1), 2, Armour(0, 2, 1), False),
        ((2, 0, 0), (1, 0, 0), 4, Armour(1, 0, 2), True),
    ],
)
def test_wr11_wr19_wr22_damage_after_armour_by_brute_force(
    att: tuple[int, int, int], dfn: tuple[int, int, int], factor: int, armour: Armour, gunfire: bool
) -> None:
    """Attack total x defense total x armour dice x bullet-proof dice through hit(), damage() and
    armour_absorb(), one combination at a time."""
    totals_a, totals_d = roll_dist(*att), roll_dist(*dfn)
    regular = faces_dist(armour.dice)
    out: dict[int, Fraction] = {}
    for (a, pa), (d, pd), (r, pr) in itertools.product(totals_a.items(), totals_d.items(), regular.items()):
        for bullets in itertools.product(range(1, 7), repeat=armour.bullet_dice):
            p = pa * pd * pr / 6**armour.bullet_dice
            through = armour_absorb(damage(a, d, factor), r, armour.points, bullets, gunfire) if hit(a, d) else 0
            out[through] = out.get(through, Fraction(0)) + p
    p_hit, dist = exchange_dist(att, dfn, factor, armour, gunfire=gunfire)
    assert dist == {k: v for k, v in out.items() if v}
    assert p_hit == sum(
        (pa * pd for (a, pa), (d, pd) in itertools.product(totals_a.items(), totals_d.items()) if hit(a, d)),
        Fraction(0),
    )


def test_wr30_wr33_special_and_alternate_damage() -> None:
    """WR-30: half damage, rounded down; WR-33: factor d6, doubled at attack >= 2 x defense."""
    plain = attack_odds(3, 2, factor=3).damage
    half = attack_odds(3, 2, factor=3, special=True).damage
    assert sum(k * p for k, p in half.items()) < sum(k * p for k, p in plain.items()) / 2 + 1
    assert max(half) == max(plain) // 2
    alt = attack_odds(3, 1, factor=2, alternate=True)
    assert max(alt.damage) == 24  # 2d6 = 12, doubled
    assert attack_odds(3, 2, factor=3, target_hp=10).p_down == sum(
        (p for k, p in plain.items() if k >= 10), Fraction(0)
    )
