"""Attacks, attacks of opportunity, spells and first aid.

Rules: SC-B1 (attack = d20 + BAB + Str/Dex modifier vs Defense = 10 + Dex + deflection + other; damage =
weapon dice + Str for melee, less damage reduction: the **SRD-standard assumption**), SC-26 (one AoO per
round), SC-27 (a)..(e) (what provokes), SC-B7 (a failed Concentration check provokes after the spell),
SC-06 (first aid DC 15; magical healing stabilises), SC-07 (Steal Life ignores EX-HP), SC-11 (non-lethal).

An action that provokes stops: :func:`open_opportunity` queues the foes that can take an attack of
opportunity, each gets a window to take it or not, and then the stopped action resumes.
"""

from __future__ import annotations

from functools import lru_cache

from affray.core.grid import Grid, Pos, adjacent, clear_line, distance
from affray.core.journal import QuietJournal
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events, loud, roll, roll_dice, saving_throw, skill_bonus, skill_check
from affray.rulesets.spellchrome.events import Attacked, OpportunityDeclined, Provoked, SpellCast
from affray.rulesets.spellchrome.health import after_the_fight, check_outcome, deal_damage, restore, stabilise
from affray.rulesets.spellchrome.mechanics import (
    CONCENTRATION_DC,
    D20,
    FIRST_AID_DC,
    attack_hits,
    defense,
    iterative_bonuses,
    range_penalty,
)
from affray.rulesets.spellchrome.movement import threateners
from affray.rulesets.spellchrome.state import (
    CLOSE_KINDS,
    Arm,
    Combatant,
    Opportunity,
    Resume,
    SpellchromeState,
    SpellKnown,
)

TRIGGER_UNARMED = "(c) an unarmed attack against a melee-armed foe"
TRIGGER_RANGED = "(d) a ranged attack in melee"
TRIGGER_SPELL = "(e) casting a spell in melee"


@lru_cache(maxsize=16_384)
def line_clear(grid: Grid, a: Pos, b: Pos) -> bool:
    """:func:`~affray.core.grid.clear_line` (ruling SC-R10), kept per map and pair of squares: a map never changes,
    and shooters shoot along the same few lines blow after blow, fight after fight."""
    return clear_line(grid, a, b)


def defense_of(t: Combatant) -> int:
    """Defense (SC-B1, SRD-standard assumption); a helpless target's Dex counts as 0."""
    return defense(t.mods["dexterity"], t.deflection, t.defense_bonus, not t.able)  # helpless: not able


def attack_bonus(c: Combatant, arm: Arm, target: Combatant, base: int | None = None) -> int:
    """BAB + Str modifier (close) or Dex modifier (ranged) + the weapon's bonus − range penalty (SC-B1)."""
    ability = "strength" if arm.kind in CLOSE_KINDS else "dexterity"
    penalty = range_penalty(distance(c.pos, target.pos), arm.range_sq) or 0 if arm.kind == "ranged" else 0
    return (c.base_attack if base is None else base) + c.mods[ability] + arm.attack_bonus + penalty


def reach_problem(state: SpellchromeState, c: Combatant, arm: Arm, target: Combatant) -> tuple[str, str] | None:
    """Why ``c`` cannot strike ``target`` with ``arm`` from where it stands, if it cannot."""
    if arm.kind in CLOSE_KINDS:
        (ax, ay), (bx, by) = c.pos, target.pos
        dx, dy = ax - bx, ay - by
        if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:  # not adjacent(), inline: every blow asks
            return "out_of_reach", f"{target.name} is not adjacent; {arm.name} reaches one square."
        return None
    if range_penalty(distance(c.pos, target.pos), arm.range_sq) is None:
        return "out_of_range", f"{target.name} is beyond ten range increments of {arm.name}."
    if not line_clear(state.grid, c.pos, target.pos):
        return "no_line_of_sight", f"A wall stands between {c.name} and {target.name}."
    return None


def strike(
    state: SpellchromeState,
    rng: RNG,
    c: Combatant,
    target: Combatant,
    arm: Arm,
    bonus: int,
    events: Events,
    opportunity: bool = False,
) -> None:
    """One attack roll and, on a hit, its damage (SC-B1, SRD-standard assumption; SC-11 non-lethal)."""
    noisy = not isinstance(events, QuietJournal)  # loud(events), inline: every blow asks
    if noisy:
        purpose = "attack of opportunity" if opportunity else f"attack ({arm.name})"
        natural = roll(rng, c.id, purpose, D20, bonus, events) - bonus
    else:
        natural = rng.die(D20)  # what roll() draws for a quiet journal, less the bonus it adds
    value = defense_of(target)
    hit = attack_hits(natural, bonus, value, state.options.natural_attack_rolls)
    if noisy:
        events.append(Attacked(c.id, target.id, arm.id, natural + bonus, value, hit, opportunity))
    if not hit:
        return
    mod = c.mods["strength"] if arm.kind in CLOSE_KINDS else 0
    notation = arm.damage + (f"{mod:+d}" if mod else "")
    amount = max(0, roll_dice(rng, c.id, "damage", notation, events))
    if natural == D20:
        amount *= state.options.critical_multiplier
    nonlethal = state.options.nonlethal_unarmed and arm.kind == "unarmed"
    deal_damage(state, target, amount, events, nonlethal=nonlethal, by=c)


def perform_attack(
    state: SpellchromeState, rng: RNG, c: Combatant, target: Combatant, arm: Arm, full: bool, events: Events
) -> None:
    """An attack (standard action) or a full attack (SRD iterative bonuses, one target; SC-15)."""
    bonuses = iterative_bonuses(c.base_attack) if full else [c.base_attack]
    for base in bonuses:
        if not c.able or target.hp_state == "dead" or target.surrendered or target.out or after_the_fight(state):
            return  # no blow after the last one: the fight is decided (SC-04, option dying_after_the_fight)
        if reach_problem(state, c, arm, target) is not None:
            return
        strike(state, rng, c, target, arm, attack_bonus(c, arm, target, base), events)


def may_punish(provoker: Combatant, foe: Combatant) -> bool:
    """``foe`` may still take its attack of opportunity on ``provoker``: both still in the fight, and ``foe``
    melee-armed beside it (SC-26, SC-27, ruling SC-R3). Always so in play; a GM ruling may change it (a foe taken
    out or moved away, a provoker taken out) while the foes decide."""
    return provoker.able and foe.melee_armed and adjacent(foe.pos, provoker.pos)


def able_to_punish(foes: list[Combatant]) -> list[Combatant]:
    out = []
    for f in foes:  # a plain loop, not a comprehension: every blow that may provoke asks
        if f.aoo_left > 0 and f.able:
            out.append(f)
    return out


def attack_provokers(
    state: SpellchromeState, c: Combatant, arm: Arm, target: Combatant, threats: list[Combatant] | None = None
) -> tuple[str, list[Combatant]]:
    """Who may take an AoO before this attack lands: SC-27 (c) and (d), the Guarded feats, ruling SC-R6.
    ``threats``: :func:`threateners` of ``c``'s square, when the caller has them."""
    if arm.kind == "unarmed" and "unarmed" not in c.guards and target.melee_armed:
        return TRIGGER_UNARMED, able_to_punish([target])
    if arm.kind == "ranged" and "ranged" not in c.guards:
        threats = threateners(state, c, c.pos) if threats is None else threats
        if target in threats or (threats and state.options.ranged_provokes_when == "any_adjacent"):
            return TRIGGER_RANGED, able_to_punish(threats)
    return "", []


def cast_provokers(state: SpellchromeState, c: Combatant) -> list[Combatant]:
    """Foes who could punish a spell cast here (SC-27 (e)); a Concentration DC 15 check may avoid it."""
    return able_to_punish(threateners(state, c, c.pos))


def open_opportunity(
    state: SpellchromeState,
    provoker: Combatant,
    trigger: str,
    foes: list[Combatant],
    resume: Resume | None,
    events: Events,
) -> bool:
    """Stop the provoking action and queue the foes who may take an AoO (SC-26, SC-27); False if none can."""
    eligible = [f.id for f in able_to_punish(foes)]
    if not eligible or after_the_fight(state):  # no blows once the fight is decided
        return False
    events.append(Provoked(provoker.id, trigger, list(eligible)))
    state.opportunity = Opportunity(provoker.id, trigger, eligible, resume)
    return True


def answer_opportunity(
    state: SpellchromeState, rng: RNG, foe: Combatant, take: bool, events: Events
) -> tuple[bool, Resume | None]:
    """``foe`` takes its attack of opportunity or lets it go. Returns (finished, what to resume)."""
    opp = state.opportunity
    assert opp is not None
    provoker = state.combatants[opp.provoker]
    opp.foes.pop(0)
    if take:
        foe.aoo_left -= 1
        strike(state, rng, foe, provoker, foe.weapon, attack_bonus(foe, foe.weapon, provoker), events, True)
    elif loud(events):
        events.append(OpportunityDeclined(foe.id, provoker.id))
    opp.foes = [f for f in opp.foes if state.combatants[f].able] if provoker.able else []
    if opp.foes and state.outcome is None and not after_the_fight(state):
        return False, None
    state.opportunity = None
    return True, opp.resume


def spell_amount(state: SpellchromeState, rng: RNG, c: Combatant, spell: SpellKnown, events: Events) -> int:
    """The spell's dice + per-level bonus (capped) + half the Heal bonus for a skilled healer."""
    bonus = min(spell.per_level * c.level, spell.max_level_bonus)
    if spell.healer_bonus:
        bonus += max(0, skill_bonus(c, "heal")) // 2
    notation = spell.dice + (f"{bonus:+d}" if bonus else "")
    return max(0, roll_dice(rng, c.id, spell.name, notation, events))


def resolve_spell(
    state: SpellchromeState, rng: RNG, c: Combatant, spell: SpellKnown, target: Combatant, events: Events
) -> None:
    """Swift Healing (magical healing stabilises, SC-06) or Steal Life (ignores EX-HP, SC-07)."""
    if spell.effect != "heal" and after_the_fight(state):
        return  # a spell held back by an attack of opportunity: no harm once the fight is decided
    events.append(SpellCast(c.id, spell.name, target.id))
    amount = spell_amount(state, rng, c, spell, events)
    if spell.effect == "heal":
        restore(state, c.id, target, amount, spell.name, True, events)
        return
    if spell.save != "none" and saving_throw(rng, target, spell.save, spell.dc, events) and spell.half_on_save:
        amount //= 2
    deal_damage(state, target, amount, events, steal_life=True, by=c)


def concentration(state: SpellchromeState, rng: RNG, c: Combatant, events: Events) -> bool:
    """Concentration DC 15, usable untrained (SC-27 (e))."""
    return skill_check(rng, c, "concentration", CONCENTRATION_DC, events, "Concentration to cast in melee")


def first_aid(state: SpellchromeState, rng: RNG, c: Combatant, target: Combatant, events: Events) -> None:
    """Heal check DC 15 stabilises a dying character (SC-06)."""
    if skill_check(rng, c, "heal", FIRST_AID_DC, events, "Heal check (first aid)"):
        stabilise(target, f"first aid by {c.name} (SC-06)", events)
        check_outcome(state, events)
