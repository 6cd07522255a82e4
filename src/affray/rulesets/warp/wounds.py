"""Damage, armour and what wounds do: Messed Up, down for the count, death, serious wounds, effects.

Damage is the margin times the weapon's factor (WR-11, WR-12; the shotgun's divided by the distance
dice), halved for a special-effect attack (WR-30), or rolled as d6s with the optional alternate damage
(WR-33). Armour comes off after the factor (WR-B4): regular dice and points, halved against gunfire,
then bullet-proof dice that divide a bullet's damage (WR-19, WR-22). A taser is all or nothing against
armour and its damage is temporary (WR-23, WR-29), rolled as 5d6 too with alternate damage (WR-B18).
"""

from __future__ import annotations

from affray.core.dice import roll_pool
from affray.core.engine import GM
from affray.core.events import Defeated, Rolled
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp.events import Condition, EffectApplied, SeriousWound, Wounded
from affray.rulesets.warp.mechanics import (
    DIE,
    DOWN_STATES,
    alternate_damage,
    bulletproof,
    bulletproof_flat,
    damage,
    effect_lands,
    is_dead,
    is_down,
    regular_protection,
    serious_wound,
    shotgun_factor,
    special_damage,
    taser_damage,
)
from affray.rulesets.warp.rolls import is_messed
from affray.rulesets.warp.state import UNARMED, Attack, Decision, Fighter, WarpState
from affray.rulesets.warp.turns import gm_decides


def _dice(rng: RNG, actor: str, purpose: str, count: int, events: Journal) -> list[int]:
    """Plain d6s (armour, damage): no bonus or penalty dice ever apply to them (WR-33)."""
    if count <= 0:
        return []
    if not events.loud:
        die = rng.die
        return [die(DIE) for _ in range(count)]
    r = roll_pool(rng, count, DIE)
    events.append(Rolled(actor, purpose, r))
    return [d.value for d in r.dice]


def damage_factor(state: WarpState, f: Fighter, a: Attack, distance_dice: int) -> int:
    """The factor of this attack (WR-12): the shotgun's 10 is divided by the distance dice (WR-B5)."""
    arm = f.arms[a.weapon]
    if a.mode == "melee":
        return arm.melee or 0
    assert arm.ranged is not None
    if arm.ranged.per_distance:
        return shotgun_factor(distance_dice, arm.ranged.factor, state.options.damage_rounding == "up")
    return arm.ranged.factor


def apply_hit(
    state: WarpState, rng: RNG, a: Attack, attack: int, defense: int, distance_dice: int, events: Journal
) -> None:
    """Work out and apply the damage of a hit, then its special effect. Rules: WR-11, WR-19..WR-23, WR-30."""
    f, t = state.fighters[a.attacker], state.fighters[a.target]
    arm = f.arms[a.weapon]
    ranged = arm.ranged if a.mode == "ranged" else None
    if ranged is not None and ranged.temporary:
        _taser(state, rng, a, attack, defense, events)
    else:
        _wound(state, rng, a, attack, defense, distance_dice, ranged is not None and ranged.gunfire, events)
    if a.special != "none":
        special_effect(state, a, attack, defense, events)
    condition(state, t, arm.wound, events)


def _wound(
    state: WarpState, rng: RNG, a: Attack, attack: int, defense: int, distance_dice: int, gunfire: bool, events: Journal
) -> None:
    o = state.options
    f, t = state.fighters[a.attacker], state.fighters[a.target]
    up = o.damage_rounding == "up"
    factor = damage_factor(state, f, a, distance_dice)
    if o.alternate_damage:  # WR-33: one d6 per point of factor, doubled at twice the defense
        raw = alternate_damage(_dice(rng, f.id, "damage", factor, events), attack, defense)
    else:
        raw = damage(attack, defense, factor if o.armour_after_factor else 1)
    half_first = a.special != "none" and o.special_half == "before_armour"
    if half_first:  # WR-30: half the damage dealt, then armour
        raw = special_damage(raw, up)
    rolled = sum(_dice(rng, t.id, "armour", t.armour.dice, events)) if raw > 0 else 0
    protection = regular_protection(rolled, t.armour.flat, gunfire)
    through = max(0, raw - protection)
    if not o.armour_after_factor and not o.alternate_damage:  # WR-B4's alternative: armour off the margin
        through *= factor
    if through > 0 and t.armour.bullet_dice:
        if gunfire:
            faces = _dice(rng, t.id, "bullet-proof armour", t.armour.bullet_dice, events)
            through = bulletproof(through, faces, True, round_up=up, any_one=o.bulletproof_gap == "any_one")
        else:
            through = bulletproof_flat(through, t.armour.bullet_dice)
    if a.special != "none" and not half_first:  # WR-30, option special_half: half of what got through
        through = special_damage(through, up)
    full = raw * (factor if not o.armour_after_factor and not o.alternate_damage else 1)
    t.hp -= through
    t.taken += through
    f.dealt += through
    if events.loud:
        events.append(Wounded(f.id, t.id, full, full - through, through, False, t.hp, t.stun, not t.pc))
    if o.serious_wounds and serious_wound(through, o.serious_wound_threshold):
        _serious(state, t, through, events)


def _taser(state: WarpState, rng: RNG, a: Attack, attack: int, defense: int, events: Journal) -> None:
    """All or nothing: the armour's roll (as against a normal attack) must reach the margin (WR-23). The full
    damage is the margin x 5, or with Alternate Damage 5d6, doubled at twice the defense (WR-33, WR-B18); it is
    temporary either way (WR-29)."""
    f, t = state.fighters[a.attacker], state.fighters[a.target]
    arm = f.arms[a.weapon]
    assert arm.ranged is not None
    factor = arm.ranged.factor
    faces = _dice(rng, f.id, "damage", factor, events) if state.options.alternate_damage else None
    full = (attack - defense) * factor if faces is None else alternate_damage(faces, attack, defense)
    rolled = sum(_dice(rng, t.id, "armour", t.armour.dice, events))
    stopping = rolled + t.armour.flat + t.armour.bullet_dice
    through = taser_damage(attack, defense, stopping, factor, faces)
    t.stun += through
    events.append(Wounded(f.id, t.id, full, full - through, through, True, t.hp, t.stun, not t.pc))


def _serious(state: WarpState, t: Fighter, blow: int, events: Journal) -> None:
    """A serious wound (WR-34): the GM chooses its kind at the table, else the option decides."""
    if gm_decides(state):
        state.decisions.append(Decision("serious", GM, t.id, {"blow": blow}))
        return
    record_serious(state, t, state.options.serious_wound_kind, state.options.serious_wound_daily_loss, events)


def record_serious(state: WarpState, t: Fighter, kind: str, daily_loss: int, events: Journal) -> None:
    if kind == "none":
        return
    t.serious.append({"kind": kind, "daily_loss": daily_loss if kind == "fatal" else 0})
    events.append(SeriousWound(t.id, kind, daily_loss if kind == "fatal" else 0))


def special_effect(state: WarpState, a: Attack, attack: int, defense: int, events: Journal) -> None:
    """A special effect works only past the GM's margin (WR-30); what each does is ruling WR-X6."""
    f, t = state.fighters[a.attacker], state.fighters[a.target]
    needed = a.margin if a.margin > 0 else state.options.special_effect_margin
    landed = effect_lands(attack, defense, needed)
    events.append(EffectApplied(f.id, t.id, a.special, attack - defense, needed, landed))
    if not landed:
        return
    if a.special == "disarm" and t.wielding != UNARMED:
        t.carried[t.wielding] = t.carried.get(t.wielding, 1) - 1
        state.ground.append((t.wielding, t.position))
        t.wielding = UNARMED
    elif a.special == "prone":
        t.prone = True
    elif a.special == "hold":
        t.held_by = f.id


def condition(state: WarpState, t: Fighter, wound: str, events: Journal) -> None:
    """Update Messed Up (WR-24), down for the count (WR-25) and death (WR-26) after a wound."""
    o = state.options
    effective = t.hp - t.stun
    if is_dead(effective if o.taser_can_kill else t.hp, t.max_hp, o.minus_max_is_death) and t.status in (
        "fighting",
        "down",
    ):
        t.wound_class = wound
        if t.pc or o.gmc_reason_to_live:  # a PC may give a reason to live (WR-26)
            t.status = "dying"
            t.down_state = "at death's door"
            events.append(Defeated(t.id, "at death's door"))
            state.decisions.append(Decision("plea", t.id))
        else:
            t.status = "dead"
            events.append(Defeated(t.id, "dead"))
    elif is_down(effective) and t.status == "fighting":
        t.status, t.wound_class = "down", wound
        t.down_state = DOWN_STATES.get(wound, DOWN_STATES["fists"])
        events.append(Defeated(t.id, f"down for the count ({t.down_state})"))
    messed = is_messed(state, t)
    if messed != t.messed:
        t.messed = messed
        if t.status == "fighting" and events.loud:
            events.append(
                Condition(
                    t.id,
                    "messed up" if messed else "no longer messed up",
                    "a penalty die on every action" if messed else "",
                )
            )
    if t.out:
        release(state, t)


def release(state: WarpState, t: Fighter) -> None:
    """Someone out of the fight holds nobody and is held by nobody."""
    t.held_by = ""
    for g in state.fighters.values():
        if g.held_by == t.id:
            g.held_by = ""
