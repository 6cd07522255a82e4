"""Exact Spellchrome odds against the rules' numbers and the live mechanics, by enumerating the dice.
Rules: SC-06, SC-07, SC-12, SC-13, SC-B1 (the SRD-standard assumption), SC-B5, SC-B6."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from affray.core.rng import ScriptedRNG
from affray.odds.notation import notation_dist
from affray.rulesets.spellchrome.mechanics import (
    STABILISE_DC,
    apply_damage,
    attack_hits,
    damage_after_reduction,
    save_succeeds,
    stabilise_succeeds,
)
from affray.rulesets.spellchrome.odds import attack_odds, save_odds


def test_sc13_natural_1_always_fails_and_natural_20_always_succeeds() -> None:
    """SC-13: at +30 against DC 10 only the natural 1 fails (19/20); at -30 against DC 25 only the natural 20
    succeeds (1/20)."""
    assert save_odds(30, 10).p_success == Fraction(19, 20)
    assert save_odds(-30, 25).p_success == Fraction(1, 20)
    assert save_odds(30, 10, naturals=False).p_success == 1


def test_sc06_sc_b5_the_dc_22_fortitude_save() -> None:
    """SC-06 with SC-B5: the dying character's Fortitude save at DC 22. At +3 it needs 19 or 20 (1/10); at +2
    only the natural 20 (1/20); at +1 still the natural 20 (SC-13), never 0; at +12 a 10 or better
    (11/20); at +21 all but the natural 1."""
    assert save_odds(3, STABILISE_DC).p_success == Fraction(1, 10)
    assert save_odds(2, STABILISE_DC).p_success == Fraction(1, 20)
    assert save_odds(1, STABILISE_DC).p_success == Fraction(1, 20)
    assert save_odds(12, STABILISE_DC).p_success == Fraction(11, 20)
    assert save_odds(21, STABILISE_DC).p_success == Fraction(19, 20)


@pytest.mark.parametrize(("bonus", "dc"), [(0, 22), (5, 15), (-3, 2), (25, 40)])
def test_sc12_save_odds_against_the_live_save(bonus: int, dc: int) -> None:
    assert save_odds(bonus, dc).p_success == Fraction(sum(save_succeeds(n, bonus, dc) for n in range(1, 21)), 20)
    assert save_odds(bonus, dc).p_success == Fraction(
        sum(stabilise_succeeds(n, bonus, True, dc) for n in range(1, 21)), 20
    )


@pytest.mark.parametrize(
    ("bonus", "defense", "notation", "dr", "mult", "target"),
    [(5, 15, "1d8+2", 1, 1, (8, 3)), (0, 25, "2d4-1", 0, 2, (5, 0)), (12, 10, "1d6+1d4", 3, 3, (12, 6))],
)
def test_sc_b1_attack_odds_against_the_live_mechanics_by_enumeration(
    bonus: int, defense: int, notation: str, dr: int, mult: int, target: tuple[int, int]
) -> None:
    """d20 x every face of every damage die, through attack_hits(), damage_after_reduction() and
    apply_damage(), one by one."""
    sides = [int(s) for count, s in re.findall(r"(\d*)d(\d+)", notation) for _ in range(int(count or 1))]
    flat = sum(int(m) for m in re.findall(r"[+-]\d+(?!d|\d)", notation))
    dealt: dict[int, Fraction] = {}
    loss: dict[int, Fraction] = {}
    down = Fraction(0)
    for natural in range(1, 21):
        for faces in itertools.product(*(range(1, s + 1) for s in sides)):
            p = Fraction(1, 20)
            for s in sides:
                p /= s
            rolled = 0
            if attack_hits(natural, bonus, defense):
                rolled = max(0, sum(faces) + flat) * (mult if natural == 20 else 1)
            k = damage_after_reduction(rolled, dr)
            dealt[k] = dealt.get(k, Fraction(0)) + p
            r = apply_damage(target[0], target[1], rolled, dr)
            loss[r.to_hp] = loss.get(r.to_hp, Fraction(0)) + p
            down += p if r.hp < 1 else 0
    odds = attack_odds(bonus, defense, notation, damage_reduction=dr, multiplier=mult, target=target)
    assert odds.damage == dealt and odds.hp_loss == loss and odds.p_down == down


def test_sc_b1_attack_odds_agree_with_the_engine_strike() -> None:
    """The engine's own ``combat.strike``, with each d20 face and each damage face scripted, against the odds."""
    from affray.rulesets.spellchrome.combat import attack_bonus, defense_of, strike
    from tests.spellchrome.support import build, fighter, state_of

    match = build(
        "....\n....", {"A": [fighter("a", (0, 0), base_attack=3)], "B": [fighter("b", (1, 0), max_hp=30)]}, dice=[10, 5]
    )
    state = state_of(match)
    a, b = state.combatants["a"], state.combatants["b"]
    arm = a.arms[a.wielding]
    notation = arm.damage + (f"{a.mods['strength']:+d}" if a.mods["strength"] else "")
    faces = max(notation_dist(arm.damage)) - (min(notation_dist(arm.damage)) - 1)
    seen: dict[int, Fraction] = {}
    for natural in range(1, 21):
        for face in range(1, faces + 1):
            b.hp, b.ex_hp = 30, 0
            strike(state, ScriptedRNG([natural, face]), a, b, arm, attack_bonus(a, arm, b), [])
            seen[30 - b.hp] = seen.get(30 - b.hp, Fraction(0)) + Fraction(1, 20 * faces)
    odds = attack_odds(attack_bonus(a, arm, b), defense_of(b), notation, target=(30, 0))
    assert odds.hp_loss == seen
