"""Spellchrome mechanics as pure functions of rolled numbers (DESIGN.md, contract 3).

Live play samples the dice and calls these; exact odds enumerate the dice (icepool) and map the same
functions; simulation calls them millions of times. Nothing here rolls, mutates or knows about a match.

The attack roll, Defense, weapon damage and armour deflection/damage reduction are the
**SRD-standard assumption** of ruling SC-B1: the seed chapter that would define them was not found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

D20 = 20
STABILISE_DC = 22  # Rule: SC-06 (Fortitude save, DC 22)
FIRST_AID_DC = 15  # Rule: SC-06 (Heal check, DC 15)
CONCENTRATION_DC = 15  # Rule: SC-27 (e)
KNOCKOUT_SAVE_DC = 20  # Rule: SC-10
DEAD_AT = -30  # Rule: SC-05
DYING_LOSS_DIE = 4  # Rule: SC-04 (1d4 at the end of every round)
SKILL_HEAL_DIE = 10  # Rule: SC-08 (treat injury heals 1d10)
SQUARE_FT = 5  # Rule: SC-23
HELPLESS_DEX_MOD = -5  # SC-B1 (SRD-standard assumption): a helpless target's Dex counts as 0

HpState = Literal["normal", "unconscious", "dying", "dead"]


def ability_modifier(score: int, rule: str = "srd") -> int:
    """⌊(score − 10) / 2⌋ (Rule: SC-B2, the d20 SRD standard); ``"toward_zero"`` truncates instead."""
    if rule == "toward_zero":
        return int((score - 10) / 2)
    return (score - 10) // 2


# -- saving throws and checks ---------------------------------------------------------------------


def save_succeeds(natural: int, bonus: int, dc: int) -> bool:
    """A saving throw: d20 + bonus ≥ DC; a natural 1 always fails, a natural 20 always succeeds.

    Rules: SC-12, SC-13 (and SC-B5: the DC 22 stabilising roll is such a save).
    """
    if natural == 1:
        return False
    if natural == D20:
        return True
    return natural + bonus >= dc


def check_succeeds(natural: int, bonus: int, dc: int) -> bool:
    """A skill check (Heal, Concentration, Acrobatics and Tumbling): d20 + bonus ≥ DC, no automatic results.

    Rules: SC-06 (first aid DC 15), SC-27 (e) (Concentration DC 15), SC-24 (tumbling).
    """
    return natural + bonus >= dc


def stabilise_succeeds(natural: int, fort_bonus: int, as_save: bool = True, dc: int = STABILISE_DC) -> bool:
    """The dying character's Fortitude save. Rules: SC-06, SC-B5 (``as_save``: natural 1/20 apply)."""
    return save_succeeds(natural, fort_bonus, dc) if as_save else natural + fort_bonus >= dc


def save_progression(kind: str, level: int) -> int:
    """The authored base-save progressions (Rule: SC-14; content of ``signs.yaml`` follows these).

    ``good`` = 2 + ⌊L/2⌋ (Armoes Fortitude: +2, +3, +3 … +12), ``middling`` = ⌊9(L+1)/21⌋ (Armoes Reflex:
    +0, +1, +1 … +9), ``poor`` = ⌊L/3⌋ (Armoes Will: +0, +0, +1 … +6).
    """
    if kind == "good":
        return 2 + level // 2
    if kind == "middling":
        return 9 * (level + 1) // 21
    return level // 3


# -- initiative ------------------------------------------------------------------------------------


def initiative_total(natural: int, dex_mod: int, misc: int = 0, surprise: int = 0) -> int:
    """d20 + Dex modifier + miscellaneous bonuses (+ the aware side's surprise bonus). Rule: SC-16."""
    return natural + dex_mod + misc + surprise


def initiative_key(total: int, dex_score: int, rolloffs: tuple[int, ...]) -> tuple[int, ...]:
    """Sort key, highest first: the total, then the Dexterity *score*, then the d10 roll-offs. Rule: SC-16."""
    return (-total, -dex_score, *(-r for r in rolloffs))


# -- attacks (SC-B1, the SRD-standard assumption) ----------------------------------------------------


def defense(dex_mod: int, deflection: int, other: int = 0, helpless: bool = False) -> int:
    """Defense = 10 + Dex modifier + armour deflection + other bonuses (SC-B1, SRD-standard assumption).

    A helpless target's Dex modifier counts as −5 (Dex 0), also the SRD standard.
    """
    return 10 + (HELPLESS_DEX_MOD if helpless else dex_mod) + deflection + other


def attack_hits(natural: int, bonus: int, defense_value: int, naturals_decide: bool = True) -> bool:
    """An attack hits on d20 + bonus ≥ Defense; natural 1 misses and 20 hits (SC-B1, SRD-standard assumption)."""
    if naturals_decide:
        if natural == 1:
            return False
        if natural == D20:
            return True
    return natural + bonus >= defense_value


def range_penalty(distance_sq: int, increment_sq: int) -> int | None:
    """−2 per full range increment beyond the first; ``None`` beyond ten increments (SRD-standard, SC-B1)."""
    if increment_sq <= 0:
        return None
    steps = (distance_sq - 1) // increment_sq
    return None if steps >= 10 else -2 * steps


def iterative_bonuses(base_attack: int) -> list[int]:
    """A full attack's attack bonuses: BAB, BAB−5, … while above 0; always at least one (SRD, SC-B1, SC-15)."""
    out = [base_attack]
    while out[-1] - 5 > 0:
        out.append(out[-1] - 5)
    return out


@lru_cache(maxsize=64)
def blows_in_full_attack(base_attack: int) -> int:
    """How many blows a full attack makes: ``len(iterative_bonuses(base_attack))`` (SRD, SC-B1, SC-15), kept per
    bonus (a pure function of one small integer; every turn's listing asks whether a full attack is worth one)."""
    return len(iterative_bonuses(base_attack))


def damage_after_reduction(rolled: int, damage_reduction: int) -> int:
    """Weapon damage (dice + Str modifier) less armour damage reduction, never below 0. Rules: SC-B1, SC-B6."""
    return max(0, rolled - damage_reduction)


@dataclass(frozen=True, slots=True)
class DamageResult:
    """Where damage went (Rules: SC-07, SC-B6): ``absorbed`` by EX-HP, ``to_hp`` off hit points."""

    hp: int
    ex_hp: int
    reduced: int
    absorbed: int
    to_hp: int


def apply_damage(
    hp: int, ex_hp: int, damage: int, damage_reduction: int = 0, steal_life: bool = False, reduction_first: bool = True
) -> DamageResult:
    """Apply ``damage`` to a creature. Rules: SC-07 (EX-HP absorbs first; not against Steal Life), SC-B6.

    Order (SC-B6): damage reduction, then EX-HP, then HP. With ``reduction_first=False`` EX-HP absorbs the
    raw damage and damage reduction applies only to what gets through. Steal Life bypasses EX-HP only: the
    armour's damage reduction still works against it (SC-07: "other protective qualities ... continue to
    function"; EX-HP gives "no protection against ... Steal Life").
    """
    if steal_life:
        through = damage_after_reduction(damage, damage_reduction)
        return DamageResult(hp - through, ex_hp, damage - through, 0, through)
    if reduction_first:
        after = damage_after_reduction(damage, damage_reduction)
        absorbed = min(ex_hp, after)
        through = after - absorbed
    else:
        absorbed = min(ex_hp, damage)
        through = damage_after_reduction(damage - absorbed, damage_reduction)
    return DamageResult(hp - through, ex_hp - absorbed, damage - absorbed - through, absorbed, through)


@lru_cache(maxsize=8192)
def damage_roll(
    hp: int, ex_hp: int, damage: int, damage_reduction: int, steal_life: bool, reduction_first: bool
) -> DamageResult:
    """:func:`apply_damage`, cached for the engine loop: a pure function of six small numbers whose result is frozen,
    so sharing it is safe (the same blows land on the same hit points fight after fight). Rules: SC-07, SC-B6."""
    return apply_damage(hp, ex_hp, damage, damage_reduction, steal_life, reduction_first)


# -- hit points, dying and healing ---------------------------------------------------------------------


def hp_state(hp: int, con_score: int = 10) -> HpState:
    """Rules: SC-02 (≥ 1 normal), SC-03 (0 unconscious), SC-04 (−1..−29 dying), SC-05 (≤ −30, or Con 0: dead)."""
    if hp <= DEAD_AT or con_score <= 0:
        return "dead"
    if hp < 0:
        return "dying"
    if hp == 0:
        return "unconscious"
    return "normal"


def dying_step(hp: int, loss: int) -> tuple[int, HpState]:
    """The end-of-round loss of a dying character: HP − 1d4, dead at −30 or below. Rules: SC-04, SC-05, SC-B4."""
    after = hp - loss
    return after, hp_state(after)


def one_d3(d6: int) -> int:
    """1d3 as the seed computes it: ⌈d6 / 2⌉. Rules: SC-06, SC-09, X-1."""
    return (d6 + 1) // 2


def heal(hp: int, max_hp: int, amount: int) -> int:
    """Healing never raises HP above max. Rule: SC-08."""
    return hp if hp >= max_hp else min(max_hp, hp + amount)


def natural_healing(roll: int, con_mod: int, comfortable: bool) -> int:
    """A day's natural healing: 1d3 (harsh) or 1d4 + Con modifier (warm, clean), at least 0. Rule: SC-09.

    ``roll`` is the ⌈d6/2⌉ value in the harsh case and the d4 in the comfortable one.
    """
    return max(0, roll + con_mod) if comfortable else roll


def nonlethal_result(
    hp_after: int, nonlethal: bool, lethal_below: bool = True, conscious: bool = True
) -> tuple[HpState, bool]:
    """Where a blow leaves its target, and whether it is stable. Rules: SC-11, SC-B4, SC-B11.

    A non-lethal blow that would leave a conscious target at −1..−29 only knocks it out: it automatically passes
    the DC 22 save (stable). At −30 or below it still kills unless ``lethal_below`` is switched off. A blow on a
    target that was not ``conscious`` (already dying, stable below 0, unconscious: ruling SC-B11) is lethal damage
    as usual, so it is never stabilised by it.
    """
    state = hp_state(hp_after)
    if not conscious:
        return state, False
    if nonlethal and state == "dying":
        return "dying", True
    if nonlethal and state == "dead" and not lethal_below:
        return "dying", True
    return state, False


# -- movement ------------------------------------------------------------------------------------------


def squares(feet: int) -> int:
    """Feet to 5-ft squares (Rules: SC-17, SC-23)."""
    return feet // SQUARE_FT


def withdraw_distance(speed_ft: int) -> int:
    """Withdraw speed in feet: max(5, 5·⌊speed/15⌋) (Rule: SC-19: 30 → 10, 60 → 20, 25 → 5)."""
    return max(SQUARE_FT, SQUARE_FT * (speed_ft // 15))


def run_bonus_squares(run_total: int) -> int:
    """Extra squares for a run: ⌊result / 5⌋, never negative. Rule: SC-18."""
    return max(0, run_total) // SQUARE_FT


def knockout_allowed(attacker_level: int, target_level: int, blunt: bool) -> bool:
    """A knockout needs a blunt object and a target of no higher level than the attacker. Rule: SC-10."""
    return blunt and target_level <= attacker_level
