"""WaRP mechanics as pure functions of rolled numbers (DESIGN.md, contract 3).

Live play samples the dice and calls these; exact odds enumerate the dice (icepool or itertools) and map
the same functions; simulation calls them in a loop. Nothing here rolls, mutates or knows about a match.
Every function cites the rule it implements (``rules/warp.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Literal

DIE = 6  # Rule: WR-01 (traits are rated in d6)
DEFAULT_DICE = 2  # Rule: WR-03 (no suitable trait: 2 dice)
TASER_FACTOR = 5  # Rule: WR-12
SHOTGUN_FACTOR = 10  # Rule: WR-12 (12-gauge: x10 divided by the distance dice)
SERIOUS_WOUND_DAMAGE = 20  # Rule: WR-34 (usually 20 or more in a single blow)
MAX_GM_DICE = 5  # the most bonus or penalty dice the GM grants an attack at once: this engine's bound (WR-17, WR-31)

# Rule: WR-12. The damage factors of the seed and of the SRD's firearms list, by weapon class.
DAMAGE_FACTORS: dict[str, int] = {
    "unarmed": 1,
    "knife": 2,
    "lead_pipe": 2,
    "sword": 3,
    "axe": 3,
    "throwing_knife": 1,
    "slingshot": 1,
    "crossbow": 2,
    "throwing_axe": 2,
    "taser": 5,
    "light_handgun": 3,
    "light_smg": 3,
    "medium_handgun": 4,
    "medium_smg": 4,
    "large_handgun": 5,
    "large_smg": 5,
    "light_rifle": 6,
    "heavy_rifle": 7,
    "shotgun": 10,
}

# Rules: WR-15, WR-B7, WR-B14. Five thresholds in metres per weapon row; ``None`` is the taser's dagger.
RANGE_ROWS: dict[str, tuple[float | None, ...]] = {
    "thrown_balanced": (2, 4, 8, 16, 32),
    "thrown_awkward": (2, 4, 6, 8, 10),
    "crossbow": (2, 10, 20, 40, 80),
    "taser": (1, 2, 5, None, None),
    "pistol": (2, 10, 20, 40, 80),
    "smg": (2, 25, 50, 100, 200),
    "rifle": (2, 50, 100, 200, 400),
    "shotgun": (4, 8, 16, 32, 64),
}

# Rules: WR-14, WR-16. Situational defense dice as (full dice, bonus dice); the light/dim levels are
# the seed's "half-dice": a bonus die where a full die would be too much.
COVER: dict[str, tuple[int, int]] = {"none": (0, 0), "light": (0, 1), "partial": (1, 0), "heavy": (2, 0)}
DARKNESS: dict[str, tuple[int, int]] = {"none": (0, 0), "dim": (0, 1), "dark": (1, 0), "pitch": (2, 0)}

# Rule: WR-07. Metres per 3-second round.
PACES: dict[str, float] = {"walk": 2.5, "hurry": 5.0, "jog": 7.5, "run": 10.0, "fast_run": 15.0, "sprint": 20.0}

# Rule: WR-25. What "out of the fight" means, by the class of weapon that did it.
DOWN_STATES: dict[str, str] = {
    "fists": "hurt, in great pain, maybe broken bones; rarely lethal",
    "clubs": "badly broken bones and internal bleeding, but stable",
    "blades": "incapacitated and bleeding; could die untended",
    "guns": "in shock and bleeding; may be dying without emergency care",
    "stun": "stunned senseless; it wears off at recovery",
}

HALF = Fraction(1, 2)  # Rule: WR-27 (recover halfway)

Activity = Literal["active", "rest", "medical"]
Condition = Literal["mobile", "bedridden", "critical"]

# Rule: WR-28. HP per day; ``None`` = impossible (a bed-ridden character is not active).
HEALING: dict[tuple[str, str], Fraction | None] = {
    ("active", "mobile"): Fraction(0),
    ("active", "bedridden"): None,
    ("active", "critical"): None,
    ("rest", "mobile"): Fraction(1),
    ("rest", "bedridden"): Fraction(1, 2),
    ("rest", "critical"): Fraction(0),
    ("medical", "mobile"): Fraction(2),
    ("medical", "bedridden"): Fraction(1),
    ("medical", "critical"): Fraction(1, 2),
}
# Rule: WR-28. The starred cells, where the GM may make the character lose HP instead.
MAY_LOSE: frozenset[tuple[str, str]] = frozenset({("active", "mobile"), ("rest", "bedridden"), ("rest", "critical")})


# -- dice pools ---------------------------------------------------------------------------------------
def net_dice(bonus: int, penalty: int) -> int:
    """Bonus and penalty dice cancel one for one; the sign says which remain. Rules: WR-02, WR-B2."""
    if bonus < 0 or penalty < 0:
        raise ValueError(f"bonus and penalty dice cannot be negative (got {bonus}, {penalty})")
    return bonus - penalty


def pool_size(dice: int, net: int) -> int:
    """How many d6 are thrown for ``dice`` with ``net`` bonus (+) or penalty (-) dice. Rule: WR-B13."""
    if dice < 0:
        raise ValueError(f"a pool cannot have a negative number of dice (got {dice})")
    return dice + abs(net)


def keep_flags(faces: Sequence[int], bonus: int, penalty: int) -> list[bool]:
    """Which faces count: drop the ``bonus`` lowest, then the ``penalty`` highest. Rules: WR-02, WR-B13.

    Among equal faces the later die is dropped first (the convention of :mod:`affray.core.dice`).
    """
    if bonus < 0 or penalty < 0 or bonus + penalty > len(faces):
        raise ValueError(f"cannot drop {bonus} lowest and {penalty} highest of {len(faces)} dice")
    kept = [True] * len(faces)
    for i in sorted(range(len(faces)), key=lambda i: (faces[i], -i))[:bonus]:
        kept[i] = False
    rest = [i for i in range(len(faces)) if kept[i]]
    for i in sorted(rest, key=lambda i: (-faces[i], -i))[:penalty]:
        kept[i] = False
    return kept


def pool_total(faces: Sequence[int], dice: int, net: int = 0) -> int:
    """The total of a WaRP roll from every face thrown. Rules: WR-01, WR-02, WR-B2, WR-B13.

    ``faces`` holds ``dice + |net|`` values. With net bonus dice the ``dice`` highest count, with net
    penalty dice the ``dice`` lowest; otherwise all. "2 dice + a bonus die" is 3 thrown, 2 highest kept.
    """
    if len(faces) != pool_size(dice, net):
        raise ValueError(
            f"{dice} dice with {net:+d} bonus/penalty dice throw {dice + abs(net)} faces, got {len(faces)}"
        )
    if net == 0:
        return sum(faces)
    if dice == 0:
        return 0
    ordered = sorted(faces)
    return sum(ordered[-dice:]) if net > 0 else sum(ordered[:dice])


def pool_total_uncancelled(faces: Sequence[int], dice: int, bonus: int, penalty: int) -> int:
    """A roll where bonus and penalty dice do not cancel (the alternative to WR-B2): throw all of them,
    drop the ``bonus`` lowest, then the ``penalty`` highest."""
    if dice < 0 or len(faces) != dice + bonus + penalty:
        raise ValueError(
            f"{dice} dice with {bonus} bonus and {penalty} penalty dice throw "
            f"{dice + bonus + penalty} faces, got {len(faces)}"
        )
    return sum(f for f, k in zip(faces, keep_flags(faces, bonus, penalty), strict=True) if k)


def botched(kept: Sequence[int]) -> bool:
    """OtE 2e Botch: every kept die shows 1 (a dropped face does not count). Rule: WR-B12."""
    return bool(kept) and all(face == 1 for face in kept)


def blown_top(kept: Sequence[int]) -> bool:
    """OtE 2e Blowing the Top Off: every kept die shows 6, so an exploding d6 is added. Rule: WR-B12."""
    return bool(kept) and all(face == DIE for face in kept)


# -- attack, defense, damage --------------------------------------------------------------------------
def hit(attack: int, defense: int) -> bool:
    """An attack hits only if it beats the defense; a tie misses. Rule: WR-10."""
    return attack > defense


def damage(attack_total: int, defense_total: int, factor: int) -> int:
    """Damage before armour: (attack - defense) x factor on a hit, else 0. Rules: WR-10, WR-11, WR-B4."""
    if factor < 0:
        raise ValueError(f"a damage factor cannot be negative (got {factor})")
    return (attack_total - defense_total) * factor if attack_total > defense_total else 0


def _divide(a: int, b: int, round_up: bool) -> int:
    return -(-a // b) if round_up else a // b


def shotgun_factor(distance_dice: int, base: int = SHOTGUN_FACTOR, round_up: bool = False) -> int:
    """The 12-gauge's factor: 10 divided by the distance dice, rounded down. Rules: WR-12, WR-B5."""
    if distance_dice < 1:
        raise ValueError("a shotgun blast always has at least 1 distance die")
    return _divide(base, distance_dice, round_up)


def special_damage(full: int, round_up: bool = False) -> int:
    """A special-effect attack does half damage, rounded down. Rules: WR-30, WR-B5."""
    return _divide(full, 2, round_up)


def effect_lands(attack: int, defense: int, threshold: int) -> bool:
    """The special effect works only on a hit by at least the GM's margin. Rule: WR-30."""
    return attack > defense and attack - defense >= threshold


def alternate_damage(faces: Sequence[int], attack: int, defense: int) -> int:
    """Optional damage: roll one d6 per point of factor; double when attack >= 2 x defense. Rule: WR-33.

    ``faces`` are the damage dice (their count is the factor; bonus dice never apply to them). A miss
    does nothing.
    """
    if attack <= defense:
        return 0
    total = sum(faces)
    return 2 * total if attack >= 2 * defense else total


def explosion(faces: Sequence[int]) -> int:
    """Alternate damage without an attack roll (an explosion): the GM rolls d6s and sums them, before
    armour. Rule: WR-33."""
    return sum(faces)


# -- ranged defense -----------------------------------------------------------------------------------
def distance_dice(row: str, metres: float, beyond: bool = False) -> int | None:
    """The defender's distance dice: the first column whose threshold is at least the distance.

    ``None`` means out of range: beyond the fifth column, or past the taser's cords. Rules: WR-15, WR-B7.
    ``beyond=True`` is WR-B7's alternative: past the fifth column, one more die per doubling of it.
    """
    if metres < 0:
        raise ValueError(f"a distance cannot be negative (got {metres})")
    limit: float | None = None
    for column, limit in enumerate(RANGE_ROWS[row], start=1):
        if limit is None:
            return None
        if metres <= limit:
            return column
    if not beyond or limit is None:
        return None
    column = len(RANGE_ROWS[row])
    while metres > limit:
        limit, column = limit * 2, column + 1
    return column


def half_distance_dice(row: str, metres: float, beyond: bool = False) -> tuple[int, int] | None:
    """Distance dice with the GM's half-dice: ``(full dice, bonus dice)``. Rules: WR-16, WR-15.

    In the lower half of the step up to a column's threshold the defender gets the previous column's
    dice plus a bonus die instead of the next full die (5 m from a knife-thrower: 2 dice + a bonus die).
    """
    column = distance_dice(row, metres, beyond)
    if column is None:
        return None
    if column == 1 or column > len(RANGE_ROWS[row]):
        return (column, 0)
    low, high = RANGE_ROWS[row][column - 2], RANGE_ROWS[row][column - 1]
    assert low is not None and high is not None
    return (column - 1, 1) if metres <= (low + high) / 2 else (column, 0)


def ranged_defense(
    distance: tuple[int, int],
    cover: str = "none",
    darkness: str = "none",
    target_moving: bool = False,
    attacker_moving: bool = False,
) -> tuple[int, int]:
    """The dice the GM assigns a ranged defense, before dodging: ``(dice, bonus dice)``. Rule: WR-14.

    The sum of distance dice, cover (1 or 2), target moving (1), attacker moving (1) and darkness or
    fog (1 or 2); light cover and dim light give a bonus die instead (half-dice, WR-16).
    """
    c, d = COVER[cover], DARKNESS[darkness]
    dice = distance[0] + c[0] + d[0] + int(target_moving) + int(attacker_moving)
    return dice, distance[1] + c[1] + d[1]


def dodge_bonus(agility_dice: int | None, clumsy_dice: int | None = None) -> int:
    """Bonus dice for dodging: the agility-type trait's dice, 2 by default, a clumsy flaw's 1. Rule: WR-14."""
    if clumsy_dice is not None:
        return clumsy_dice
    return DEFAULT_DICE if agility_dice is None else agility_dice


# -- armour -------------------------------------------------------------------------------------------
def armour_penalty_dice(layers_with_penalty: Sequence[bool]) -> int:
    """Penalty dice on agility-related rolls from armour worn. Rules: WR-20, WR-21, WR-B3.

    (layers - 1) for stacking, plus one per layer marked "penalty": leathers under plate give 2.
    """
    if not layers_with_penalty:
        return 0
    return len(layers_with_penalty) - 1 + sum(1 for p in layers_with_penalty if p)


def regular_protection(rolled: int, flat: int, gunfire: bool) -> int:
    """Regular armour's protection: dice rolled plus flat points; half, rounded down, against gunfire.

    Rules: WR-19, WR-B1, WR-22 (the SRD: "5 points ... stops two points of damage against a gun").
    """
    total = rolled + flat
    return total // 2 if gunfire else total


def bulletproof(
    damage_in: int, faces: Sequence[int], gunfire: bool, *, round_up: bool = False, any_one: bool = False
) -> int:
    """Bullet-proof armour rated ``len(faces)``b. Rules: WR-22, WR-B5, WR-B6.

    Against bullets and shotguns the damage is divided by the dice rolled, rounded down; if every die
    shows 1 the shot found a gap and the armour does nothing. Against anything else it subtracts its
    rating (the faces are then ignored). ``any_one``: a single 1 already finds the gap (the alternative
    reading of WR-B6); ``round_up``: the alternative rounding of WR-B5.
    """
    if damage_in <= 0 or not faces:
        return max(0, damage_in)
    if not gunfire:
        return max(0, damage_in - len(faces))
    if any(face == 1 for face in faces) if any_one else all(face == 1 for face in faces):
        return damage_in
    return _divide(damage_in, sum(faces), round_up)


def bulletproof_flat(damage_in: int, rating: int) -> int:
    """Bullet-proof armour against a blade or a fist: subtract its rating. Rule: WR-22."""
    return max(0, damage_in - rating)


def armour_absorb(
    damage_in: int,
    regular_rolled: int,
    flat: int,
    bullet_faces: Sequence[int] = (),
    gunfire: bool = False,
    *,
    round_up: bool = False,
    any_one: bool = False,
) -> int:
    """Damage that gets through every layer: regular armour first, then bullet-proof. Rules: WR-11,
    WR-19, WR-22, WR-B4 (armour after the factor; never below 0)."""
    if damage_in <= 0:
        return 0
    through = max(0, damage_in - regular_protection(regular_rolled, flat, gunfire))
    return bulletproof(through, bullet_faces, gunfire, round_up=round_up, any_one=any_one)


def taser_damage(
    attack: int, defense: int, armour_rolled: int, factor: int = TASER_FACTOR, damage_faces: Sequence[int] | None = None
) -> int:
    """Temporary damage from a taser: all or nothing. Rules: WR-23, WR-12, WR-29, WR-33, WR-B18.

    ``armour_rolled`` is the armour's protection as against a normal attack (0 without armour). If it
    matches or beats the margin (attack - defense) nothing gets through; otherwise the full damage does: the
    margin x 5, or, with the optional Alternate Damage, ``damage_faces`` (the factor's 5d6) summed and doubled
    when attack >= 2 x defense (:func:`alternate_damage`).
    """
    margin = attack - defense
    if margin <= 0 or armour_rolled >= margin:
        return 0
    return margin * factor if damage_faces is None else alternate_damage(damage_faces, attack, defense)


# -- hit points ---------------------------------------------------------------------------------------
def messed_up(hp: int, max_hp: int, at_half: bool = True) -> bool:
    """At half HP or less every action takes a penalty die. Rules: WR-24, WR-B10 (exactly half counts;
    ``at_half=False`` is the alternative where only below half does)."""
    return 2 * hp <= max_hp if at_half else 2 * hp < max_hp


def is_down(hp: int) -> bool:
    """At 0 HP or less the character is out of the fight. Rule: WR-25."""
    return hp <= 0


def is_dead(hp: int, max_hp: int, at_minus_max: bool = True) -> bool:
    """At minus max HP (twice max HP lost) the character dies, barring a reason to live. Rules: WR-26,
    WR-B10 (exactly -max is death; ``at_minus_max=False``: only below it)."""
    return hp <= -max_hp if at_minus_max else hp < -max_hp


def recover(current: int, ceiling: int, ratio: Fraction = HALF, round_up: bool = True) -> int:
    """HP after the post-fight recovery: ``ratio`` of the way back up to the ceiling, rounded up.

    ``ceiling`` is the level after the last recovery (max HP for a fight begun unwounded). Half is the
    rule; the GM may use 2/3 for fists or 1/3 for gunshots. Rules: WR-27, WR-B5 (ceiling rounding).
    """
    if not 0 <= ratio <= 1:
        raise ValueError(f"a recovery ratio lies between 0 and 1 (got {ratio})")
    if current >= ceiling:
        return current
    gain = (ceiling - current) * ratio
    return current + _divide(gain.numerator, gain.denominator, round_up)


def condition_of(hp: int, critical: bool = False) -> Condition:
    """Mobile (1+ HP), bed-ridden (0 or less), or critical (the GM's call). Rule: WR-28."""
    if critical:
        return "critical"
    return "mobile" if hp >= 1 else "bedridden"


def daily_healing(activity: Activity, condition: Condition) -> Fraction:
    """HP regained per day of ``activity`` in ``condition`` ("1 per 2 days" is 1/2). Rule: WR-28.

    Raises ``ValueError`` for the table's dashes (a bed-ridden or critical character cannot be active).
    """
    rate = HEALING[(activity, condition)]
    if rate is None:
        raise ValueError(f"a {condition} character cannot be {activity}")
    return rate


def serious_wound(blow: int, threshold: int = SERIOUS_WOUND_DAMAGE) -> bool:
    """A single blow of ``threshold`` or more damage is a serious wound. Rule: WR-34."""
    return blow >= threshold


# -- situational modifiers ----------------------------------------------------------------------------
def predictable(pc: bool, flagged: bool, repeated: bool) -> bool:
    """A predictable attack (flagged by the GM or repeated on the same target) takes a penalty die, and
    never for a GMC. Rules: WR-17, WR-B11."""
    return pc and (flagged or repeated)


def gang_up_extra(attackers: int, capacity: int) -> int:
    """How many attackers beyond the defender's fighting dice get a bonus die. Rule: WR-31."""
    return max(0, attackers - capacity)


def better_weaponry(attacker_handiness: int, defender_handiness: int) -> bool:
    """A handier weapon (reach, blocking; not damage) earns a bonus die. Rule: WR-31."""
    return attacker_handiness > defender_handiness


def gestalt_winner(totals: Mapping[str, int]) -> str | None:
    """The side with the highest gestalt total; ``None`` on a tie for first. Rule: WR-35."""
    if not totals:
        return None
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None
