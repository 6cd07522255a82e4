"""Exact odds for WaRP, mapped through the ruleset's own mechanic functions over enumerated d6 pools.

A WaRP roll is a pool of d6 with bonus or penalty dice (Rules: WR-01, WR-02, WR-B2, WR-B13). Its total does
not depend on the order of the faces, so :func:`roll_dist` enumerates the *multisets* of faces (3,003 for
ten dice instead of 60 million ordered throws), weights each by its number of orderings, and maps the
ruleset's :func:`~affray.rulesets.warp.mechanics.pool_total` (or ``pool_total_uncancelled``, ``keep_flags``
and ``botched`` for the options) over them. An attack then maps :func:`~affray.rulesets.warp.mechanics.hit`,
:func:`~affray.rulesets.warp.mechanics.damage` and :func:`~affray.rulesets.warp.mechanics.armour_absorb`
over the attack total, the defense total and the armour dice (WR-08..WR-11, WR-19, WR-22, WR-B4), or, for a
taser, :func:`~affray.rulesets.warp.mechanics.taser_damage` (all or nothing, WR-23, WR-B18).

The exact one-on-one melee duel is :mod:`affray.rulesets.warp.duel`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from affray.core.actions import Field
from affray.core.checks import Check, CheckResult, Params, checks, need
from affray.odds.dist import probability
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
    taser_damage,
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


Counts = tuple[int, dict[int, int]]  # (the number of equally likely throws, throws per outcome)


@cache
def faces_counts(count: int, sides: int = DIE) -> Counts:
    """The sum of ``count`` plain dice (armour, alternate damage: no bonus or penalty dice, WR-33), counted."""
    out: dict[int, int] = {}
    for faces, weight in multisets(count, sides):
        out[sum(faces)] = out.get(sum(faces), 0) + weight
    return sides**count, out


def faces_dist(count: int, sides: int = DIE) -> dict[int, Fraction]:
    """:func:`faces_counts` as probabilities."""
    total, counts = faces_counts(count, sides)
    return {k: Fraction(v, total) for k, v in counts.items()}


@cache
def roll_counts(
    dice: int, bonus: int = 0, penalty: int = 0, *, cancel: bool = True, botch: bool = False, full_die: bool = False
) -> Counts:
    """The total of a WaRP roll, counted over every throw (see :func:`roll_dist`)."""
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
    return DIE**thrown, out


def roll_dist(
    dice: int, bonus: int = 0, penalty: int = 0, *, cancel: bool = True, botch: bool = False, full_die: bool = False
) -> dict[int, Fraction]:
    """The total of a WaRP roll: ``dice`` d6 with ``bonus`` and ``penalty`` dice. Rules: WR-01, WR-02, WR-B2,
    WR-B12, WR-B13.

    ``cancel`` (WR-B2): bonus and penalty dice cancel one for one; ``botch`` (WR-B12): kept dice all showing 1
    count as 0; ``full_die`` (the WR-B13 misreading): bonus dice are summed as full dice. Blowing the Top Off
    has no finite distribution and is refused by the callers.
    """
    total, counts = roll_counts(dice, bonus, penalty, cancel=cancel, botch=botch, full_die=full_die)
    return {k: Fraction(v, total) for k, v in counts.items()}


@dataclass(frozen=True, slots=True)
class Armour:
    """Armour worn (WR-19, WR-22): regular dice and flat points, bullet-proof dice."""

    dice: int = 0
    points: int = 0
    bullet_dice: int = 0


@cache
def armour_counts(raw: int, armour: Armour, gunfire: bool = False) -> Counts:
    """Damage that gets through ``armour``: ``armour_absorb`` over every throw of the armour dice (and of the
    bullet-proof dice against gunfire). Rules: WR-19, WR-22, WR-B4."""
    total, regular = faces_counts(armour.dice)
    shots = [((1,) * armour.bullet_dice, 1)]  # against anything but gunfire only their count matters (WR-22)
    if armour.bullet_dice and gunfire:
        shots = list(multisets(armour.bullet_dice))
        total *= DIE**armour.bullet_dice
    out: dict[int, int] = {}
    for faces, weight in shots:
        for rolled, n in regular.items():
            k = armour_absorb(raw, rolled, armour.points, faces, gunfire) if raw > 0 else 0
            out[k] = out.get(k, 0) + n * weight
    return total, out


@dataclass(frozen=True, slots=True)
class AttackOdds:
    p_hit: Fraction
    damage: dict[int, Fraction]  # after armour, over the whole exchange (a miss is 0)
    p_down: Fraction | None = None


@cache
def exchange_dist(
    attack: tuple[int, int, int],
    defense: tuple[int, int, int],
    factor: int,
    armour: Armour,
    *,
    gunfire: bool = False,
    special: bool = False,
    alternate: bool = False,
    cancel: bool = True,
    botch: bool = False,
    full_die: bool = False,
    taser: bool = False,
) -> tuple[Fraction, dict[int, Fraction]]:
    """``(P(hit), damage after armour)`` for an attack roll ``(dice, bonus, penalty)`` against a defense roll.

    Rules: WR-08, WR-10 (a tie misses), WR-11 (margin x factor), WR-30 (special effect: half), WR-33 (the
    optional alternate damage: one d6 per point of factor, doubled at twice the defense), WR-19/WR-22/WR-B4.
    ``taser``: the armour's roll (dice, points and the bullet-proof rating, as against a normal attack) stops all
    of it if it reaches the margin, else the full damage gets through, temporary (WR-23, WR-29, WR-B18).
    Counted in throws (integers) and turned into fractions once at the end.
    """
    flags = {"cancel": cancel, "botch": botch, "full_die": full_die}
    den_a, attacks = roll_counts(*attack, **flags)
    den_d, defenses = roll_counts(*defense, **flags)
    den_x, extra = faces_counts(factor) if alternate else (1, {0: 1})
    den_r = armour_counts(0, armour, gunfire)[0]
    hits = 0
    out: dict[int, int] = {}
    for a, na in attacks.items():
        for d, nd in defenses.items():
            n = na * nd
            if not hit(a, d):
                out[0] = out.get(0, 0) + n * den_x * den_r
                continue
            hits += n
            if taser:
                _taser_branch(out, n, a, d, factor, armour, extra if alternate else None)
                continue
            for s, ns in extra.items():
                k = alternate_damage((s,), a, d) if alternate else damage(a, d, factor)
                k = special_damage(k) if special else k
                for t, nt in armour_counts(k, armour, gunfire)[1].items():
                    out[t] = out.get(t, 0) + n * ns * nt
    total = den_a * den_d * den_x * den_r
    return Fraction(hits, den_a * den_d), {k: Fraction(v, total) for k, v in out.items()}


def _taser_branch(
    out: dict[int, int], n: int, attack: int, defense: int, factor: int, armour: Armour, extra: dict[int, int] | None
) -> None:
    """Add a taser hit's damage, counted over the alternate damage dice (``extra``, or none) and the armour dice,
    to ``out`` (WR-23, WR-B18)."""
    for s, ns in (extra or {0: 1}).items():
        for rolled, nr in faces_counts(armour.dice)[1].items():
            stopping = rolled + armour.points + armour.bullet_dice
            k = taser_damage(attack, defense, stopping, factor, None if extra is None else (s,))
            out[k] = out.get(k, 0) + n * ns * nr


def attack_odds(
    attack_dice: int,
    defense_dice: int,
    *,
    attack_bonus: int = 0,
    attack_penalty: int = 0,
    defense_bonus: int = 0,
    defense_penalty: int = 0,
    factor: int = 1,
    armour: Armour = Armour(),
    gunfire: bool = False,
    special: bool = False,
    alternate: bool = False,
    target_hp: int | None = None,
    cancel: bool = True,
    botch: bool = False,
    taser: bool = False,
) -> AttackOdds:
    """One attack: the chance of a hit and the damage distribution after armour; with ``target_hp`` the chance
    the target is down for the count (HP <= 0 counting temporary damage, WR-25, WR-29). Rules: WR-08..WR-11,
    WR-19, WR-22, WR-23, WR-30, WR-33, WR-B18."""
    p_hit, dist = exchange_dist(
        (attack_dice, attack_bonus, attack_penalty),
        (defense_dice, defense_bonus, defense_penalty),
        factor,
        armour,
        gunfire=gunfire,
        special=special,
        alternate=alternate,
        cancel=cancel,
        botch=botch,
        taser=taser,
    )
    p_down = None if target_hp is None else probability(dist, lambda k: target_hp - k <= 0)
    return AttackOdds(p_hit, dist, p_down)


_COUNTS = (
    "attack",
    "defense",
    "attack_bonus",
    "attack_penalty",
    "defense_bonus",
    "defense_penalty",
    "armour_dice",
    "armour_points",
    "bullet_dice",
)


def _attack_valid(p: Params) -> None:
    attack, defense, factor = p["attack"], p["defense"], p["factor"]
    need(min(p[k] for k in _COUNTS) >= 0, "Dice counts and armour points cannot be negative.")
    need(attack >= 1, f"--attack is the attack trait's dice, at least 1 (2 without a trait, WR-03; got {attack}).")
    need(
        defense >= 1,
        f"--defense is the defense roll's dice, at least 1 (2 without a trait, WR-03; the GM's "
        f"distance dice start at 1, WR-15; got {defense}).",
    )
    need(factor >= 0, "--factor cannot be negative (WR-12).")
    for label, n in (
        ("attack", attack + p["attack_bonus"] + p["attack_penalty"]),
        ("defense", defense + p["defense_bonus"] + p["defense_penalty"]),
    ):
        need(n <= MAX_THROWN, f"The {label} throws {n} dice; at most {MAX_THROWN} can be enumerated exactly.")
    need(
        p["armour_dice"] <= MAX_THROWN
        and p["bullet_dice"] <= MAX_THROWN
        and (not p["alternate_damage"] or factor <= MAX_THROWN),
        f"At most {MAX_THROWN} armour or damage dice can be enumerated exactly.",
    )
    need(
        p["target_hp"] is None or p["target_hp"] >= 1, "--target-hp must be at least 1 (the target is still fighting)."
    )
    need(
        not (p["taser"] and (p["gunfire"] or p["special"])),
        "A taser is neither a firearm nor a special-effect attack (WR-23): drop --gunfire and --special.",
    )


def _attack(p: Params) -> CheckResult:
    odds = attack_odds(
        p["attack"],
        p["defense"],
        attack_bonus=p["attack_bonus"],
        attack_penalty=p["attack_penalty"],
        defense_bonus=p["defense_bonus"],
        defense_penalty=p["defense_penalty"],
        factor=p["factor"],
        armour=Armour(p["armour_dice"], p["armour_points"], p["bullet_dice"]),
        gunfire=p["gunfire"],
        special=p["special"],
        alternate=p["alternate_damage"],
        target_hp=p["target_hp"],
        cancel=not p["no_cancel"],
        botch=p["botch"],
        taser=p["taser"],
    )
    probs = {"p_hit": odds.p_hit} | ({"p_down": odds.p_down} if odds.p_down is not None else {})
    return CheckResult(
        f"WaRP attack: {p['attack']} dice against {p['defense']} dice, factor x{p['factor']}",
        probs,
        {"damage": odds.damage},
    )


def _opt(name: str, description: str, default: int | bool | None = 0) -> Field:
    return Field(
        name, "boolean" if isinstance(default, bool) else "integer", description, required=False, default=default
    )


#: The exact single checks (``affray odds warp CHECK``), declared with their parameters.
CHECKS = checks(
    Check(
        "attack",
        "One attack: the chance of a hit (attack > defense) and the damage after armour (WR-08..WR-11, WR-19).",
        (
            "WR-03",
            "WR-08",
            "WR-09",
            "WR-10",
            "WR-11",
            "WR-12",
            "WR-19",
            "WR-22",
            "WR-23",
            "WR-30",
            "WR-33",
            "WR-B2",
            "WR-B12",
            "WR-B18",
        ),
        (
            Field("attack", "integer", "the attack trait's dice (2 without one, WR-03)"),
            Field("defense", "integer", "the defense roll's dice"),
            _opt("attack_bonus", "bonus dice on the attack"),
            _opt("attack_penalty", "penalty dice on the attack"),
            _opt("defense_bonus", "bonus dice on the defense"),
            _opt("defense_penalty", "penalty dice on the defense"),
            _opt("factor", "the weapon's damage factor (WR-12)", 1),
            _opt("armour_dice", "regular armour dice (WR-19)"),
            _opt("armour_points", "flat armour points (WR-19)"),
            _opt("bullet_dice", "bullet-proof armour dice (WR-22)"),
            _opt("gunfire", "a firearm: regular armour halves (WR-22)", False),
            _opt("special", "a special-effect attack: half damage (WR-30)", False),
            _opt("alternate_damage", "WR-33: a d6 per point of factor", False),
            _opt("taser", "a taser: all or nothing against armour, temporary (WR-23, WR-B18)", False),
            _opt("target_hp", "the target's current HP", None),
            _opt("no_cancel", "bonus and penalty dice do not cancel (WR-B2's alternative)", False),
            _opt("botch", "OtE 2e Botch (WR-B12)", False),
        ),
        _attack,
        _attack_valid,
    )
)
