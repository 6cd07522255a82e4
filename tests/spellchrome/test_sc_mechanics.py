"""Pure Spellchrome mechanics with exact numbers and exact distributions (icepool)."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from affray.rulesets.spellchrome import mechanics as m


def _chance(die: icepool.Die, outcome: object) -> Fraction:
    return Fraction(die.probability(outcome)).limit_denominator(10**9)


def test_sc_b2_ability_modifier_is_srd_floor() -> None:
    """SC-B2: ⌊(score − 10)/2⌋; the alternative truncates toward zero."""
    assert [m.ability_modifier(s) for s in (1, 3, 8, 9, 10, 11, 12, 17, 18)] == [-5, -4, -1, -1, 0, 0, 1, 3, 4]
    assert m.ability_modifier(9, "toward_zero") == 0 and m.ability_modifier(7, "toward_zero") == -1


def test_sc12_sc13_natural_one_fails_and_twenty_succeeds() -> None:
    """SC-12: d20 + bonus ≥ DC; SC-13: natural 1 always fails, natural 20 always succeeds."""
    assert m.save_succeeds(10, 5, 15) and not m.save_succeeds(9, 5, 15)
    assert not m.save_succeeds(1, 40, 10)
    assert m.save_succeeds(20, -10, 40)


def test_sc06_sc_b5_dc22_fortitude_save_with_natural_1_and_20() -> None:
    """SC-06/SC-B5: the DC 22 stabilising roll is a save: natural 1 fails even at +25, 20 succeeds at −5."""
    assert not m.stabilise_succeeds(1, 25)
    assert m.stabilise_succeeds(20, -5)
    assert m.stabilise_succeeds(19, 3) and not m.stabilise_succeeds(18, 3)
    assert m.stabilise_succeeds(1, 25, as_save=False)  # SC-B5 switched off: a plain check
    assert m.STABILISE_DC == 22


@pytest.mark.parametrize(("bonus", "successes"), [(0, 1), (3, 2), (10, 9), (25, 19), (-10, 1)])
def test_sc06_exact_chance_to_stabilise(bonus: int, successes: int) -> None:
    """SC-06, SC-13: P(stable) = faces n with n = 20 or (n ≠ 1 and n + bonus ≥ 22), out of 20."""
    die = icepool.d20.map(lambda n: m.stabilise_succeeds(n, bonus))
    assert _chance(die, True) == Fraction(successes, 20)


@pytest.mark.parametrize(
    ("speed", "withdraw"),
    [(5, 5), (10, 5), (15, 5), (20, 5), (25, 5), (30, 10), (35, 10), (40, 10), (45, 15), (50, 15), (55, 15), (60, 20)],
)
def test_sc19_withdraw_table(speed: int, withdraw: int) -> None:
    """SC-19: the seed's withdraw table, max(5, 5·⌊speed/15⌋): 30 → 10, 60 → 20, 25 → 5."""
    assert m.withdraw_distance(speed) == withdraw


def test_sc02_to_sc05_hp_states() -> None:
    """SC-02 ≥1 normal, SC-03 0 unconscious, SC-04 −1..−29 dying, SC-05 ≤ −30 or Con 0 dead."""
    assert [m.hp_state(h) for h in (1, 0, -1, -29, -30, -31)] == [
        "normal",
        "unconscious",
        "dying",
        "dying",
        "dead",
        "dead",
    ]
    assert m.hp_state(12, con_score=0) == "dead"


def test_sc04_sc_b4_dying_clock_from_minus_28_dies_only_at_minus_30() -> None:
    """SC-04/SC-B4: at −28, a 1d4 loss of 1 leaves −29 (still dying); 2, 3, 4 reach −30..−32: dead."""
    assert [m.dying_step(-28, loss) for loss in (1, 2, 3, 4)] == [
        (-29, "dying"),
        (-30, "dead"),
        (-31, "dead"),
        (-32, "dead"),
    ]
    deaths = icepool.d4.map(lambda loss: m.dying_step(-28, loss)[1])
    assert _chance(deaths, "dead") == Fraction(3, 4)
    assert m.dying_step(-25, 4) == (-29, "dying")


def test_sc04_exact_rounds_to_bleed_out_from_minus_one() -> None:
    """SC-04: from −1 with no help, the chance to be dead after 8 rounds of 1d4 (exact, icepool)."""
    total = 8 @ icepool.d4
    dead = total.map(lambda loss: m.dying_step(-1, loss)[1])
    # dead means 8d4 ≥ 29: 1 + 8 + 36 + 120 = 165 of the 4^8 outcomes
    assert _chance(dead, "dead") == Fraction(165, 65536)


def test_sc07_sc_b6_ex_hp_absorbs_after_damage_reduction() -> None:
    """SC-07/SC-B6: damage reduction first, then EX-HP, then HP; Steal Life bypasses EX-HP only (SC-07)."""
    r = m.apply_damage(hp=20, ex_hp=5, damage=9, damage_reduction=2)
    assert (r.hp, r.ex_hp, r.reduced, r.absorbed, r.to_hp) == (18, 0, 2, 5, 2)
    r = m.apply_damage(hp=20, ex_hp=10, damage=6, damage_reduction=2)
    assert (r.hp, r.ex_hp, r.to_hp) == (20, 6, 0)
    r = m.apply_damage(hp=20, ex_hp=10, damage=9, damage_reduction=2, steal_life=True)
    assert (r.hp, r.ex_hp, r.reduced, r.absorbed, r.to_hp) == (13, 10, 2, 0, 7)
    r = m.apply_damage(hp=20, ex_hp=10, damage=9, damage_reduction=2, steal_life=True, reduction_first=False)
    assert (r.hp, r.ex_hp, r.to_hp) == (13, 10, 7)  # no EX-HP to absorb first: the same either way
    assert m.apply_damage(hp=20, ex_hp=0, damage=1, damage_reduction=3, steal_life=True).hp == 20
    r = m.apply_damage(hp=20, ex_hp=5, damage=9, damage_reduction=2, reduction_first=False)
    assert (r.hp, r.ex_hp, r.to_hp) == (18, 0, 2)
    assert m.apply_damage(hp=5, ex_hp=0, damage=1, damage_reduction=3).hp == 5  # minimum 0 (SC-B1)


def test_sc08_healing_never_above_max() -> None:
    """SC-08: healing can never raise HP above max; it does nothing at or above max."""
    assert m.heal(18, 20, 5) == 20 and m.heal(-5, 20, 3) == -2 and m.heal(22, 20, 5) == 22


def test_sc06_sc09_one_d3_is_half_a_d6_rounded_up() -> None:
    """SC-06/SC-09/X-1: 1d3 = ⌈d6/2⌉, uniform on 1..3; comfortable rest is 1d4 + Con modifier."""
    assert [m.one_d3(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    d3 = icepool.d6.map(m.one_d3)
    assert all(_chance(d3, k) == Fraction(1, 3) for k in (1, 2, 3))
    assert m.natural_healing(3, 2, comfortable=True) == 5 and m.natural_healing(1, -3, comfortable=True) == 0
    assert m.natural_healing(2, 5, comfortable=False) == 2


def test_sc18_run_adds_a_square_per_five_points() -> None:
    """SC-18: ⌊result / 5⌋ extra squares, never negative."""
    assert [m.run_bonus_squares(r) for r in (-3, 0, 4, 5, 14, 23)] == [0, 0, 0, 1, 2, 4]


def test_sc17_sc23_squares() -> None:
    """SC-17: 30 ft is 6 squares; SC-23: squares are 5 ft."""
    assert m.squares(30) == 6 and m.squares(35) == 7 and m.SQUARE_FT == 5


def test_sc16_initiative_total_and_tie_order() -> None:
    """SC-16: d20 + Dex modifier + misc (+ surprise); ties by Dex score, then d10 roll-offs."""
    assert m.initiative_total(12, 3, 1, surprise=4) == 20
    keys = {
        "a": m.initiative_key(15, 12, ()),
        "b": m.initiative_key(15, 14, ()),
        "c": m.initiative_key(16, 8, ()),
        "d": m.initiative_key(15, 14, (3,)),
        "e": m.initiative_key(15, 14, (9,)),
    }
    assert sorted(["a", "b", "c"], key=keys.__getitem__) == ["c", "b", "a"]
    assert sorted(["d", "e"], key=keys.__getitem__) == ["e", "d"]


def test_sc_b1_attack_roll_defense_and_naturals() -> None:
    """SC-B1 (SRD-standard assumption): hit on d20 + bonus ≥ 10 + Dex + deflection + other; 1 misses, 20 hits."""
    assert m.defense(2, 4, 1) == 17 and m.defense(3, 2, helpless=True) == 7
    assert m.attack_hits(12, 5, 17) and not m.attack_hits(11, 5, 17)
    assert not m.attack_hits(1, 30, 10) and m.attack_hits(20, -5, 40)
    assert m.attack_hits(1, 30, 10, naturals_decide=False)
    hits = icepool.d20.map(lambda n: m.attack_hits(n, 4, 15))
    assert _chance(hits, True) == Fraction(10, 20)


def test_sc_b1_range_increments_and_iterative_attacks() -> None:
    """SC-B1 (SRD-standard): −2 per full increment beyond the first, ten at most; BAB, BAB−5, …"""
    assert [m.range_penalty(d, 6) for d in (1, 6, 7, 12, 13, 60, 61)] == [0, 0, -2, -2, -4, -18, None]
    assert m.iterative_bonuses(3) == [3] and m.iterative_bonuses(6) == [6, 1] and m.iterative_bonuses(11) == [11, 6, 1]


def test_sc14_save_progressions_hit_armoes_public_numbers() -> None:
    """SC-14: good 2 + L/2, middling 9(L+1)/21, poor L/3 give Armoes' +2/+0/+0, +3/+1/+0, +3/+1/+1, +12/+9/+6."""
    rows = [tuple(m.save_progression(k, lvl) for k in ("good", "middling", "poor")) for lvl in (1, 2, 3, 20)]
    assert rows == [(2, 0, 0), (3, 1, 0), (3, 1, 1), (12, 9, 6)]


def test_sc10_knockout_needs_blunt_and_no_higher_level() -> None:
    """SC-10: a blunt object, and the target is not of higher level."""
    assert m.knockout_allowed(3, 3, True) and not m.knockout_allowed(3, 4, True)
    assert not m.knockout_allowed(5, 1, False)
    assert m.KNOCKOUT_SAVE_DC == 20


def test_sc11_sc_b4_nonlethal_blows() -> None:
    """SC-11: a non-lethal blow into −1..−29 knocks out and is stable; SC-B4: ≤ −30 still kills."""
    assert m.nonlethal_result(-12, True) == ("dying", True)
    assert m.nonlethal_result(-30, True) == ("dead", False)
    assert m.nonlethal_result(-30, True, lethal_below=False) == ("dying", True)
    assert m.nonlethal_result(-12, False) == ("dying", False)
