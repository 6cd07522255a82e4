"""WitchHammer mechanics as pure functions of rolled numbers (DESIGN.md, contract 3).

Live play samples the dice and calls these; exact odds map the same functions over the 20 faces of a d20;
simulation calls them millions of times. Nothing here rolls, mutates or knows about a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

D20 = 20
HIT_THRESHOLD = 10  # Rule: WH-16 (a hit needs a value over 10)
SOLID_HIT = 10  # Rule: WH-16 (a Solid Hit is 10 damage or more)
CRIT_BONUS = 10  # Rule: WH-17
FUMBLE_PENALTY = -10  # Rule: WH-17
BEHIND_BONUS = 5  # Rule: WH-25
FLANK_BONUS = 4  # Rule: WH-26
AFFLICTION_TRIGGER = 5  # Rule: WH-23 (5 or more Wounds from one attack)

#: Rule: WH-10. Spaces (Chebyshev) for each range band; close means adjacent.
RANGES = {"close": 1, "short": 5, "medium": 10, "long": 20}

#: Rules: WH-27, WH-28. The difficulty ladder for saves and skill checks.
DIFFICULTY = {"picnic": 1, "easy": 5, "medium": 10, "hard": 15, "extremely_hard": 20}

#: Rules: WH-23, WH-B1. Index 11..30 of the affliction table (the seed's second "20" is 29).
AFFLICTIONS: tuple[str, ...] = (
    "Eye Scar",
    "Cheek Scar",
    "Scalp Scar",
    "Badly Broken Nose",
    "Lost some teeth",
    "Lip Scar",
    "Giant chest scar",
    "Giant back scar",
    "Lost a finger tip",
    "Nose tip missing",
    "Ear half cut off",
    "Broken leg",
    "Broken forearm",
    "Large strip of skin ripped off",
    "Punctured lung",
    "Lost an ear",
    "Lost a nose",
    "Lost an eye",
    "Lost a foot",
    "Lost a hand",
)


def crit_adjustment(natural: int) -> int:
    """+10 on a natural 20 (Crit), -10 on a natural 1 (Fumble), else 0. Rule: WH-17."""
    if natural == D20:
        return CRIT_BONUS
    return FUMBLE_PENALTY if natural == 1 else 0


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One attack roll resolved. Rules: WH-15..WH-18, WH-B2, WH-B4.

    ``damage`` is the base damage (value - 10 when the value is over 10, never on a fumble); ``solid``
    is decided on it (WH-B5). ``bonus_wounds`` is the Crit's extra Wound, owed whatever else happens.
    """

    natural: int
    value: int
    damage: int
    hit: bool
    solid: bool
    crit: bool
    fumble: bool
    bonus_wounds: int


def attack(
    natural_d20: int, attack_bonus: int, defense: int, *, crits: bool = True, clamp_margin: bool = False
) -> AttackResult:
    """Attack value = (attack bonus - defense) + d20 + crit adjustment. Rules: WH-15, WH-16, WH-17, WH-B2.

    A hit needs a value strictly over 10 and deals value - 10; a Solid Hit is 10 damage or more. A natural 1
    deals no damage even when the value is still over 10 (WH-B4). ``clamp_margin`` (off by the ruling)
    clamps attack - defense at 0 first.
    """
    margin = attack_bonus - defense
    if clamp_margin and margin < 0:
        margin = 0
    crit = natural_d20 == D20
    fumble = natural_d20 == 1
    value = margin + natural_d20 + (crit_adjustment(natural_d20) if crits else 0)
    damage = value - HIT_THRESHOLD if value > HIT_THRESHOLD and not fumble else 0
    return AttackResult(natural_d20, value, damage, damage >= 1, damage >= SOLID_HIT, crit, fumble, 1 if crit else 0)


@lru_cache(maxsize=4096)
def attack_roll(natural_d20: int, margin: int, clamp_margin: bool = False) -> AttackResult:
    """:func:`attack` with ``margin`` = attack bonus - defense, which is all it depends on; cached for the engine
    loop (a result is frozen, so sharing it is safe). Rules: WH-15..WH-18."""
    return attack(natural_d20, margin, 0, clamp_margin=clamp_margin)


def penetration(damage: int) -> int:
    """The tens digit of the damage, which goes straight to Health. Rules: WH-19, WH-B3."""
    return damage // 10 if damage > 0 else 0


def apply_damage(poise: int, health: int, damage: int, *, extra_penetration: bool = False) -> tuple[int, int, int]:
    """Damage through Poise to Health; returns ``(poise, health, wounds)``. Rules: WH-19, WH-B3.

    Penetration (the tens digit) goes straight to Health and is taken out of the total; the rest comes off
    Poise, and what Poise cannot absorb goes to Health. Poise never drops below 0; Health may.
    ``extra_penetration`` is the other reading of WH-B3 (the tens digit added on top of the total).
    """
    if damage <= 0:
        return poise, health, 0
    pierce = penetration(damage)
    rest = damage if extra_penetration else damage - pierce
    absorbed = rest if rest < poise else poise
    overflow = rest - absorbed
    wounds = pierce + overflow
    return poise - absorbed, health - wounds, wounds


def poise_damage(poise: int, damage: int) -> int:
    """Poise after damage that only touches Poise (no penetration, no overflow). Rule: WH-A8."""
    return poise - damage if damage < poise else 0


def malus_groups(max_health: int) -> list[int]:
    """Max Health split into 10 groups, larger groups first (empty groups last). Rules: WH-20, WH-B6."""
    return [max_health // 10 + (1 if i < max_health % 10 else 0) for i in range(10)]


def malus(max_health: int, wounds: int) -> int:
    """The Health-loss Malus as a modifier (0 or negative): -1 per group emptied. Rules: WH-20, WH-B6.

    Health 14: wounds 0..14 give 0,0,-1,-1,-2,-2,-3,-3,-4,-5,-6,-7,-8,-9,-10.
    """
    if wounds <= 0:
        return 0
    total = 0
    emptied = 0
    for size in malus_groups(max_health):
        total += size
        if total <= wounds:
            emptied += 1
    return -emptied


@cache
def malus_table(max_health: int) -> tuple[int, ...]:
    """``malus(max_health, w)`` for w = 0..max_health, for fast lookup in the engine loop."""
    return tuple(malus(max_health, w) for w in range(max_health + 1))


def halve(defense: int, rounding: str = "floor") -> int:
    """Half the normal Defense for a non-melee attack. Rules: WH-13, WH-B16 (floor toward minus infinity)."""
    if rounding == "floor":
        return defense // 2
    return int(defense / 2)


def defense_against(normal: int, aspect_defense: int, melee: bool, malus_mod: int = 0, rounding: str = "floor") -> int:
    """The target's Defense against one attack. Rules: WH-12, WH-13, WH-14, WH-B16.

    Melee: normal Defense + the matching aspect Defenses. Non-melee: half the normal Defense (rounded per
    WH-B16) + the full matching aspect Defenses. The Malus (a modifier, 0 or negative) is applied once.
    """
    base = normal if melee else halve(normal, rounding)
    return base + aspect_defense + malus_mod


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A save or skill check: d20 + bonus + malus (+ crit adjustment) against a difficulty. Rules: WH-27, WH-28."""

    natural: int
    total: int
    difficulty: int
    success: bool


def save(natural: int, bonus: int, malus_mod: int, difficulty: int, *, crits: bool = True) -> CheckResult:
    """A save: d20 + the matching Defense + the Malus (0 or negative) >= difficulty. Rules: WH-27, WH-B7."""
    total = natural + bonus + malus_mod + (crit_adjustment(natural) if crits else 0)
    return CheckResult(natural, total, difficulty, total >= difficulty)


@lru_cache(maxsize=4096)
def save_roll(natural: int, bonus: int, malus_mod: int, difficulty: int, crits: bool) -> CheckResult:
    """:func:`save`, cached for the engine loop like :func:`attack_roll`: a pure function of five small numbers whose
    result is frozen, so sharing it is safe. Rules: WH-27, WH-B7."""
    return save(natural, bonus, malus_mod, difficulty, crits=crits)


def skill_check(
    natural: int, skill: int, difficulty: int = DIFFICULTY["medium"], malus_mod: int = 0, *, crits: bool = True
) -> CheckResult:
    """A skill check: d20 + skill bonus (+ Malus) >= difficulty; default Medium (10). Rules: WH-28, WH-B7."""
    return save(natural, skill, malus_mod, difficulty, crits=crits)


def deaths_door_difficulty(health: int) -> int:
    """The death's-door target: 1 - current Health (12 at -11 Health). Rules: WH-29, WH-B8."""
    return DIFFICULTY["picnic"] - health


def deaths_door(natural: int, con_defense: int, health: int, malus_mod: int = 0, *, crits: bool = True) -> CheckResult:
    """The death's-door Con save: success if d20 + Con Defense >= 1 - Health. Rules: WH-29, WH-B8.

    The ruling applies no Malus; pass ``malus_mod`` to apply one (option ``deaths_door_malus``).
    """
    return save(natural, con_defense, malus_mod, deaths_door_difficulty(health), crits=crits)


def affliction(roll_total: int) -> str | None:
    """The affliction table: ``None`` for 10 or less, the entry for 11..30, Lost a hand above. Rules: WH-23, WH-B1."""
    if roll_total <= HIT_THRESHOLD:
        return None
    return AFFLICTIONS[min(roll_total, 30) - 11]


def heal(health: int, max_health: int, days: int, resting: bool = False) -> int:
    """Health after ``days`` of healing: 2 a day, 3 a day resting in comfort, up to max. Rule: WH-30."""
    if days <= 0:
        return health
    return min(max_health, health + days * (3 if resting else 2))


def initiative(card_init: int, base_init: int, malus_mod: int = 0) -> int:
    """The card's Init + the character's base Init + the Malus (0 or negative). Rule: WH-06."""
    return card_init + base_init + malus_mod


def in_range(distance: int, band: str) -> bool:
    """Whether a target ``distance`` spaces away is within a range band. Rules: WH-09, WH-10."""
    return distance <= RANGES[band]


def expected_damage(attack_bonus: int, defense: int, solid_bonus: int = 0, *, crits: bool = True) -> float:
    """Mean damage of one attack over the 20 faces of a d20, with ``solid_bonus`` added on a Solid Hit.

    The exact map of :func:`attack` over the die (used by the heuristic policy and exact odds). Rule: WH-16.
    """
    total = 0
    for natural in range(1, D20 + 1):
        r = attack(natural, attack_bonus, defense, crits=crits)
        total += r.damage + (solid_bonus if r.solid else 0)
    return total / D20
