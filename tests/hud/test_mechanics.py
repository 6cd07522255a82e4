"""Sim HuD mechanics as pure functions, with exact distributions. Rules: WL-01..WL-22 (numbers)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from affray.rulesets.hud.content_model import Armour
from affray.rulesets.hud.mechanics import (
    CHANCE_DIE,
    HUD_DIE,
    draw_cost,
    exchange,
    hp_loss,
    initiative_order,
    pursuit_roll,
    pursuit_step,
    simplified_hit,
    tied_groups,
)

FACES = range(1, HUD_DIE + 1)


def probability(predicate: object) -> Fraction:
    hits = sum(1 for a, d in itertools.product(FACES, FACES) if predicate(a, d))  # type: ignore[operator, misc]
    return Fraction(hits, HUD_DIE * HUD_DIE)


def test_wl01_dice_are_d11_chance_and_d13_hud() -> None:
    """WL-01 / WL-B1: Chance is a d11; Attack, Defense, Damage and Injury are d13."""
    assert (CHANCE_DIE, HUD_DIE) == (11, 13)


def test_wl11_attack_beats_defense_ties_to_defender_exactly() -> None:
    """WL-11: P(d13 attack > d13 defense) = 78/169; a tie is a miss."""
    assert probability(lambda a, d: exchange(a, d).hit) == Fraction(78, 169)
    assert not exchange(7, 7).hit and exchange(8, 7).hit and exchange(8, 7).margin == 1


def test_wl12_wl_b3_riposte_needs_defense_six_over_attack() -> None:
    """WL-12 / WL-B3: a riposte needs Defense - Attack >= 6: P = 28/169 on plain d13s."""
    assert exchange(3, 9).riposte and not exchange(3, 8).riposte
    assert probability(lambda a, d: exchange(a, d).riposte) == Fraction(28, 169)
    assert probability(lambda a, d: exchange(a, d, riposte_margin=5).riposte) == Fraction(36, 169)


def test_wl13_hp_loss_is_damage_minus_injury_never_negative() -> None:
    """WL-13: HP lost = max(0, Damage - Injury); its d13-vs-d13 distribution is (13-k)/169 for k >= 1."""
    assert (hp_loss(9, 5), hp_loss(5, 9), hp_loss(6, 6)) == (4, 0, 0)
    for k in range(1, 13):
        assert probability(lambda d, i, k=k: hp_loss(d, i) == k) == Fraction(13 - k, 169)
    assert probability(lambda d, i: hp_loss(d, i) == 0) == Fraction(91, 169)
    mean = sum(Fraction(hp_loss(d, i)) for d, i in itertools.product(FACES, FACES)) / 169
    assert mean == Fraction(364, 169)


def test_wl06_simplified_hit_goes_to_the_higher_roll_tie_to_defender() -> None:
    """WL-06: the defender loses 1 HP when the attacker's roll is higher; a tie goes to the defender."""
    assert simplified_hit(9, 8) and not simplified_hit(8, 8) and not simplified_hit(2, 8)
    assert probability(simplified_hit) == Fraction(78, 169)


def test_wl22_pursuit_roll_and_gap() -> None:
    """WL-22: Chance + the better of Agility/Strength - armour penalty; the gap moves by the difference;
    WL-B9: caught at 2 m or less, escaped beyond 15 m."""
    assert pursuit_roll(7, 3, 1, 1) == 9
    assert pursuit_roll(7, 1, 4, 2, penalty=-2) == 7
    assert pursuit_step(0, 10, 7) == (3, "running")
    assert pursuit_step(3, 2, 3) == (2, "caught")
    assert pursuit_step(10, 9, 4) == (15, "running")
    assert pursuit_step(10, 10, 4) == (16, "escaped")
    assert pursuit_step(0, 5, 5) == (0, "caught")


def test_wl03_armour_attack_penalty_by_class() -> None:
    """WL-03: armour attack penalty 0 / 1 / 2 for light / medium / heavy."""
    penalties = [Armour(name="x", weight=w).penalty for w in ("light", "medium", "heavy")]
    assert penalties == [0, 1, 2]
    assert Armour(name="x", weight="heavy", attack_penalty=3).penalty == 3


def test_wl20_draw_costs() -> None:
    """WL-20: free for one-handed from a sheath or anything in hand; one action for a two-handed weapon in a
    sheath, anything on the back (trained witchers exempt), a bow or crossbow not in hand, an unready shield."""
    assert draw_cost(1, "melee", "sheath", "stowed", False) == 0
    assert draw_cost(2, "melee", "sheath", "hand", False) == 0
    assert draw_cost(2, "melee", "sheath", "stowed", False) == 1
    assert draw_cost(1, "melee", "back", "stowed", False) == 1
    assert draw_cost(1, "melee", "back", "stowed", True) == 0
    assert draw_cost(2, "ranged", "back", "stowed", True) == 1
    assert draw_cost(1, "shield", "back", "stowed", False) == 1
    assert draw_cost(1, "shield", "arm", "hand", False) == 0


def test_wl09_wl_b8_order_and_ties() -> None:
    """WL-09: highest Chance acts first; WL-B8: tied rolls form groups that re-roll."""
    assert initiative_order({"a": 3, "b": 9, "c": 5}) == ["b", "c", "a"]
    assert tied_groups({"a": 4, "b": 4, "c": 1, "d": 1, "e": 7}) == [["a", "b"], ["c", "d"]]
