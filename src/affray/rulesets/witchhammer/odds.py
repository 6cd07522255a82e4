"""Exact odds for WitchHammer, mapped through the ruleset's own mechanic functions over the 20 faces of a d20.

- :func:`blows`: one attack roll (Rules: WH-15..WH-18, WH-B2, WH-B4, WH-B5): every face of the d20 through
  :func:`~affray.rulesets.witchhammer.mechanics.attack`, with the on-hit and Solid-Hit bonus damage added the
  way the engine adds them (``attack.strike``).
- :func:`attack_odds`: the chance of a hit, a Solid Hit, a Crit and a Fumble, the damage distribution over the
  whole roll (a miss is 0), and against a target with Poise and Health the Wounds distribution
  (:func:`~affray.rulesets.witchhammer.mechanics.apply_damage`, WH-19, WH-B3, plus the Crit's Wound) and the
  chance that it goes down (WH-22).
- :func:`save_odds`: a save or skill check (WH-27, WH-28, WH-B7).

The exact one-on-one duel with fixed card plans is :mod:`affray.rulesets.witchhammer.duel`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from affray.core.actions import Field, FieldKind
from affray.core.checks import Check, CheckResult, Params, checks, need
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


class Blow(NamedTuple):
    """What one attack roll does: damage (with bonuses), the Crit's Wound owed, and how it landed (a named
    tuple: made 20 times per check, so cheap to make and to hash)."""

    damage: int
    crit_wounds: int
    hit: bool
    solid: bool
    crit: bool
    fumble: bool


@cache
def blow_counts(
    bonus: int,
    defense: int,
    on_hit: int = 0,
    solid_bonus: int = 0,
    *,
    clamp_margin: bool = False,
    solid_on: str = "base",
    crit_wound: str = "always",
) -> tuple[tuple[Blow, int], ...]:
    """One attack as ``(blow, faces)`` pairs: ``attack(d20, bonus, defense)`` on each of the 20 faces, the
    faces that give the same blow counted together (out of 20).

    ``on_hit`` is damage added on a hit (a card's on-hit damage node), ``solid_bonus`` on a Solid Hit (the
    attacker's Damage on Solid Hit plus the card's on-Solid-Hit damage). ``solid_on`` and ``crit_wound`` are
    the options of WH-B5 and WH-B4. Rules: WH-15..WH-18.
    """
    counts: dict[Blow, int] = {}
    for natural in range(1, D20 + 1):
        r = attack(natural, bonus, defense, clamp_margin=clamp_margin)
        damage, solid = r.damage, r.solid
        if r.hit:
            damage += on_hit
            if solid_on == "total":
                solid = damage >= SOLID_HIT
            if solid:
                damage += solid_bonus
        owed = r.bonus_wounds if crit_wound == "always" or r.hit else 0
        blow = Blow(damage, owed, r.hit, solid, r.crit, r.fumble)
        counts[blow] = counts.get(blow, 0) + 1
    return tuple(counts.items())


def blows(
    bonus: int,
    defense: int,
    on_hit: int = 0,
    solid_bonus: int = 0,
    *,
    clamp_margin: bool = False,
    solid_on: str = "base",
    crit_wound: str = "always",
) -> dict[Blow, Fraction]:
    """The distribution of one attack (:func:`blow_counts` as probabilities)."""
    pairs = blow_counts(
        bonus, defense, on_hit, solid_bonus, clamp_margin=clamp_margin, solid_on=solid_on, crit_wound=crit_wound
    )
    return {b: Fraction(n, D20) for b, n in pairs}


def land(
    poise: int, health: int, blow: Blow, *, poise_only: bool = False, extra_penetration: bool = False
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


def attack_defense(
    defense: int, melee: bool = True, aspect_defense: int = 0, malus: int = 0, rounding: str = "floor"
) -> int:
    """The target's Defense against the attack (WH-12..WH-14, WH-B16): the ruleset's ``defense_against``."""
    return defense_against(defense, aspect_defense, melee, malus, rounding)


def attack_odds(
    attack_bonus: int,
    defense: int,
    *,
    melee: bool = True,
    aspect_defense: int = 0,
    solid_bonus: int = 0,
    on_hit: int = 0,
    target: tuple[int, int] | None = None,
    clamp_margin: bool = False,
    solid_on: str = "base",
    crit_wound: str = "always",
    extra_penetration: bool = False,
    rounding: str = "floor",
    target_malus: int = 0,
) -> AttackOdds:
    """One attack: Attack bonus ``attack_bonus`` against normal Defense ``defense``. Rules: WH-13..WH-19.

    ``target`` is ``(poise, health)``: then the Wounds distribution and the chance that Health drops to 0 or
    below (WH-22). ``target_malus`` (0 or negative) lowers the target's Defense once (WH-12, WH-20), after a
    non-melee attack has halved the normal Defense: the Malus itself is never halved (WH-B16).
    """
    value = attack_defense(defense, melee, aspect_defense, target_malus, rounding)
    pairs = blow_counts(
        attack_bonus, value, on_hit, solid_bonus, clamp_margin=clamp_margin, solid_on=solid_on, crit_wound=crit_wound
    )
    # counted in faces of the d20 (integers), turned into fractions once at the end
    hit = solid = crit = fumble = down = 0
    damage: dict[int, int] = {}
    wounds: dict[int, int] = {}
    for blow, n in pairs:
        hit += n * blow.hit
        solid += n * blow.solid
        crit += n * blow.crit
        fumble += n * blow.fumble
        damage[blow.damage] = damage.get(blow.damage, 0) + n
        if target is not None:
            _, health, w = land(target[0], target[1], blow, extra_penetration=extra_penetration)
            wounds[w] = wounds.get(w, 0) + n
            down += n * (health <= 0)

    def dist(counts: dict[int, int]) -> dict[int, Fraction]:
        return {k: Fraction(v, D20) for k, v in counts.items()}

    odds = (Fraction(hit, D20), Fraction(solid, D20), Fraction(crit, D20), Fraction(fumble, D20), dist(damage))
    if target is None:
        return AttackOdds(*odds)
    return AttackOdds(*odds, dist(wounds), Fraction(down, D20))


@dataclass(frozen=True, slots=True)
class CheckOdds:
    p_success: Fraction
    p_crit: Fraction
    p_fumble: Fraction


def save_odds(bonus: int, difficulty: int, malus: int = 0, crits: bool = True) -> CheckOdds:
    """A save or skill check: d20 + bonus + Malus (+-10 on a natural 20/1) >= difficulty. Rules: WH-27, WH-28,
    WH-B7."""
    dist = map_dists(lambda n: save(n, bonus, malus, difficulty, crits=crits), die(D20))
    return CheckOdds(
        probability(dist, lambda r: r.success),
        probability(dist, lambda r: r.natural == D20),
        probability(dist, lambda r: r.natural == 1),
    )


def _attack_valid(p: Params) -> None:
    need(
        (p["target_poise"] is None) == (p["target_health"] is None),
        "Give both --target-poise and --target-health, or neither.",
    )
    need(p["target_poise"] is None or p["target_poise"] >= 0, "--target-poise cannot be negative.")
    need(
        p["target_health"] is None or p["target_health"] >= 1, "--target-health must be at least 1 (the target is up)."
    )
    need(p["crit_wound"] in ("always", "on_hit"), "--crit-wound is 'always' or 'on_hit' (WH-B4).")
    need(p["solid_on"] in ("base", "total"), "--solid-on is 'base' or 'total' (WH-B5).")
    need(p["solid_bonus"] >= 0 and p["on_hit"] >= 0, "Bonus damage cannot be negative.")
    need(p["target_malus"] <= 0, "--target-malus is 0 or negative (WH-20).")


def _attack(p: Params) -> CheckResult:
    poise, health = p["target_poise"], p["target_health"]
    odds = attack_odds(
        p["attack"],
        p["defense"],
        melee=not p["non_melee"],
        aspect_defense=p["aspect_defense"],
        solid_bonus=p["solid_bonus"],
        on_hit=p["on_hit"],
        target=None if poise is None or health is None else (poise, health),
        crit_wound=p["crit_wound"],
        solid_on=p["solid_on"],
        extra_penetration=p["extra_penetration"],
        target_malus=p["target_malus"],
    )
    probs = {"p_hit": odds.p_hit, "p_solid_hit": odds.p_solid_hit, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble}
    dists: dict[str, Mapping[int, Fraction]] = {"damage": odds.damage}
    if odds.wounds is not None and odds.p_down is not None:
        probs["p_down"] = odds.p_down
        dists["wounds"] = odds.wounds
    malus = p["target_malus"]
    against = f"Defense {p['defense']}" + (f" with Malus {malus}" if malus else "")
    return CheckResult(f"WitchHammer attack: d20 {p['attack']:+d} against {against}", probs, dists)


def _save(p: Params) -> CheckResult:
    odds = save_odds(p["bonus"], p["difficulty"], p["malus"], not p["no_crits"])
    return CheckResult(
        f"WitchHammer save: d20 {p['bonus'] + p['malus']:+d} against {p['difficulty']}",
        {"p_success": odds.p_success, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble},
    )


def _opt(name: str, kind: FieldKind, description: str, default: Any = 0, **more: Any) -> Field:
    return Field(name, kind, description, required=False, default=default, **more)


def _save_valid(p: Params) -> None:
    need(p["malus"] <= 0, "--malus is 0 or negative (WH-20).")


#: The exact single checks (``affray odds witchhammer CHECK``), declared with their parameters.
CHECKS = checks(
    Check(
        "attack",
        "One attack: the chance of a hit, a Solid Hit, a Crit, a Fumble; damage; with a target its "
        "Wounds and the chance it goes down (WH-13..WH-22).",
        (
            "WH-11",
            "WH-12",
            "WH-13",
            "WH-14",
            "WH-15",
            "WH-16",
            "WH-17",
            "WH-18",
            "WH-19",
            "WH-20",
            "WH-21",
            "WH-22",
            "WH-B3",
            "WH-B4",
            "WH-B5",
            "WH-B16",
        ),
        (
            Field("attack", "integer", "the total Attack bonus (card + character + bonuses - Malus, WH-11)"),
            Field("defense", "integer", "the target's normal Defense (card + character, WH-12)"),
            _opt(
                "non_melee", "boolean", "a ranged, breath or gas attack: half the normal Defense (WH-13, WH-B16)", False
            ),
            _opt("aspect_defense", "integer", "the matching aspect Defenses (WH-13, WH-14)"),
            _opt("solid_bonus", "integer", "damage added on a Solid Hit (WH-18, WH-B5)"),
            _opt("on_hit", "integer", "damage added on any hit"),
            _opt("target_poise", "integer", "the target's current Poise", None),
            _opt("target_health", "integer", "the target's current Health", None),
            _opt(
                "target_malus",
                "integer",
                "the target's Malus, 0 or negative: lowers its Defense once, never halved (WH-12, WH-20, WH-B16)",
            ),
            _opt("crit_wound", "choice", "WH-B4: always or on_hit", "always", choices=("always", "on_hit")),
            _opt("solid_on", "choice", "WH-B5: base or total", "base", choices=("base", "total")),
            _opt("extra_penetration", "boolean", "WH-B3's other reading", False),
        ),
        _attack,
        _attack_valid,
    ),
    Check(
        "save",
        "A save or skill check: d20 + bonus + Malus >= difficulty, +-10 on a natural 20/1 (WH-27, WH-28, WH-B7).",
        ("WH-20", "WH-27", "WH-28", "WH-B7"),
        (
            Field("bonus", "integer", "the matching Defense or skill"),
            Field("difficulty", "integer", "1, 5, 10, 15, 20 (WH-27)"),
            _opt("malus", "integer", "the Malus, 0 or negative (WH-20)"),
            _opt("no_crits", "boolean", "no +-10 on 20/1 (WH-B7)", False),
        ),
        _save,
        _save_valid,
    ),
)
