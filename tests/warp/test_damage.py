"""Hits, damage factors, armour, bullet-proof armour, tasers, special effects and alternate damage.

Rules: WR-10..WR-12, WR-18..WR-23, WR-29, WR-30, WR-33, WR-B1, WR-B3..WR-B6.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest

from affray.core.events import Event
from affray.odds.dist import mean
from affray.rulesets.warp.content_model import parse_rating
from affray.rulesets.warp.events import EffectApplied, Wounded
from affray.rulesets.warp.mechanics import (
    DAMAGE_FACTORS,
    alternate_damage,
    armour_absorb,
    armour_penalty_dice,
    bulletproof,
    bulletproof_flat,
    damage,
    effect_lands,
    explosion,
    hit,
    regular_protection,
    shotgun_factor,
    special_damage,
    taser_damage,
)
from affray.rulesets.warp.odds import Armour, attack_odds, exchange_dist
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.ruleset import builtin_content
from affray.rulesets.warp.setup import ArmourSetup, protection
from affray.rulesets.warp.state import UNARMED
from tests.warp.helpers import attack, brawler, fighter, ok, rolls, thug, warp_match, who


def wounds(events: Sequence[Event]) -> list[Wounded]:
    return [e for e in events if isinstance(e, Wounded)]


def test_wr10_a_tie_misses() -> None:
    """WR-10: attack 10 against defense 10 misses and does nothing; 11 hits."""
    assert not hit(10, 10) and hit(11, 10)
    assert damage(10, 10, 3) == 0 and damage(9, 10, 3) == 0


def test_wr11_damage_is_margin_times_factor() -> None:
    """WR-11: attack 14 against 10 with a sword (x3) deals 12."""
    assert damage(14, 10, 3) == 12


def test_wr12_damage_factor_table_and_content() -> None:
    """WR-12: the seed's and the SRD's factors, and the weapons in content carry them."""
    assert [
        DAMAGE_FACTORS[k]
        for k in (
            "unarmed",
            "knife",
            "lead_pipe",
            "sword",
            "axe",
            "throwing_knife",
            "slingshot",
            "crossbow",
            "throwing_axe",
            "taser",
        )
    ] == [1, 2, 2, 3, 3, 1, 1, 2, 2, 5]
    assert [
        DAMAGE_FACTORS[k]
        for k in ("light_handgun", "medium_handgun", "large_handgun", "light_rifle", "heavy_rifle", "shotgun")
    ] == [3, 4, 5, 6, 7, 10]
    weapons = builtin_content().sections["weapons"]
    assert weapons["knife"].melee.factor == 2 and weapons["sword"].melee.factor == 3
    assert weapons["throwing_knife"].ranged.factor == 1 and weapons["crossbow"].ranged.factor == 2
    assert weapons["taser"].ranged.factor == 5 and weapons["taser"].ranged.temporary
    assert [
        weapons[w].ranged.factor
        for w in ("light_pistol", "medium_pistol", "large_pistol", "light_rifle", "heavy_rifle")
    ] == [3, 4, 5, 6, 7]
    assert weapons["shotgun"].ranged.per_distance and weapons["shotgun"].ranged.factor == 10


def test_wr12_wr_b5_shotgun_is_10_divided_by_distance_dice_rounded_down() -> None:
    """WR-12, WR-B5: 10 / 3 distance dice = 3; 10 / 4 = 2; rounded up as an option: 4 and 3."""
    assert [shotgun_factor(d) for d in (1, 2, 3, 4, 5)] == [10, 5, 3, 2, 2]
    assert [shotgun_factor(d, round_up=True) for d in (3, 4)] == [4, 3]


def test_wr13_one_attack_roll_covers_the_whole_round() -> None:
    """WR-13: an attack action makes exactly one attack roll and one defense roll, whatever it narrates."""
    m = warp_match([brawler("a")], [thug("b")], [6, 6, 6, 1, 1, 1])
    events = ok(m.act("a", attack("b")))
    assert len(rolls(events, "melee attack")) == 1 and len(rolls(events, "defense")) == 1
    assert wounds(events)[0].damage == 15  # 18 - 3, bare hands x1


def test_wr19_wr_b1_armour_ratings_bare_numbers_are_dice_pt_is_flat() -> None:
    """WR-19, WR-B1: '1 pt' is a flat point, '2' is two dice, '1b' bullet-proof, '3/2b' both."""
    assert parse_rating("1 pt") == [(1, "pt")] and parse_rating("2") == [(2, "bare")]
    assert parse_rating("1b") == [(1, "b")] and parse_rating("3/2b") == [(3, "bare"), (2, "b")]
    with pytest.raises(ValueError):
        parse_rating("two dice")


def test_wr19_regular_armour_dice_come_off_each_damaging_attack() -> None:
    """WR-19: an armoured jacket (1 die) rolls 4 against a 21-point sword blow (margin 7 x 3): 17 gets
    through."""
    m = warp_match(
        [fighter("a", traits={"fencer": 3}, weapons=["sword"])],
        [thug("b", armour=["armoured_jacket"], weapons=["lead_pipe"])],
        [6, 5, 5, 3, 3, 3, 4],
    )
    events = ok(m.act("a", attack("b")))
    w = wounds(events)[0]
    assert (w.raw, w.absorbed, w.damage, w.hp) == (21, 4, 17, 4)
    assert rolls(events, "melee attack")[0].roll.total == 16


def test_wr21_leathers_under_plate_roll_2d6_plus_1_and_take_2_penalty_dice() -> None:
    """WR-21, WR-B3: leathers under plate mail protect 2d6 + 1 and give 2 penalty dice (one for the plate,
    one for the extra layer)."""
    content = builtin_content().sections["armour"]
    layers: list[ArmourSetup] = [
        {"name": content[a].name, "rating": content[a].rating, "penalty": content[a].penalty}
        for a in ("leathers", "plate_mail")
    ]
    m = warp_match([brawler("a")], [thug("b")], [])
    assert isinstance(m.options, WarpOptions)
    worn = protection(layers, m.options)
    assert (worn.dice, worn.flat, worn.bullet_dice, worn.penalty_dice) == (2, 1, 0, 2)
    assert armour_penalty_dice([False, True]) == 2 and armour_penalty_dice([True]) == 1
    assert armour_penalty_dice([False]) == 0 and armour_penalty_dice([]) == 0


def test_wr_b3_flagged_only_option_counts_only_penalty_layers() -> None:
    """WR-B3 alternative: only the layers marked 'penalty' count, so leathers under plate give 1."""
    m = warp_match([brawler("a")], [fighter("knight", "knight")], [], {"layered_armour_penalty": "flagged_only"})
    assert who(m, "knight").armour.penalty_dice == 1


def test_wr20_armour_penalty_falls_on_agility_related_rolls_only() -> None:
    """WR-20: the knight's Trained Fencer (agility-related) attack takes 2 penalty dice from his armour;
    his Won't Back Down resolve roll (not agility-related) takes none."""
    m = warp_match(
        [brawler("a", weapons=["lead_pipe"])],
        [fighter("knight", "knight")],
        [1, 1, 1, 6, 6, 6, 6, 6, 6],
        {"initiative": "seating_gm_first"},
    )
    events = ok(m.act("knight", attack("a")))
    roll = rolls(events, "melee attack")[0]
    assert roll.penalty == ["armour", "armour"] and roll.roll.notation == "4d6+2p"  # keep the lowest 4 of 6
    m2 = warp_match([brawler("a")], [fighter("knight", "knight")], [6, 6, 6, 1, 1, 1, 1])
    events = ok(m2.act("a", {"type": "intimidate", "target": "knight", "trait": None}))
    assert rolls(events, "resolve")[0].penalty == []


def test_wr18_armour_never_hinders_a_firearm_attack() -> None:
    """WR-18: the hired gun in military body armour (penalty) shoots without penalty dice, but his
    agility-free trait would not take any anyway; a thrown knife by an armoured thrower would."""
    # 20 m from an SMG: 2 distance dice + 2 dodging bonus dice
    m = warp_match(
        [brawler("a", position=0)],
        [fighter("gun", "mercenary", position=20)],
        [3, 3, 3, 3, 1, 1, 1, 1],
        {"initiative": "seating_gm_first"},
    )
    events = ok(m.act("gun", attack("a")))
    assert rolls(events, "ranged attack")[0].penalty == []
    thrower = fighter(
        "ines", traits={"knife_thrower": 4}, weapons=["throwing_knife"], armour=["plate_mail"], position=0
    )
    m2 = warp_match([thrower], [thug("b", position=6)], [3, 3, 3, 3, 3, 1, 1, 1, 1, 1])
    events = ok(m2.act("ines", attack("b")))
    assert rolls(events, "ranged attack")[0].penalty == ["armour"]


def test_wr22_regular_armour_halves_against_gunfire() -> None:
    """WR-22: 5 points of protection stop 2 against a gun (rounded down), 5 against a knife."""
    assert regular_protection(4, 1, gunfire=True) == 2 and regular_protection(4, 1, gunfire=False) == 5


def test_wr22_wr_b5_wr_b6_bullet_proof_divides_bullets_and_subtracts_otherwise() -> None:
    """WR-22: a 2b suit rolling 3 + 2 divides 12 bullet damage to 2 (rounded down, WR-B5); a knife loses 2
    points; 1-1 on every die means the shot found a gap (WR-B6); regular armour goes first."""
    assert bulletproof(12, [3, 2], gunfire=True) == 2
    assert bulletproof(11, [1, 1], gunfire=True) == 11
    assert bulletproof(11, [1, 2], gunfire=True) == 3
    assert bulletproof(11, [1, 2], gunfire=True, any_one=True) == 11  # the WR-B6 alternative
    assert bulletproof(11, [2, 2], gunfire=True, round_up=True) == 3
    assert bulletproof_flat(12, 2) == 10 and bulletproof(12, [5, 5], gunfire=False) == 10
    # military body armour 3/2b against 30 gunfire damage: 3 dice roll 9 -> 4 (half), 26 left, / (4+3) = 3
    assert armour_absorb(30, 9, 0, [4, 3], gunfire=True) == 3


def test_wr22_bullet_proof_vest_in_a_match() -> None:
    """WR-22: a service pistol (x4) hits a vest-wearing PC by 5: 20 damage, the 1b vest rolls 4: 5 HP lost."""
    marcus = fighter("marcus", traits={"police_training": 4}, armour=["bulletproof_vest"], position=0)
    shooter = fighter("gun", pc=False, traits={"good_shot": 4}, weapons=["medium_pistol"], position=5)
    # attack 4 dice = 16; defense: distance 2 dice + 2 dodge bonus dice: faces 6,5,1,1 keep 2 highest = 11
    m = warp_match([marcus], [shooter], [4, 4, 4, 4, 1, 1, 6, 5, 4], {"initiative": "seating_gm_first"})
    events = ok(m.act("gun", attack("marcus")))
    w = wounds(events)[0]
    assert (w.raw, w.damage, w.hp) == (20, 5, 16)


def test_wr_b4_armour_after_the_factor_and_never_below_zero() -> None:
    """WR-B4: margin 3 with a sword (x3) against 2 points: 9 - 2 = 7; the alternative subtracts from the
    margin first: (3 - 2) x 3 = 3. Armour bigger than the blow leaves 0."""
    assert armour_absorb(damage(13, 10, 3), 2, 0) == 7
    assert max(0, 3 - 2) * 3 == 3
    assert armour_absorb(4, 6, 0) == 0
    m = warp_match(
        [fighter("a", traits={"fencer": 3}, weapons=["sword"])],
        [thug("b", armour=["leathers"], weapons=["lead_pipe"])],
        [5, 4, 4, 4, 4, 2],
        {"armour_after_factor": False},
    )
    w = wounds(ok(m.act("a", attack("b"))))[0]
    assert (w.raw, w.damage) == (9, 6)


def test_wr23_taser_is_all_or_nothing_against_armour() -> None:
    """WR-23: margin 4; armour rolling 4 stops it all, rolling 3 lets the full 4 x 5 = 20 through."""
    assert taser_damage(14, 10, 4) == 0 and taser_damage(14, 10, 3) == 20 and taser_damage(10, 10, 0) == 0


def test_wr23_wr29_taser_damage_is_temporary_in_a_match() -> None:
    """WR-23, WR-29: a guard's taser hits by 3 for 15 temporary damage through an unlucky jacket roll of 2;
    it counts for Messed Up but not against hit points."""
    guard = fighter("guard", "guard", position=3)
    dana = fighter("dana", traits={"street_brawler": 3}, armour=["armoured_jacket"], position=0)
    # guard attack 3 dice = 12; at 3 m dana defends with 3 distance dice + 2 dodging: 4 + 3 + 2 = 9;
    # her jacket rolls 2, less than the margin of 3
    m = warp_match([dana], [guard], [4, 4, 4, 4, 3, 2, 1, 1, 2], {"initiative": "seating_gm_first"})
    events = ok(m.act("guard", attack("dana", weapon="taser")))
    w = wounds(events)[0]
    assert (w.temporary, w.damage, w.hp, w.stun) == (True, 15, 21, 15)
    assert who(m, "dana").messed


def test_wr33_wr23_wr_b18_a_taser_rolls_5d6_under_alternate_damage() -> None:
    """WR-33, WR-23, WR-B18: with Alternate Damage a taser's X5 is 5d6, doubled when attack >= 2 x defense, still all
    or nothing against armour (the armour roll against the margin) and temporary (WR-29).

    At 3 m Dana defends with 3 distance dice + 2 dodging bonus dice. First: attack 6+6+6 = 18 against 3+3+2 = 8
    (18 >= 16: doubled), 5d6 = 1+2+3+4+5 = 15, x2 = 30; her jacket rolls 6, less than the margin 10: all 30 get
    through as stun (margin x 5 would have been 50). Second: 4+4+4 = 12 against 4+3+2 = 9 (not doubled), 5d6 = 30,
    the jacket rolls 3, matching the margin 3: nothing gets through."""
    assert taser_damage(18, 8, 6, 5, [1, 2, 3, 4, 5]) == 30 and taser_damage(18, 8, 6) == 50
    assert taser_damage(12, 9, 3, 5, [6] * 5) == 0 and taser_damage(12, 9, 2, 5, [6] * 5) == 30
    guard = fighter("guard", "guard", position=3)
    dana = fighter("dana", traits={"street_brawler": 3}, armour=["armoured_jacket"], position=0)
    options = {"initiative": "seating_gm_first", "alternate_damage": True}
    m = warp_match([dana], [guard], [6, 6, 6, 3, 3, 2, 1, 1, 1, 2, 3, 4, 5, 6], options)
    events = ok(m.act("guard", attack("dana", weapon="taser")))
    damage_roll = next(e for e in events if getattr(e, "purpose", "") == "damage")
    assert (damage_roll.roll.notation, damage_roll.roll.total) == ("5d6", 15)  # type: ignore[attr-defined]
    w = wounds(events)[0]
    assert (w.temporary, w.raw, w.damage, w.hp, w.stun) == (True, 30, 30, 21, 30)
    assert who(m, "dana").status == "down"
    m = warp_match([dana], [guard], [4, 4, 4, 4, 3, 2, 1, 1, 6, 6, 6, 6, 6, 3], options)
    w = wounds(ok(m.act("guard", attack("dana", weapon="taser"))))[0]
    assert (w.temporary, w.raw, w.damage, w.hp, w.stun) == (True, 30, 0, 21, 0)


def test_wr23_wr_b18_exact_taser_odds_are_all_or_nothing() -> None:
    """WR-23, WR-B18: the exact odds of a taser (1 die against 1 die, X5, a jacket's 1 armour die): a margin m gets
    through with (m - 1)/6, all of 5m: mean (5/216) x (2x4x1 + 3x3x2 + 4x2x3 + 5x1x4) = 175/108 (a blade of factor 5
    would lose only the armour roll off its damage). With Alternate Damage the odds are the engine's own rule
    (``taser_damage``) over every throw of attack, defense, 2 damage dice (factor 2, to keep it small) and armour."""
    odds = attack_odds(1, 1, factor=5, armour=Armour(1), taser=True)
    assert (odds.p_hit, mean(odds.damage), odds.damage[25]) == (Fraction(5, 12), Fraction(175, 108), Fraction(1, 54))
    assert mean(attack_odds(1, 1, factor=5, armour=Armour(1)).damage) != Fraction(175, 108)
    _, alternate = exchange_dist((2, 0, 0), (1, 0, 0), 2, Armour(1, 1), alternate=True, taser=True)
    counts: dict[int, int] = {}
    for a1, a2, d, x1, x2, r in itertools.product(range(1, 7), repeat=6):
        k = taser_damage(a1 + a2, d, r + 1, 2, [x1, x2]) if a1 + a2 > d else 0
        counts[k] = counts.get(k, 0) + 1
    assert alternate == {k: Fraction(v, 6**6) for k, v in counts.items()}


def test_wr30_special_effect_halves_damage_and_needs_the_margin() -> None:
    """WR-30, WR-B5: a disarm hitting by 5 does 5 // 2 = 2 with bare hands, and lands against a margin of 3;
    hitting by 2 it does 1 and fails."""
    assert special_damage(5) == 2 and special_damage(5, round_up=True) == 3
    assert effect_lands(15, 10, 3) and not effect_lands(12, 10, 3) and not effect_lands(10, 10, 0)
    m = warp_match([brawler("a")], [thug("b", weapons=["knife"])], [5, 5, 5, 4, 3, 3])
    events = ok(m.act("a", attack("b", maneuver="disarm")))
    w = wounds(events)[0]
    effect = next(e for e in events if isinstance(e, EffectApplied))
    assert (w.damage, effect.margin, effect.landed) == (2, 5, True)
    assert who(m, "b").wielding == UNARMED and who(m, "b").carried["knife"] == 0


def test_wr30_trip_and_hold_effects() -> None:
    """WR-30 (ruling WR-X6): a trip puts the target down, costing its next turn; a hold gives it a penalty
    die until it breaks free."""
    m = warp_match([brawler("a")], [thug("b")], [6, 6, 6, 1, 1, 1])
    events = ok(m.act("a", attack("b", maneuver="trip")))
    assert next(e for e in events if isinstance(e, EffectApplied)).landed
    assert "gets up off the ground" in [getattr(e, "what", "") for e in events]  # b's turn goes on it
    assert not who(m, "b").prone and m.rounds() == 2 and m.pending().actors == ("a",)  # type: ignore[union-attr]
    m2 = warp_match([brawler("a")], [thug("b")], [6, 6, 6, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1])
    ok(m2.act("a", attack("b", maneuver="headlock")))
    assert who(m2, "b").held_by == "a"
    events = ok(m2.act("b", attack("a")))
    assert "held" in rolls(events, "melee attack")[0].penalty


def test_wr33_alternate_damage_rolls_a_die_per_factor_point() -> None:
    """WR-33: a knife rolls 2 dice (2 + 3 = 5); attack 12 against 6 doubles it to 10; 11 against 6 does 5.
    Bonus dice never apply to the damage dice."""
    assert alternate_damage([2, 3], 12, 6) == 10 and alternate_damage([2, 3], 11, 6) == 5
    assert alternate_damage([2, 3], 6, 6) == 0
    assert explosion([6, 5, 1, 2]) == 14  # an explosion: the GM's dice, no attack roll
    m = warp_match(
        [brawler("a", weapons=["knife"], experience=2)],
        [thug("b", weapons=["knife"])],
        [6, 6, 6, 6, 6, 1, 1, 1, 2, 3],
        {"alternate_damage": True},
    )
    events = ok(m.act("a", attack("b", experience=2)))
    damage_roll = next(e for e in events if getattr(e, "purpose", "") == "damage")
    assert damage_roll.roll.notation == "2d6"  # type: ignore[attr-defined]
    assert wounds(events)[0].damage == 10
