"""Exact odds for WitchHammer, mapped through the ruleset's own mechanic functions over the 20 faces of a d20.

- :func:`blows`: one attack roll (Rules: WH-15..WH-18, WH-B2, WH-B4, WH-B5): every face of the d20 through
  :func:`~affray.rulesets.witchhammer.mechanics.attack`, with the on-hit and Solid-Hit bonus damage added the
  way the engine adds them (``attack.strike``).
- :func:`attack_odds`: the chance of a hit, a Solid Hit, a Crit and a Fumble, the damage distribution over the
  whole roll (a miss is 0), and against a target with Poise and Health the Wounds distribution
  (:func:`~affray.rulesets.witchhammer.mechanics.apply_damage`, WH-19, WH-B3, plus the Crit's Wound) and the
  chance that it goes down (WH-22).
- :func:`save_odds`: a save or skill check (WH-27, WH-28, WH-B7).

The exact one-on-one duel with fixed card plans is :mod:`affray.odds.witchhammer_duel`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from affray.odds.dist import die, map_dists, probability
from affray.rulesets.witchhammer.mechanics import (
    D20,
    SOLID_HIT,
    apply_damage,
    attack,
    defense_against,
    poise_damage,
    save,
)


@dataclass(frozen=True, slots=True)
class Blow:
    """What one attack roll does: damage (with bonuses), the Crit's Wound owed, and how it landed."""

    damage: int
    crit_wounds: int
    hit: bool
    solid: bool
    crit: bool
    fumble: bool


@cache
def blows(bonus: int, defense: int, on_hit: int = 0, solid_bonus: int = 0, *, clamp_margin: bool = False,
          solid_on: str = "base", crit_wound: str = "always") -> dict[Blow, Fraction]:
    """The distribution of one attack: ``attack(d20, bonus, defense)`` over the 20 faces.

    ``on_hit`` is damage added on a hit (a card's on-hit damage node), ``solid_bonus`` on a Solid Hit (the
    attacker's Damage on Solid Hit plus the card's on-Solid-Hit damage). ``solid_on`` and ``crit_wound`` are
    the options of WH-B5 and WH-B4. Rules: WH-15..WH-18.
    """

    def one(natural: int) -> Blow:
        r = attack(natural, bonus, defense, clamp_margin=clamp_margin)
        damage, solid = r.damage, r.solid
        if r.hit:
            damage += on_hit
            if solid_on == "total":
                solid = damage >= SOLID_HIT
            if solid:
                damage += solid_bonus
        owed = r.bonus_wounds if crit_wound == "always" or r.hit else 0
        return Blow(damage, owed, r.hit, solid, r.crit, r.fumble)

    return map_dists(one, die(D20))


def land(poise: int, health: int, blow: Blow, *, poise_only: bool = False, extra_penetration: bool = False
         ) -> tuple[int, int, int]:
    """``(poise, health, wounds)`` after ``blow`` lands on a target: damage through Poise (WH-19, WH-B3), or
    Poise only (WH-A8), then the Crit's Wound straight to Health (WH-B4). The engine's ``wounds.hurt``."""
    wounds = 0
    if blow.damage or blow.crit_wounds:
        if poise_only:
            poise = poise_damage(poise, blow.damage)
        else:
            poise, health, wounds = apply_damage(poise, health, blow.damage, extra_penetration=extra_penetration)
        health -= blow.crit_wounds
        wounds += blow.crit_wounds
    return poise, health, wounds


@dataclass(frozen=True, slots=True)
class AttackOdds:
    p_hit: Fraction
    p_solid_hit: Fraction
    p_crit: Fraction
    p_fumble: Fraction
    damage: dict[int, Fraction]  # over the whole roll: a miss (or a fumble) is 0
    wounds: dict[int, Fraction] | None = None  # with a target: Wounds, the Crit's Wound included
    p_down: Fraction | None = None


def attack_defense(defense: int, melee: bool = True, aspect_defense: int = 0, malus: int = 0,
                   rounding: str = "floor") -> int:
    """The target's Defense against the attack (WH-12..WH-14, WH-B16): the ruleset's ``defense_against``."""
    return defense_against(defense, aspect_defense, melee, malus, rounding)


def attack_odds(attack_bonus: int, defense: int, *, melee: bool = True, aspect_defense: int = 0,
                solid_bonus: int = 0, on_hit: int = 0, target: tuple[int, int] | None = None,
                clamp_margin: bool = False, solid_on: str = "base", crit_wound: str = "always",
                extra_penetration: bool = False, rounding: str = "floor", target_malus: int = 0) -> AttackOdds:
    """One attack: Attack bonus ``attack_bonus`` against normal Defense ``defense``. Rules: WH-13..WH-19.

    ``target`` is ``(poise, health)``: then the Wounds distribution and the chance that Health drops to 0 or
    below (WH-22). ``target_malus`` (0 or negative) lowers the target's Defense once (WH-12, WH-20).
    """
    value = attack_defense(defense, melee, aspect_defense, target_malus, rounding)
    dist = blows(attack_bonus, value, on_hit, solid_bonus, clamp_margin=clamp_margin, solid_on=solid_on,
                 crit_wound=crit_wound)
    damage = map_dists(lambda b: b.damage, dist)
    odds = AttackOdds(probability(dist, lambda b: b.hit), probability(dist, lambda b: b.solid),
                      probability(dist, lambda b: b.crit), probability(dist, lambda b: b.fumble), damage)
    if target is None:
        return odds
    poise, health = target
    after = map_dists(lambda b: land(poise, health, b, extra_penetration=extra_penetration), dist)
    wounds = map_dists(lambda r: r[2], after)
    p_down = probability(after, lambda r: r[1] <= 0)
    return AttackOdds(odds.p_hit, odds.p_solid_hit, odds.p_crit, odds.p_fumble, damage, wounds, p_down)


@dataclass(frozen=True, slots=True)
class CheckOdds:
    p_success: Fraction
    p_crit: Fraction
    p_fumble: Fraction


def save_odds(bonus: int, difficulty: int, malus: int = 0, crits: bool = True) -> CheckOdds:
    """A save or skill check: d20 + bonus + Malus (+-10 on a natural 20/1) >= difficulty. Rules: WH-27, WH-28,
    WH-B7."""
    dist = map_dists(lambda n: save(n, bonus, malus, difficulty, crits=crits), die(D20))
    return CheckOdds(probability(dist, lambda r: r.success), probability(dist, lambda r: r.natural == D20),
                     probability(dist, lambda r: r.natural == 1))
