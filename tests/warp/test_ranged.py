"""Missiles: distance dice by weapon row, cover, movement, darkness, dodging, half-dice, out of range.

Rules: WR-14, WR-15, WR-16, WR-B7, WR-B14 (and WR-07 movement setting 'target moving').
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Rejected
from affray.rulesets.warp.events import DefenseDice
from affray.rulesets.warp.mechanics import (
    RANGE_ROWS,
    distance_dice,
    dodge_bonus,
    half_distance_dice,
    ranged_defense,
)
from affray.rulesets.warp.options import WarpOptions
from tests.warp.helpers import attack, fighter, ok, rejected, rolls, thug, warp_match, who


def shooter(cid: str, weapon: str, **fields: Any) -> dict[str, Any]:
    return fighter(cid, pc=False, traits={"good_shot": 3, "knife_thrower": 3}, weapons=[weapon], **fields)


def test_wr15_baseball_at_6_m_gets_3_dice_and_an_smg_at_30_m_gets_3() -> None:
    """WR-15: the seed's two worked examples."""
    assert distance_dice("thrown_balanced", 6) == 3
    assert distance_dice("smg", 30) == 3


def test_wr15_rows_and_thresholds() -> None:
    """WR-15: a threshold itself still counts for its column; just past it is the next one."""
    assert [distance_dice("pistol", m) for m in (0, 2, 2.5, 10, 11, 40, 80)] == [1, 1, 2, 2, 3, 4, 5]
    assert [distance_dice("rifle", m) for m in (50, 51, 400)] == [2, 3, 5]
    assert [distance_dice("shotgun", m) for m in (4, 5, 64)] == [1, 2, 5]
    assert [distance_dice("thrown_awkward", m) for m in (5, 6, 10)] == [3, 3, 5]
    assert [distance_dice("crossbow", m) for m in (20, 21)] == [3, 4]
    assert set(RANGE_ROWS) >= {
        "thrown_balanced",
        "thrown_awkward",
        "crossbow",
        "taser",
        "pistol",
        "smg",
        "rifle",
        "shotgun",
    }


def test_wr_b7_beyond_the_fifth_column_or_the_taser_cords_is_out_of_range() -> None:
    """WR-B7: a pistol at 81 m and a taser at 5.5 m cannot be used; the 'extra_die' option allows the pistol
    (6 dice to 160 m, 7 to 320 m) but never the taser."""
    assert distance_dice("pistol", 81) is None
    assert distance_dice("taser", 5) == 3 and distance_dice("taser", 5.5) is None
    assert distance_dice("pistol", 81, beyond=True) == 6 and distance_dice("pistol", 200, beyond=True) == 7
    assert distance_dice("taser", 6, beyond=True) is None


def test_wr_b7_an_attack_out_of_range_is_refused_and_changes_nothing() -> None:
    """WR-B7: a taser shot at 6 m is refused with 'out_of_range'."""
    m = warp_match(
        [fighter("dana", traits={"agile": 3}, position=0)],
        [fighter("guard", "guard", position=6)],
        [],
        {"initiative": "seating_gm_first"},
    )
    result = rejected(m, "guard", attack("dana", weapon="taser"))
    assert result.code == "out_of_range" and "6 m" in result.message


def test_wr14_the_gms_dice_add_up() -> None:
    """WR-14: 2 distance dice + partial cover 1 + target moving 1 + attacker moving 1 + dark 1 = 6 dice;
    light cover and dim light are bonus dice (half-dice, WR-16)."""
    assert ranged_defense((2, 0), "partial", "dark", True, True) == (6, 0)
    assert ranged_defense((2, 0), "heavy", "pitch") == (6, 0)
    assert ranged_defense((3, 0), "light", "dim") == (3, 2)


def test_wr14_dodging_bonus_dice() -> None:
    """WR-14: a dodging target gets bonus dice equal to its agility-type trait (2 by default, 'fast, 4 dice'
    gets 4, a clumsy character 1)."""
    assert dodge_bonus(None) == 2 and dodge_bonus(4) == 4 and dodge_bonus(4, clumsy_dice=1) == 1


def test_wr14_ranged_defense_in_a_match() -> None:
    """WR-14: 6 m from a baseball: 3 distance dice, partial cover 1, the thrower moved (1), dodging with
    Fast on Their Feet 4: 5 dice + 4 bonus dice, keep the 5 highest."""
    target = fighter("dana", traits={"fast_on_feet": 4}, position=0, cover="partial")
    m = warp_match(
        [target],
        [shooter("thrower", "baseball", position=6)],
        [3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 6],
        {"initiative": "seating_gm_first"},
    )
    events = ok(m.act("thrower", attack("dana", move={"pace": "walk", "dir": "away"})))
    dice = next(e for e in events if isinstance(e, DefenseDice))
    assert (dice.dice, dice.bonus) == (5, 4)
    assert dice.factors == ["distance 3", "cover partial", "attacker moving", "dodging +4"]
    assert rolls(events, "ranged defense")[0].roll.total == 10  # 6 + four 1s
    assert who(m, "thrower").position == 8.5 and who(m, "thrower").carried["baseball"] == 0


def test_wr14_target_moving_counts_after_a_move() -> None:
    """WR-14, WR-07: a target that moved on its latest turn gets a die for moving."""
    m = warp_match(
        [fighter("dana", traits={"street_brawler": 3}, position=0)],
        [shooter("gun", "light_pistol", position=30)],
        [1, 1, 1, 6, 6, 6, 6, 6, 6, 6],
    )
    ok(m.act("dana", {"type": "move", "pace": "jog", "away": "gun"}))
    assert who(m, "dana").position == -7.5 and who(m, "dana").moved
    events = ok(m.act("gun", attack("dana")))
    dice = next(e for e in events if isinstance(e, DefenseDice))
    assert dice.factors[:2] == ["distance 4", "target moving"] and dice.dice == 5


def test_wr16_half_dice_for_distance() -> None:
    """WR-16: 5 m from a knife-thrower is 2 dice + a bonus die, not 3 dice; 7 m is 3 dice."""
    assert half_distance_dice("thrown_balanced", 5) == (2, 1)
    assert half_distance_dice("thrown_balanced", 7) == (3, 0)
    assert half_distance_dice("thrown_balanced", 1) == (1, 0)
    m = warp_match(
        [fighter("dana", traits={"street_brawler": 3}, position=0)],
        [shooter("ines", "throwing_knife", position=5)],
        [1, 1, 1, 6, 6, 6, 6, 6],
        {"half_dice": True, "initiative": "seating_gm_first"},
    )
    events = ok(m.act("ines", attack("dana")))
    dice = next(e for e in events if isinstance(e, DefenseDice))
    assert (dice.dice, dice.bonus, dice.factors[0]) == (2, 3, "distance 2+b")


def test_wr_b14_the_ranged_table_is_read_as_the_factor_list() -> None:
    """WR-B14: the only reading of the flattened table is the WR-14 factor list (an option with one value)."""
    assert WarpOptions().ranged_defense_reading == "factor_list"


def test_an_unaware_target_does_not_dodge_and_gives_surprise_dice() -> None:
    """WR-14, WR-31: a target totally unaware does not dodge, and the shooter gets a surprise bonus die."""
    m = warp_match(
        [fighter("dana", traits={"fast_on_feet": 4}, position=0, unaware=True)],
        [shooter("gun", "light_pistol", position=5)],
        [6, 6, 6, 1, 1, 1, 1],
        {"initiative": "seating_gm_first"},
    )
    events = ok(m.act("gun", attack("dana")))
    assert rolls(events, "ranged attack")[0].bonus == ["surprise"]
    assert next(e for e in events if isinstance(e, DefenseDice)).factors == ["distance 2"]
    assert not who(m, "dana").unaware


def test_thrown_weapons_run_out() -> None:
    """A thrown weapon leaves the hand: with none left, throwing is refused."""
    m = warp_match(
        [fighter("a", traits={"knife_thrower": 3}, weapons=["baseball"], position=0)],
        [thug("b", position=6)],
        [1, 1, 1, 6, 6, 6, 6, 6, 1, 1, 1, 6, 6, 6],
    )
    ok(m.act("a", attack("b", weapon="baseball")))
    ok(m.act("b", {"type": "pass"}))
    result = m.act("a", attack("b", weapon="baseball"))
    assert isinstance(result, Rejected) and result.code == "unknown_weapon"


def test_wr14_wr_b16_a_clumsy_dodger_rolls_distance_dice_and_one_bonus_die() -> None:
    """WR-14, WR-B16 (revised): a clumsy character Fast on Their Feet (3) dodges a baseball thrown from 6 m:
    3 distance dice + 1 bonus die for dodging (the seed's price of clumsiness) and no Clumsy penalty die on that
    roll, so 4 dice are thrown and the best 3 kept: 1, 6, 6, 6 is 18 (the penalty die used to cancel the bonus
    die: 1 + 6 + 6). On a melee defense the Clumsy penalty die still falls (agility-related, WR-20): 4 thrown,
    the lowest 3 kept, 13."""
    assert dodge_bonus(3, clumsy_dice=1) == 1
    theo = fighter("theo", traits={"fast_on_feet": 3}, flaws=["clumsy"], position=0)
    m = warp_match(
        [theo], [shooter("thrower", "baseball", position=6)], [3, 3, 3, 1, 6, 6, 6], {"initiative": "seating_gm_first"}
    )
    events = ok(m.act("thrower", attack("theo")))
    dice = next(e for e in events if isinstance(e, DefenseDice))
    assert (dice.dice, dice.bonus, dice.factors) == (3, 1, ["distance 3", "dodging +1"])
    defense = rolls(events, "ranged defense")[0]
    assert (defense.bonus, defense.penalty, defense.roll.total) == (["dodging"], [], 18)
    assert len(defense.roll.dice) == 4
    m = warp_match([theo], [thug("b", position=1)], [3, 3, 3, 1, 6, 6, 6], {"initiative": "seating_gm_first"})
    defense = rolls(ok(m.act("b", attack("theo"))), "defense")[0]
    assert (defense.penalty, defense.roll.total) == (["Clumsy"], 13)
