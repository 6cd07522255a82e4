"""Exact odds for WaRP, mapped through the ruleset's own mechanic functions over enumerated d6 pools.

A WaRP roll is a pool of d6 with bonus or penalty dice (Rules: WR-01, WR-02, WR-B2, WR-B13). Its total does
not depend on the order of the faces, so :func:`roll_dist` enumerates the *multisets* of faces (3,003 for
ten dice instead of 60 million ordered throws), weights each by its number of orderings, and maps the
ruleset's :func:`~affray.rulesets.warp.mechanics.pool_total` (or ``pool_total_uncancelled``, ``keep_flags``
and ``botched`` for the options) over them. An attack then maps :func:`~affray.rulesets.warp.mechanics.hit`,
:func:`~affray.rulesets.warp.mechanics.damage` and :func:`~affray.rulesets.warp.mechanics.armour_absorb`
over the attack total, the defense total and the armour dice (WR-08..WR-11, WR-19, WR-22, WR-B4).

The exact one-on-one melee duel is :mod:`affray.odds.warp_duel`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from affray.odds.dist import map_dists, probability
from affray.rulesets.warp.mechanics import (
    DIE,
    alternate_damage,
    armour_absorb,
    botched,
    damage,
    hit,
    keep_flags,
    pool_total,
    pool_total_uncancelled,
    special_damage,
)

MAX_THROWN = 14  # multisets of 14 d6: 11,628; beyond that a roll is refused rather than enumerated slowly


def multisets(count: int, sides: int = DIE) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every multiset of ``count`` faces (sorted) with the number of ordered throws that give it."""
    top = math.factorial(count)
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), count):
        weight = top
        for n in Counter(faces).values():
            weight //= math.factorial(n)
        yield faces, weight


@cache
def faces_dist(count: int, sides: int = DIE) -> dict[int, Fraction]:
    """The sum of ``count`` plain dice (armour, alternate damage: no bonus or penalty dice, WR-33)."""
    if count == 0:
        return {0: Fraction(1)}
    total = sides**count
    out: dict[int, int] = {}
    for faces, weight in multisets(count, sides):
        out[sum(faces)] = out.get(sum(faces), 0) + weight
    return {k: Fraction(v, total) for k, v in out.items()}


@cache
def roll_dist(dice: int, bonus: int = 0, penalty: int = 0, *, cancel: bool = True, botch: bool = False,
              full_die: bool = False) -> dict[int, Fraction]:
    """The total of a WaRP roll: ``dice`` d6 with ``bonus`` and ``penalty`` dice. Rules: WR-01, WR-02, WR-B2,
    WR-B12, WR-B13.

    ``cancel`` (WR-B2): bonus and penalty dice cancel one for one; ``botch`` (WR-B12): kept dice all showing 1
    count as 0; ``full_die`` (the WR-B13 misreading): bonus dice are summed as full dice. Blowing the Top Off
    has no finite distribution and is refused by the callers.
    """
    if min(dice, bonus, penalty) < 0:
        raise ValueError("dice, bonus and penalty dice cannot be negative")
    if full_die:
        dice, bonus = dice + bonus, 0
    if cancel:
        net = bonus - penalty
        bonus, penalty = max(net, 0), max(-net, 0)
    thrown = dice + bonus + penalty
    if thrown > MAX_THROWN:
        raise ValueError(f"a roll of {thrown} dice is too large to enumerate exactly (at most {MAX_THROWN})")
    if thrown == 0:
        return {0: Fraction(1)}
    out: dict[int, int] = {}
    for faces, weight in multisets(thrown):
        if cancel:
            total = pool_total(faces, dice, bonus - penalty)
        else:
            total = pool_total_uncancelled(faces, dice, bonus, penalty)
        if botch:
            kept = [f for f, k in zip(faces, keep_flags(faces, bonus, penalty), strict=True) if k]
            if botched(kept):
                total = 0
        out[total] = out.get(total, 0) + weight
    return {k: Fraction(v, DIE**thrown) for k, v in out.items()}


@dataclass(frozen=True, slots=True)
class Armour:
    """Armour worn (WR-19, WR-22): regular dice and flat points, bullet-proof dice."""

    dice: int = 0
    points: int = 0
    bullet_dice: int = 0


@cache
def through_armour(raw: int, armour: Armour, gunfire: bool = False) -> dict[int, Fraction]:
    """Damage that gets through ``armour``: ``armour_absorb`` over the armour dice. Rules: WR-19, WR-22, WR-B4."""
    if raw <= 0:
        return {0: Fraction(1)}
    regular = faces_dist(armour.dice)
    if armour.bullet_dice and gunfire:
        out: dict[int, Fraction] = {}
        total = DIE**armour.bullet_dice
        for faces, weight in multisets(armour.bullet_dice):
            for rolled, p in regular.items():
                k = armour_absorb(raw, rolled, armour.points, faces, True)
                out[k] = out.get(k, Fraction(0)) + p * Fraction(weight, total)
        return out
    bullets = (1,) * armour.bullet_dice  # against anything but gunfire only their count matters (WR-22)
    return map_dists(lambda rolled: armour_absorb(raw, rolled, armour.points, bullets, gunfire), regular)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    p_hit: Fraction
    damage: dict[int, Fraction]  # after armour, over the whole exchange (a miss is 0)
    p_down: Fraction | None = None


@cache
def exchange_dist(attack: tuple[int, int, int], defense: tuple[int, int, int], factor: int, armour: Armour,
                  *, gunfire: bool = False, special: bool = False, alternate: bool = False, cancel: bool = True,
                  botch: bool = False, full_die: bool = False) -> tuple[Fraction, dict[int, Fraction]]:
    """``(P(hit), damage after armour)`` for an attack roll ``(dice, bonus, penalty)`` against a defense roll.

    Rules: WR-08, WR-10 (a tie misses), WR-11 (margin x factor), WR-30 (special effect: half), WR-33 (the
    optional alternate damage: one d6 per point of factor, doubled at twice the defense), WR-19/WR-22/WR-B4.
    """
    flags = {"cancel": cancel, "botch": botch, "full_die": full_die}
    totals = map_dists(lambda a, d: (a, d), roll_dist(*attack, **flags), roll_dist(*defense, **flags))
    p_hit = probability(totals, lambda ad: hit(*ad))
    raw: dict[int, Fraction] = {}
    for (a, d), p in totals.items():
        if not hit(a, d):
            raw[0] = raw.get(0, Fraction(0)) + p
            continue
        parts = (map_dists(lambda s, a=a, d=d: alternate_damage((s,), a, d), faces_dist(factor))
                 if alternate else {damage(a, d, factor): Fraction(1)})
        for k, q in parts.items():
            k = special_damage(k) if special else k
            raw[k] = raw.get(k, Fraction(0)) + p * q
    out: dict[int, Fraction] = {}
    for k, p in raw.items():
        for t, q in through_armour(k, armour, gunfire).items():
            out[t] = out.get(t, Fraction(0)) + p * q
    return p_hit, out


def attack_odds(attack_dice: int, defense_dice: int, *, attack_bonus: int = 0, attack_penalty: int = 0,
                defense_bonus: int = 0, defense_penalty: int = 0, factor: int = 1, armour: Armour = Armour(),
                gunfire: bool = False, special: bool = False, alternate: bool = False, target_hp: int | None = None,
                cancel: bool = True, botch: bool = False) -> AttackOdds:
    """One attack: the chance of a hit and the damage distribution after armour; with ``target_hp`` the chance
    the target is down for the count (HP <= 0, WR-25). Rules: WR-08..WR-11, WR-19, WR-22, WR-30, WR-33."""
    p_hit, dist = exchange_dist((attack_dice, attack_bonus, attack_penalty),
                                (defense_dice, defense_bonus, defense_penalty), factor, armour, gunfire=gunfire,
                                special=special, alternate=alternate, cancel=cancel, botch=botch)
    p_down = None if target_hp is None else probability(dist, lambda k: target_hp - k <= 0)
    return AttackOdds(p_hit, dist, p_down)
