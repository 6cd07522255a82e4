"""Rules fidelity, WaRP: the places where the code read the seed differently, each with the seed's numbers.

Rules: WR-18, WR-20, WR-21 (armour hinders attack and defense rolls), WR-09/WR-B15 as revised (a non-combat
trait serves attack or defense in one round), WR-30 (special damage halved before armour), WR-24 (Messed Up
and the GM's dice for a target that does not dodge), WR-32 (desperate defense lasts for its round).
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Action
from affray.core.events import Event
from affray.rulesets.warp.events import Wounded
from tests.warp.helpers import attack, brawler, fighter, ok, rejected, rolls, thug, warp_match, who

PASS: Action = {"type": "pass"}


def wounded(events: list[Event]) -> Wounded:
    return next(e for e in events if isinstance(e, Wounded))


# -- WR-20: "a penalty roll on every action that requires agility (including attack and defense rolls)" -------
def test_wr20_plate_hinders_a_street_brawlers_attack_and_defense() -> None:
    """WR-20, WR-B16: Street Brawler is a combat trait not tagged agility; in plate mail its attack and its defense
    still take the penalty die. Attack 4 dice [6, 6, 6, 1] keep the lowest 3 = 13 against 3; defense
    [5, 5, 5, 6] keeps 15 against the thug's 6."""
    m = warp_match([brawler("a", armour=["plate_mail"])], [thug("b")], [6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 5, 5, 5, 6])
    events = ok(m.act("a", attack("b")))
    hit = rolls(events, "melee attack")[0]
    assert hit.penalty == ["armour"] and hit.roll.total == 13
    assert wounded(events).damage == 10 and who(m, "b").hp == 11
    events = ok(m.act("b", attack("a")))
    guard = rolls(events, "defense")[0]
    assert guard.penalty == ["armour"] and guard.roll.total == 15


def test_wr_b16_clumsy_hinders_a_street_brawlers_attack_and_defense() -> None:
    """WR-20, WR-B16: a flaw on agility (Clumsy) falls on every melee attack and defense roll, like armour's
    penalty die: the Street Brawler's attack [6, 6, 6, 1] keeps 13, its defense [5, 5, 5, 6] keeps 15."""
    m = warp_match([brawler("a", flaws=["clumsy"])], [thug("b")], [6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 5, 5, 5, 6])
    events = ok(m.act("a", attack("b")))
    assert rolls(events, "melee attack")[0].penalty == ["Clumsy"]
    assert rolls(events, "melee attack")[0].roll.total == 13
    guard = rolls(ok(m.act("b", attack("a"))), "defense")[0]
    assert guard.penalty == ["Clumsy"] and guard.roll.total == 15


def test_wr21_leathers_under_plate_give_two_penalty_dice_on_an_attack() -> None:
    """WR-21: the seed's stacking example, 2 penalty dice (plate, and the extra layer), on a Good with a Bat
    attack: 4 dice + 2 penalty dice [6, 6, 1, 1, 2, 2] keep the lowest 4 = 6."""
    pc = fighter("a", traits={"good_with_a_bat": 4}, weapons=["baseball_bat"], armour=["leathers", "plate_mail"])
    m = warp_match([pc], [thug("b", weapons=["lead_pipe"])], [6, 6, 1, 1, 2, 2, 1, 1, 1])
    events = ok(m.act("a", attack("b")))
    roll = rolls(events, "melee attack")[0]
    assert roll.penalty == ["armour", "armour"] and roll.roll.total == 6


def test_wr18_a_firearm_attack_is_not_hindered_but_a_crossbow_is() -> None:
    """WR-18 exempts only firearm attacks: a pistol shot in plate takes no penalty die; a crossbow bolt does."""

    def shot(weapon: str) -> list[str]:
        pc = fighter("a", traits={"good_shot": 3}, weapons=[weapon], armour=["plate_mail"], position=0)
        m = warp_match([pc], [thug("b", position=5)], [3] * 12)
        return rolls(ok(m.act("a", attack("b"))), "ranged attack")[0].penalty

    assert shot("medium_pistol") == []
    assert shot("crossbow") == ["armour"]


def test_wr20_the_older_reading_is_an_option() -> None:
    """WR-20, option agility_rolls: tagged_traits: only an agility-tagged trait's roll took the penalty."""
    m = warp_match(
        [brawler("a", armour=["plate_mail"])], [thug("b")], [6, 6, 6, 1, 1, 1], {"agility_rolls": "tagged_traits"}
    )
    events = ok(m.act("a", attack("b")))
    assert rolls(events, "melee attack")[0].penalty == [] and rolls(events, "melee attack")[0].roll.total == 18


# -- WR-09, WR-B15 as revised: "in a single round" --------------------------------------------------------
def agile_pc(cid: str = "a", **fields: Any) -> dict[str, Any]:
    return fighter(cid, traits={"agile": 4, "quick_reflexes": 3}, **fields)


def test_wr_b15_an_agile_fighter_who_defended_with_agile_cannot_attack_with_it_that_round() -> None:
    """WR-09, WR-B15: the thug acts first; Agile defends (the defender is asked, as the choice costs its
    attack), and then an Agile attack is refused; Quick Reflexes cannot attack, so it rolls 2 dice."""
    m = warp_match([agile_pc()], [thug("b")], [1, 1, 1, 6, 6, 6, 6, 2, 2, 3, 3, 3], {"initiative": "seating_gm_first"})
    ok(m.act("b", attack("a")))
    assert m.pending().phase == "defend"  # type: ignore[union-attr]
    ok(m.act("a", {"type": "defend", "trait": "agile"}))
    assert rejected(m, "a", attack("b", trait="agile")).code == "trait_locked"
    events = ok(m.act("a", attack("b")))
    assert rolls(events, "melee attack")[0].trait == "no trait (2 dice)"


def test_wr_b15_a_new_round_frees_the_trait() -> None:
    """WR-B15: Agile defended in round 1; in round 2 it attacks again with 4 dice."""
    m = warp_match(
        [agile_pc()], [thug("b")], [1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1], {"initiative": "seating_gm_first"}
    )
    ok(m.act("b", attack("a")))
    ok(m.act("a", {"type": "defend", "trait": "agile"}))
    ok(m.act("a", PASS))
    ok(m.act("b", PASS))
    events = ok(m.act("a", attack("b", trait="agile")))
    assert rolls(events, "melee attack")[0].trait == "Agile" and rolls(events, "melee attack")[0].roll.total == 4


def test_wr_b15_the_earlier_reading_is_an_option() -> None:
    """WR-B15, option trait_lock: until_next_turn: the lock ended when the turn began."""
    m = warp_match(
        [agile_pc()],
        [thug("b")],
        [1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1],
        {"initiative": "seating_gm_first", "trait_lock": "until_next_turn"},
    )
    ok(m.act("b", attack("a")))
    events = ok(m.act("a", attack("b", trait="agile")))
    assert rolls(events, "melee attack")[0].trait == "Agile"


# -- WR-30: half the damage done, then armour --------------------------------------------------------------
def trip_match(options: dict[str, Any] | None = None) -> list[Event]:
    """A sword trip: attack 3 dice + a bonus die (better weaponry) [5, 5, 5, 1] = 15 against 12, margin
    3 x 3 = 9; leathers 1 pt."""
    pc = fighter("a", traits={"fencer": 3}, weapons=["sword"])
    m = warp_match([pc], [thug("b", armour=["leathers"])], [5, 5, 5, 1, 4, 4, 4], options)
    return ok(m.act("a", attack("b", maneuver="trip", trait="fencer")))


def test_wr30_special_damage_is_halved_before_armour() -> None:
    """WR-30, WR-B5: margin 3 x sword 3 = 9, half rounded down 4, leathers 1 pt: 3 comes off."""
    assert rolls(trip_match(), "melee attack")[0].bonus == ["better weaponry"]
    w = wounded(trip_match())
    assert (w.raw, w.absorbed, w.damage, w.hp) == (4, 1, 3, 18)


def test_wr30_halving_after_armour_is_an_option() -> None:
    """WR-30, option special_half: after_armour: (9 - 1) / 2 = 4."""
    w = wounded(trip_match({"special_half": "after_armour"}))
    assert (w.raw, w.damage, w.hp) == (9, 4, 17)


# -- WR-24: the GM's dice for a target that does not dodge ------------------------------------------------
def surprise_shot(options: dict[str, Any] | None = None) -> list[Event]:
    """An unaware, Messed Up thug (10 of 21 HP) 3 m from a knife thrower: 2 distance dice, no dodging."""
    pc = fighter("a", traits={"knife_thrower": 3}, weapons=["throwing_knife"], position=0)
    m = warp_match([pc], [thug("b", position=3, hp=10, unaware=True)], [4, 4, 4, 4, 2, 2, 6], options)
    return ok(m.act("a", attack("b")))


def test_wr24_messed_up_does_not_reach_the_gms_dice_for_an_unaware_target() -> None:
    """WR-24, WR-14: Messed Up is a penalty die on the target's actions; an unaware target takes the GM's
    2 distance dice as they are: [2, 2] = 4 against the surprise attack's 12 (3 dice + a bonus die)."""
    events = surprise_shot()
    defense = rolls(events, "ranged defense")[0]
    assert defense.penalty == [] and defense.roll.total == 4
    shot = rolls(events, "ranged attack")[0]
    assert shot.bonus == ["surprise"] and shot.roll.total == 12


def test_wr24_option_messed_up_on_the_gms_dice() -> None:
    """WR-24, option passive_defense_standing: the Messed Up penalty die drops the 6: [2, 2, 6] keeps 4."""
    defense = rolls(surprise_shot({"passive_defense_standing": True}), "ranged defense")[0]
    assert defense.penalty == ["messed up"] and defense.roll.total == 4 and len(defense.roll.dice) == 3


# -- WR-32: "a bonus die on each defense roll for that round" ---------------------------------------------
def desperate_match(span: str) -> list[str]:
    m = warp_match(
        [brawler("a")],
        [thug("b")],
        [1, 1, 1, 6, 6, 6, 6],
        {"desperate_defense": True, "desperate_defense_span": span, "initiative": "seating_gm_first"},
    )
    ok(m.act("b", PASS))
    ok(m.act("a", {"type": "desperate_defense"}))
    return rolls(ok(m.act("b", attack("a"))), "defense")[0].bonus


def test_wr32_desperate_defense_ends_with_its_round() -> None:
    """WR-32: declared in round 1 after the thug acted, it gives nothing against the thug's round-2 attack."""
    assert desperate_match("round") == []


def test_wr32_until_the_next_turn_is_an_option() -> None:
    """WR-32, option desperate_defense_span: until_next_turn (the earlier reading) carries it into round 2."""
    assert desperate_match("until_next_turn") == ["desperate defense"]
