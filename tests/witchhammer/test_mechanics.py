"""WitchHammer mechanics as pure functions of the dice, with the seed's own worked examples and exact
distributions over the 20 faces of a d20. Rules: WH-06, WH-10..WH-23, WH-27..WH-30, WH-B1..WH-B8, WH-B16, WH-B21."""

from __future__ import annotations

from fractions import Fraction

from affray.rulesets.witchhammer.mechanics import (
    AFFLICTIONS,
    DIFFICULTY,
    RANGES,
    affliction,
    apply_damage,
    attack,
    deaths_door,
    deaths_door_difficulty,
    defense_against,
    expected_damage,
    halve,
    heal,
    in_range,
    initiative,
    malus,
    malus_groups,
    penetration,
    save,
    skill_check,
)


def test_wh06_wh_b21_init_5_plus_2_is_7() -> None:
    """WH-06: the card's Init 5 + the character's Init 2 = 7 (the seed's "would by 7", WH-B21); Malus subtracts."""
    assert initiative(5, 2) == 7
    assert initiative(5, 2, -3) == 4


def test_wh11_wh15_wh16_seed_example_22_is_a_solid_hit_for_12() -> None:
    """WH-11/WH-15/WH-16: Attack 8 + 3 = 11 against Defense 4 gives +7; a roll of 15 makes 22, so 12 damage,
    a Solid Hit."""
    r = attack(15, 8 + 3, 4)
    assert (r.value, r.damage, r.hit, r.solid, r.crit, r.fumble) == (22, 12, True, True, False, False)


def test_wh16_wh_b2_a_hit_needs_more_than_10_and_margins_are_not_clamped() -> None:
    """WH-16/WH-B2: exactly 10 does no damage; 11 is a 1-damage hit; 19 is 9 (not solid), 20 is 10 (solid).
    Attack - Defense may be negative and is not clamped unless the option says so."""
    assert (attack(10, 0, 0).damage, attack(10, 0, 0).hit) == (0, False)
    assert (attack(11, 0, 0).damage, attack(11, 0, 0).hit, attack(11, 0, 0).solid) == (1, True, False)
    assert (attack(19, 0, 0).damage, attack(19, 0, 0).solid) == (9, False)
    assert (attack(15, 10, 5).damage, attack(15, 10, 5).solid) == (10, True)
    assert attack(15, 2, 9).value == 8
    assert attack(15, 2, 9, clamp_margin=True).value == 15


def test_wh17_wh_b4_natural_20_adds_10_and_a_wound_natural_1_never_damages() -> None:
    """WH-17/WH-B4: a natural 20 adds 10 and owes 1 Wound even on a miss; a natural 1 subtracts 10 and deals
    no damage even when the value is still over 10."""
    crit = attack(20, 0, 0)
    assert (crit.value, crit.damage, crit.solid, crit.bonus_wounds) == (30, 20, True, 1)
    crit_miss = attack(20, 0, 25)
    assert (crit_miss.value, crit_miss.hit, crit_miss.bonus_wounds) == (5, False, 1)
    fumble = attack(1, 30, 0)
    assert (fumble.value, fumble.damage, fumble.hit, fumble.fumble) == (21, 0, False, True)


def test_wh16_wh17_wh18_exact_distribution_over_the_d20() -> None:
    """WH-16..WH-18 over the 20 faces: at margin 0 the faces 11..19 hit for 1..9, 20 crits for 20, 1 fumbles;
    P(hit) = 1/2, P(Solid Hit) = 1/20, mean damage 65/20."""
    results = [attack(n, 0, 0) for n in range(1, 21)]
    assert [r.damage for r in results] == [0] * 10 + list(range(1, 10)) + [20]
    assert Fraction(sum(r.hit for r in results), 20) == Fraction(1, 2)
    assert Fraction(sum(r.solid for r in results), 20) == Fraction(1, 20)
    assert expected_damage(0, 0) == 65 / 20
    # A HayMaker-like +8 on a Solid Hit (WH-18) only adds on the solid face.
    assert expected_damage(0, 0, solid_bonus=8) == (65 + 8) / 20
    # At margin +7 (the seed's example) faces 4..19 hit and 13..20 are solid.
    at7 = [attack(n, 7, 0) for n in range(1, 21)]
    assert sum(r.hit for r in at7) == 17 and sum(r.solid for r in at7) == 8


def test_wh19_wh_b3_damage_through_poise_and_penetration() -> None:
    """WH-19/WH-B3: Poise 5, Health 14, 12 damage: 1 penetrates, Poise takes 5, 6 overflow: Health 7, 7 Wounds.
    12 damage puts 1 straight through and 23 puts 2; 9 puts none. Penetration comes out of the total."""
    assert apply_damage(5, 14, 12) == (0, 7, 7)
    assert (penetration(12), penetration(23), penetration(9), penetration(0)) == (1, 2, 0, 0)
    assert apply_damage(30, 14, 12) == (19, 13, 1)
    assert apply_damage(30, 14, 23) == (9, 12, 2)
    assert apply_damage(30, 14, 9) == (21, 14, 0)
    assert apply_damage(0, 3, 5) == (0, -2, 5)  # Health may go negative (WH-22)
    # The other reading of WH-B3: the tens digit on top of the whole damage.
    assert apply_damage(5, 14, 12, extra_penetration=True) == (0, 6, 8)


def test_wh20_malus_table_for_health_14() -> None:
    """WH-20: Health 14 splits 2,2,2,2,1,1,1,1,1,1; wounds 0..14 give the seed's table; 10 wounds -6, 5 wounds -2."""
    assert malus_groups(14) == [2, 2, 2, 2, 1, 1, 1, 1, 1, 1]
    assert [malus(14, w) for w in range(15)] == [0, 0, -1, -1, -2, -2, -3, -3, -4, -5, -6, -7, -8, -9, -10]
    assert malus(14, 10) == -6 and malus(14, 5) == -2
    assert malus(14, 30) == -10


def test_wh_b6_malus_below_10_health_puts_empty_groups_last() -> None:
    """WH-B6: Health 5 gives -1, -2, -3, -4, then -10 once Health reaches 0; Health 20 loses 1 per 2 wounds."""
    assert [malus(5, w) for w in range(6)] == [0, -1, -2, -3, -4, -10]
    assert [malus(20, w) for w in (1, 2, 19, 20)] == [0, -1, -9, -10]


def test_wh10_ranges() -> None:
    """WH-10: close is adjacent, short 5, medium 10, long 20 spaces."""
    assert RANGES == {"close": 1, "short": 5, "medium": 10, "long": 20}
    assert in_range(1, "close") and not in_range(2, "close")
    assert in_range(5, "short") and not in_range(6, "short") and in_range(20, "long") and not in_range(21, "long")


def test_wh12_wh13_wh14_wh_b16_defense_against_aspects() -> None:
    """WH-13/WH-B16: non-melee halves the normal Defense (floor toward minus infinity) and adds the matching
    aspect Defenses in full; WH-14: melee with an aspect keeps full Defense plus the aspect; WH-12: Malus once."""
    assert defense_against(5, 3, melee=False) == 2 + 3  # crossbow: half Defense + Ranged Defense
    assert defense_against(5, 2 + 4, melee=False) == 2 + 6  # fire breath: + Fire + Agility Defense
    assert defense_against(5, 12, melee=True) == 17  # a fire sword against a fire creature
    assert defense_against(5, 0, melee=True, malus_mod=-2) == 3
    assert defense_against(-3, 0, melee=False) == -2  # floor(-1.5) = -2
    assert defense_against(-3, 0, melee=False, rounding="toward_zero") == -1
    assert (halve(7), halve(-1), halve(-1, "toward_zero")) == (3, -1, 0)


def test_wh23_wh_b1_affliction_table() -> None:
    """WH-23/WH-B1: 10 or less is nothing; 11 Eye Scar; the seed's second "20" is 29 (Lost a foot); 30 and above
    Lost a hand; below 1 nothing."""
    assert affliction(10) is None and affliction(-4) is None
    assert affliction(11) == "Eye Scar" and affliction(22) == "Broken leg"
    assert affliction(28) == "Lost an eye" and affliction(29) == "Lost a foot"
    assert affliction(30) == "Lost a hand" and affliction(44) == "Lost a hand"
    assert len(AFFLICTIONS) == 20


def test_wh27_wh28_wh_b7_saves_and_skill_checks_on_the_ladder() -> None:
    """WH-27: d20 + Defense - Malus >= difficulty; WH-28: skill checks default to Medium 10; WH-B7: the crit
    adjustments apply to saves and checks (a 20 adds 10, a 1 takes 10)."""
    assert DIFFICULTY == {"picnic": 1, "easy": 5, "medium": 10, "hard": 15, "extremely_hard": 20}
    assert save(10, 2, -1, 10).success and not save(9, 2, -2, 10).success
    assert save(10, 2, -1, 10).total == 11
    assert skill_check(10, 0).difficulty == 10 and skill_check(10, 0).success
    assert save(20, 0, 0, 25).total == 30 and save(20, 0, 0, 25).success
    assert save(1, 12, 0, 5).total == 3 and not save(1, 12, 0, 5).success
    assert save(20, 0, 0, 25, crits=False).total == 20


def test_wh29_wh_b8_deaths_door_difficulty_at_minus_11_health_is_12() -> None:
    """WH-29/WH-B8: the difficulty is 1 - Health, so 12 at -11 Health; no Malus by default. Over the d20 the
    chance at -11 Health with Con Defense 0 is 9/20 (faces 12..20)."""
    assert deaths_door_difficulty(-11) == 12 and deaths_door_difficulty(0) == 1
    assert not deaths_door(11, 0, -11).success and deaths_door(12, 0, -11).success
    assert sum(deaths_door(n, 0, -11).success for n in range(1, 21)) == 9
    assert not deaths_door(12, 0, -11, malus_mod=-10).success


def test_wh30_healing_per_day() -> None:
    """WH-30: 2 Health a day, 3 resting in comfort, never above max."""
    assert heal(0, 14, 3) == 6 and heal(0, 14, 3, resting=True) == 9
    assert heal(12, 14, 5) == 14 and heal(5, 14, 0) == 5
