"""Out-of-combat rules: the hours and days after (or before) a fight, for the GM and the library.

Rules: SC-06 (a character stabilised by its own save regains 1d3 = ⌈d6/2⌉ HP a day while unconscious),
SC-07 (EX-HP refill at the armour's hourly rate), SC-08 (treat injury: Heal check, 1d10, once per 24 h
after a treatment that heals; treating yourself raises the DC; Precise Healing takes minutes), SC-09 (natural
healing: 1d3 a day in a harsh place, 1d4 + Con in a warm, clean one), SC-10 (knockouts outside combat: a blunt
object, its damage and at least 1d4 lethal, not against a higher level, an optional Fortitude save DC 20).

Each function validates, then applies, like ``step``: a :class:`Rejected` changes nothing. They work on
a state whose fight is over (``outcome`` set) or has not begun (``round == 0``): once initiative is
rolled, the combat rules and hit points decide (SC-10).
"""

from __future__ import annotations

from affray.core.engine import Rejected
from affray.core.events import Note
from affray.core.notation import parse
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events, roll, roll_dice, saving_throw, skill_check
from affray.rulesets.spellchrome.combat import spell_amount
from affray.rulesets.spellchrome.events import StatusChanged
from affray.rulesets.spellchrome.health import deal_damage, restore
from affray.rulesets.spellchrome.mechanics import (
    KNOCKOUT_SAVE_DC,
    SKILL_HEAL_DIE,
    knockout_allowed,
    natural_healing,
    one_d3,
)
from affray.rulesets.spellchrome.state import Arm, Combatant, SpellchromeState

DAY = 24
SELF_TREATMENT_DC = 5  # ruling SC-R13: "treating yourself adds significantly to the DC"


def _in_combat(state: SpellchromeState) -> Rejected | None:
    if state.outcome is None and state.round > 0:
        return Rejected("in_combat", "Initiative has been rolled: in a fight the combat rules apply (SC-10).")
    return None


def pass_hours(state: SpellchromeState, hours: int, events: Events) -> Rejected | None:
    """Let ``hours`` pass: every armour's EX-HP refills at its hourly base rate, up to full (SC-07)."""
    if hours < 0:
        return Rejected("bad_time", "Time only runs forward.")
    state.hour += hours
    for c in state.combatants.values():
        if c.ex_hp < c.ex_hp_max and c.ex_refill:
            c.ex_hp = min(c.ex_hp_max, c.ex_hp + c.ex_refill * hours)
            events.append(Note(f"EX-HP refill to {c.ex_hp}/{c.ex_hp_max} after {hours} h (SC-07)", c.id))
    return None


def rest_day(state: SpellchromeState, rng: RNG, c: Combatant, comfortable: bool, events: Events) -> Rejected | None:
    """A day of rest: 1d3 (harsh) or 1d4 + Con (comfortable), never above max (SC-08, SC-09); a stable
    unconscious character regains 1d3 (SC-06). A dying character must be stabilised first."""
    problem = _in_combat(state)
    if problem:
        return problem
    if c.status in ("dying", "dead"):
        return Rejected("not_stable", f"{c.name} is {c.status}; a day of rest cannot help (SC-04, SC-06).")
    if c.hp < 0 or not comfortable:
        amount = one_d3(roll(rng, c.id, "natural healing 1d3 (⌈d6/2⌉)", 6, 0, events))
    else:
        amount = natural_healing(roll(rng, c.id, "natural healing 1d4", 4, 0, events), c.mods["constitution"], True)
    restore(state, c.id, c, amount, "a day's rest", False, events)
    pass_hours(state, DAY, events)
    return None


def treat_injury(
    state: SpellchromeState, rng: RNG, healer: Combatant, patient: Combatant, dc: int, events: Events
) -> Rejected | None:
    """The Heal skill's treat injury: a check against ``dc`` (average to challenging, set by the GM; higher
    when treating yourself) heals 1d10, once per patient per 24 h (SC-08). The 24 h start with a treatment
    that heals: the seed's patient "needs 24 hours before they can be healed again", so a failed check may be
    tried again (option ``failed_treatment_waits``)."""
    problem = _in_combat(state)
    if problem:
        return problem
    if patient.hp_state == "dead":
        return Rejected("target_out", f"{patient.name} is dead.")
    last = patient.last_treated_hour
    if last is not None and state.hour - last < DAY:
        return Rejected("treated_today", f"{patient.name} was treated less than 24 hours ago (SC-08).")
    total_dc = dc + (SELF_TREATMENT_DC if healer is patient else 0)
    if skill_check(rng, healer, "heal", total_dc, events, "Heal check (treat injury)"):
        patient.last_treated_hour = state.hour
        amount = roll(rng, healer.id, "treat injury 1d10", SKILL_HEAL_DIE, 0, events)
        restore(state, healer.id, patient, amount, "treat injury", False, events)
    elif state.options.failed_treatment_waits:
        patient.last_treated_hour = state.hour
    return None


def precise_healing(
    state: SpellchromeState, rng: RNG, caster: Combatant, patient: Combatant, events: Events
) -> Rejected | None:
    """Cast a spell that takes minutes (Precise Healing) outside combat; magical, so it stabilises (SC-06)."""
    problem = _in_combat(state)
    if problem:
        return problem
    spell = caster.spells.get("precise_healing")
    if spell is None or spell.uses <= 0:
        return Rejected("no_uses_left", f"{caster.name} cannot cast Precise Healing now.")
    if patient.hp_state == "dead":
        return Rejected("target_out", f"{patient.name} is dead.")
    spell.uses -= 1
    restore(state, caster.id, patient, spell_amount(state, rng, caster, spell, events), spell.name, True, events)
    return None


def knockout(
    state: SpellchromeState,
    rng: RNG,
    attacker: Combatant,
    target: Combatant,
    weapon: str,
    events: Events,
    allow_save: bool = True,
) -> Rejected | None:
    """A knockout blow outside combat (SC-10): a blunt object, a target of no higher level, lethal damage
    (:func:`_knockout_blow`), and (if the GM allows) a Fortitude save DC 20 to stay awake."""
    problem = _in_combat(state)
    if problem:
        return problem
    arm = attacker.arms.get(weapon)
    if arm is None:
        return Rejected("no_such_weapon", f"{attacker.name} carries no weapon called '{weapon}'.")
    if not knockout_allowed(attacker.level, target.level, arm.blunt):
        why = "it is not blunt" if not arm.blunt else f"{target.name} is of higher level"
        return Rejected("no_knockout", f"{attacker.name} cannot knock {target.name} out with {arm.name}: {why}.")
    if not target.able:
        return Rejected("target_out", f"{target.name} is already down.")
    deal_damage(state, target, _knockout_blow(state, rng, attacker, arm, events), events)
    if not target.able:
        return None
    if allow_save and saving_throw(rng, target, "fortitude", KNOCKOUT_SAVE_DC, events, "Fortitude save vs knockout"):
        return None
    target.knocked_out = True
    target.settle()
    events.append(StatusChanged(target.id, "unconscious", "knocked out (SC-10)"))
    return None


def _knockout_blow(state: SpellchromeState, rng: RNG, attacker: Combatant, arm: Arm, events: Events) -> int:
    """The blow's lethal damage (SC-10: "the minimum damage from any blunt object is 1d4 lethal damage"): the
    weapon's own dice + Str modifier, dice smaller than a d4 rolling 1d4 instead, and at least 1 (the strike
    "is not without consequence"); option ``knockout_damage: d4``: always 1d4."""
    if state.options.knockout_damage == "d4":
        return roll(rng, attacker.id, "knockout blow 1d4 (lethal)", 4, 0, events)
    expr = parse(arm.damage)
    biggest = sum(g.sign * g.sides * (g.keep or g.count) for g in expr.groups)
    dice = arm.damage if biggest >= 4 else "1d4"
    mod = attacker.mods["strength"]
    notation = dice + (f"{mod:+d}" if mod else "")
    return max(1, roll_dice(rng, attacker.id, f"knockout blow {notation} (lethal)", notation, events))


def wake(c: Combatant, events: Events) -> None:
    """The GM decides how long a knockout lasts (SC-10); this ends it."""
    if c.knocked_out:
        c.knocked_out = False
        c.settle()
        events.append(StatusChanged(c.id, c.status, "comes round"))
