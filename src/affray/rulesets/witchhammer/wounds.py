"""Rolling the d20, and what damage does: Poise, Health, Wounds, the Malus, afflictions, going down.

Rules: WH-17 (crit adjustments, scoped by WH-B7), WH-19 (damage application, WH-B3), WH-20/WH-21 (the Malus,
WH-B6), WH-22 (Health <= 0), WH-23 (afflictions, WH-B1, WH-B23), WH-B4 (the Crit's Wound), WH-B9 (monsters
at 0 Health).
"""

from __future__ import annotations

from affray.core.dice import roll_die
from affray.core.events import Defeated, Rolled
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer.events import Afflicted, Damaged
from affray.rulesets.witchhammer.mechanics import (
    AFFLICTION_TRIGGER,
    affliction,
    apply_damage,
    crit_adjustment,
    penetration,
    poise_damage,
)
from affray.rulesets.witchhammer.state import Fighter, WitchHammerState


def d20(rng: RNG, actor: str, purpose: str, modifier: int, journal: Journal) -> int:
    """Roll a d20 for ``actor``, log it with its modifier (a loud journal), and return the natural face. The same
    one draw either way."""
    if not journal.loud:
        return rng.die(20)
    roll = roll_die(rng, 20, modifier)
    journal.append(Rolled(actor, purpose, roll))
    return roll.total - modifier


def crits_on(state: WitchHammerState, kind: str) -> bool:
    """Whether the +-10 crit adjustment applies to a d20 roll of ``kind`` (attack, check, affliction). WH-B7."""
    scope = state.options.crit_scope
    if kind == "attack":
        return True
    if kind == "check":
        return scope in ("checks", "every_d20")
    return scope == "every_d20"


def malus_of(state: WitchHammerState, f: Fighter) -> int:
    """The total Malus (0 or negative): Health loss plus status maluses, which add up. Rules: WH-20, WH-21."""
    wounds = f.max_health - f.health
    if wounds <= 0 or (f.kind == "monster" and not state.options.malus_applies_to_monsters):
        return f.mod_malus  # no Health lost, or a monster spared by the option: no Health-loss Malus
    table = f.malus_by_wounds  # the Health-loss Malus: a lookup by wounds taken (WH-20, WH-B6)
    return (table[wounds] if wounds < len(table) else table[-1]) + f.mod_malus


def hurt(
    state: WitchHammerState,
    target: Fighter,
    damage: int,
    rng: RNG,
    journal: Journal,
    source: str,
    *,
    bonus_wounds: int = 0,
    poise_only: bool = False,
    from_attack: bool = False,
    by: Fighter | None = None,
) -> int:
    """Deal ``damage`` (and a Crit's ``bonus_wounds``) to ``target``; return the Wounds taken.

    Penetration and Poise per WH-19 and WH-B3; the bonus Wound goes straight to Health (WH-B4) and counts for
    the affliction trigger; an attack dealing 5+ Wounds to a PC rolls on the affliction table (WH-23).
    """
    if poise_only:
        target.poise = poise_damage(target.poise, damage)
        wounds, pierce = 0, 0
    else:
        extra = state.options.penetration == "extra"
        target.poise, target.health, wounds = apply_damage(target.poise, target.health, damage, extra_penetration=extra)
        pierce = penetration(damage)
    if bonus_wounds:
        target.health -= bonus_wounds
        wounds += bonus_wounds
    target.taken += damage + bonus_wounds
    if by is not None:
        by.dealt += damage + bonus_wounds
    if journal.loud:
        journal.append(
            Damaged(target.id, damage, pierce, wounds, target.poise, target.health, malus_of(state, target), source)
        )
    if from_attack and target.kind == "pc" and wounds >= AFFLICTION_TRIGGER:
        _afflict(state, target, wounds, rng, journal)
    check_down(state, target, journal)
    return wounds


def wound(state: WitchHammerState, target: Fighter, wounds: int, journal: Journal, source: str) -> None:
    """Wounds straight to Health (a bleed tick). Rules: WH-19, WH-24."""
    target.health -= wounds
    if journal.loud:
        journal.append(Damaged(target.id, 0, 0, wounds, target.poise, target.health, malus_of(state, target), source))
    check_down(state, target, journal)


def _afflict(state: WitchHammerState, target: Fighter, wounds: int, rng: RNG, journal: Journal) -> None:
    """d20 + wounds on the affliction table; no crit adjustment unless WH-B7's scope says every d20."""
    natural = d20(rng, target.id, "affliction", wounds, journal)
    total = natural + wounds + (crit_adjustment(natural) if crits_on(state, "affliction") else 0)
    result = affliction(total)
    if result is not None:
        target.afflictions.append(result)  # a narrative tag (WH-B23)
    if journal.loud:
        journal.append(Afflicted(target.id, total, result))


#: How each ``Fighter.out`` of 0 Health or less is told (``Defeated.how``): WH-22, WH-B9.
DOWN_HOW = {"down": "down at death's door", "defeated": "defeated", "fallen": "defeated, and lies where it fell"}


def check_down(state: WitchHammerState, f: Fighter, journal: Journal) -> None:
    """At 0 Health or less a PC is down until combat ends (WH-22); a monster is defeated (WH-B9)."""
    if f.health > 0 or f.out:
        return
    if f.kind == "pc":
        f.out = "down"
    elif state.options.monster_at_zero == "removed":
        f.out = "defeated"
    else:
        f.out = "fallen"
    if journal.loud:
        journal.append(Defeated(f.id, DOWN_HOW[f.out]))
