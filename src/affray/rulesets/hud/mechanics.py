"""Sim HuD mechanics as pure functions of rolled numbers (DESIGN.md, contract 3).

Live play samples the dice and calls these; exact odds enumerate the dice and map the same functions;
simulation calls them millions of times. Nothing here rolls, mutates or knows about a match.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal, NamedTuple

CHANCE_DIE = 11  # Rule: WL-01 (Chance = d11)
HUD_DIE = 13  # Rules: WL-01 (Attack/Defense = d13), WL-B1 (Damage/Injury = d13 too)
ARMOUR_ATTACK_PENALTY = {"light": 0, "medium": 1, "heavy": 2}  # Rule: WL-03
ADDITIONAL_ACTION_PENALTY = -2  # Rule: WL-17
CHARGE_ATTACK = -4  # Rule: WL-18
CHARGE_BONUS = 2  # Rules: WL-18, WL-B4


class ExchangeResult(NamedTuple):
    """Attack vs Defense. Rules: WL-11 (hit on Attack > Defense, ties to the defender), WL-12/WL-B3.

    A named tuple rather than a frozen dataclass: as immutable, and several times cheaper to make on the hot path
    of every exchange."""

    hit: bool
    margin: int  # attack - defense
    riposte: bool  # the defender may riposte (defense - attack >= the riposte margin)


def exchange(attack: int, defense: int, riposte_margin: int = 6) -> ExchangeResult:
    """Resolve Attack vs Defense totals. Rules: WL-11, WL-12, WL-B3."""
    return ExchangeResult(attack > defense, attack - defense, defense - attack >= riposte_margin)


def hp_loss(damage: int, injury: int) -> int:
    """Hit points lost in the Damage phase: max(0, Damage - Injury). Rule: WL-13."""
    return damage - injury if damage > injury else 0


def simplified_hit(attacker_roll: int, defender_roll: int) -> bool:
    """Dice Simplified: the defender loses 1 HP when the attacker's roll is higher. Rule: WL-06."""
    return attacker_roll > defender_roll


def pursuit_roll(chance: int, agility: int, strength: int, armour_penalty: int, penalty: int = 0) -> int:
    """A pursuit distance roll: Chance + the better of Agility/Strength - armour penalty. Rule: WL-22.

    The roller chooses Agility or Strength; the larger one is never worse, so it is taken.
    ``penalty`` is the additional-action penalty when it applies (WL-B11), e.g. -2.
    """
    return chance + max(agility, strength) - armour_penalty + penalty


PursuitState = Literal["caught", "escaped", "running"]


def pursuit_step(
    gap: int, flee: int, pursue: int, catch_gap: int = 2, escape_gap: int = 15
) -> tuple[int, PursuitState]:
    """Apply one pursuit round: the gap changes by (flee - pursue) metres. Rules: WL-22, WL-B9.

    A gap of ``catch_gap`` or less puts everyone back in combat; beyond ``escape_gap`` the fleeing side
    has escaped.
    """
    gap += flee - pursue
    if gap <= catch_gap:
        return gap, "caught"
    if gap > escape_gap:
        return gap, "escaped"
    return gap, "running"


def emergency_rearm_cost(hands: int, kind: str, carry: str, trained_witcher: bool, priced: bool = True) -> int:
    """Actions an emergency rearm costs (drop what is in hand, draw another). Rules: WL-19, WL-20, WL-B15.

    The drop is free (WL-19); with ``priced`` (the default, ruling WL-B15) the draw still costs what WL-20 says, so an
    emergency rearm is never cheaper than drawing the same weapon into a free hand. ``priced=False``: always free.
    """
    return draw_cost(hands, kind, carry, "stowed", trained_witcher) if priced else 0


def draw_cost(hands: int, kind: str, carry: str, location: str, trained_witcher: bool) -> int:
    """Actions it costs to bring a weapon into hand. Rule: WL-20 (and WL-B12's trained-witcher tag).

    Free: any weapon already in hand, and a one-handed weapon drawn from a sheath. One action: a
    two-handed weapon in a sheath, any weapon on the back (trained witchers exempt), a bow or crossbow not
    in hand, a shield not ready on the arm.
    """
    if location == "hand":  # includes a shield ready on the arm
        return 0
    if kind in ("ranged", "shield"):
        return 1
    if carry == "back":
        return 0 if trained_witcher else 1
    return 1 if hands == 2 else 0


Band = Literal["engaged", "near", "far"]


def band_of_distance(metres: float, engaged_within: float = 2, near_within: float = 10) -> Band:
    """The range band of a distance in metres. Rule: WL-B13 (as revised).

    Within ``engaged_within`` metres (the pursuit's catch gap, WL-22) the combatants are engaged; within the free
    move's ``near_within`` metres (WL-10's "about 10 m") they are near; beyond it they are far.
    """
    if metres <= engaged_within:
        return "engaged"
    return "near" if metres <= near_within else "far"


def distance_band(place: int, band: str, other_place: int, other_band: str) -> Band:
    """The range band between two combatants from their places and their places' bands. Rule: WL-B13.

    Combatants sharing a place are engaged. Every other place lies near or far from the fight; two combatants at
    different places are far apart when either place is far, else near.
    """
    if place == other_place:
        return "engaged"
    return "far" if "far" in (band, other_band) else "near"


def initiative_order(rolls: dict[str, int]) -> list[str]:
    """Ids sorted from the highest Chance roll down (ties must already be broken). Rule: WL-09."""
    return sorted(rolls, key=lambda actor: -rolls[actor])


def tied_groups(rolls: Mapping[str, Hashable]) -> list[list[str]]:
    """Groups of ids sharing the same roll, or the same sequence of rolls once ties have been re-rolled
    (only groups of two or more). Rule: WL-B8."""
    by_value: dict[Hashable, list[str]] = {}
    for actor, value in rolls.items():
        by_value.setdefault(value, []).append(actor)
    return [group for group in by_value.values() if len(group) > 1]
