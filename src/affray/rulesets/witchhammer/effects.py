"""Status effects and the small effect nodes: start, tick and expire statuses; recover Poise; saves and checks.

A status lasts ``rounds`` of the bearer's turns: its tick (bleed, poison) comes at the start of each turn, a
stun skips the turn, and it expires at the end of the last one; so a stun that lands after the victim acted
bites on its next turn. Vignette-long effects (most Psych cards) end with the vignette.
Rules: WH-02, WH-24, WH-27, WH-28, WH-B10, WH-B11, WH-B24 (what a Psych card starts is held), WH-A7.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.witchhammer import targeting
from affray.rulesets.witchhammer.events import Checked, EffectChanged, PoiseChanged
from affray.rulesets.witchhammer.mechanics import DIFFICULTY, save_roll, skill_check
from affray.rulesets.witchhammer.state import (
    CheckNode,
    DamageNode,
    EffectNode,
    Fighter,
    RecoverNode,
    SaveNode,
    Status,
    WitchHammerState,
)
from affray.rulesets.witchhammer.wounds import crits_on, d20, hurt, malus_of, wound

VIGNETTE = -1


#: A node that changes a combatant (and only changes it): what a Psych card starts (WH-B24).
Write = DamageNode | EffectNode | RecoverNode


@dataclass(frozen=True, slots=True)
class Held:
    """What a Psych card resolved onto one combatant, held until every Psych card has resolved (WH-B24): who
    played it (``by``), the card's name, the node, and its recipient."""

    by: str
    card: str
    node: Write
    to: Fighter


@dataclass(slots=True)
class Turn:
    """What one card's resolution needs: who acts, with which card, and whether it has moved (WH-B14); its events
    go to ``journal``. ``held`` is set in the Psych reveal only: the card's writes (damage, statuses, Poise
    recovered) go there instead of onto the combatants, so every Psych card reads them as they stood at the
    reveal (WH-B24)."""

    actor: Fighter
    card: str
    rng: RNG
    journal: Journal
    moved: bool = False
    targets: dict[str, Fighter | None] = field(default_factory=dict)
    held: list[Held] | None = None


def locked(state: WitchHammerState, turn: Turn, selector: str) -> Fighter | None:
    """The combatant a selector names for this card: locked at the reveal or at the turn's first use (WH-A1)."""
    if selector in turn.targets:
        return turn.targets[selector]
    key = (turn.actor.id, selector)
    chosen = state.fighters[state.targets[key]] if key in state.targets else targeting.pick(state, turn.actor, selector)
    turn.targets[selector] = chosen
    return chosen


def recipients(state: WitchHammerState, turn: Turn, to: str, target: Fighter | None) -> list[Fighter]:
    """Who a node's ``to`` names: ``self``, the node's ``target``, a selector, or a group."""
    if to == "self":
        return [] if turn.actor.out else [turn.actor]  # up: not out
    if to == "target":
        return [target] if target is not None and not target.out else []
    if to.startswith("each_"):
        return targeting.group(state, turn.actor, to)
    chosen = locked(state, turn, to)
    return [chosen] if chosen is not None and chosen.up else []


def start_status(
    state: WitchHammerState, f: Fighter, status_id: str, rounds: int | str, source: str, journal: Journal
) -> None:
    """Put a status on ``f`` for ``rounds`` turns or the vignette; a repeat refreshes it (WH-A7)."""
    sd = state.statuses[status_id]
    n = VIGNETTE if rounds == "vignette" else int(rounds)
    existing = None
    for s in f.statuses:
        if s.status is sd:
            existing = s
            break
    if existing is not None and state.options.status_stacking == "refresh":
        if existing.rounds != VIGNETTE and (n == VIGNETTE or n > existing.rounds):
            existing.rounds = n
    else:
        f.statuses.append(Status(sd, n, source))
        f.add_mods(sd)
    if journal.loud:
        journal.append(EffectChanged(f.id, sd.name, "started", n))


def tick(state: WitchHammerState, f: Fighter, rng: RNG, journal: Journal) -> None:
    """Ongoing effects at the start of ``f``'s turn (WH-24, WH-B11)."""
    for s in list(f.statuses):
        sd = s.status
        if not sd.ticks or not f.up:
            continue
        if journal.loud:
            journal.append(EffectChanged(f.id, sd.name, "ticked", s.rounds))
        if sd.tick_wounds:
            wound(state, f, sd.tick_wounds, journal, sd.name)
        if sd.tick_damage and f.up:
            hurt(state, f, sd.tick_damage, rng, journal, sd.name)
        if sd.tick_poise > 0:
            recover(f, sd.tick_poise, journal, sd.name)
        elif sd.tick_poise < 0:
            f.poise = max(0, f.poise + sd.tick_poise)
            if journal.loud:
                journal.append(PoiseChanged(f.id, f.poise, f"loses Poise to {sd.name}"))


def expire(f: Fighter, journal: Journal) -> None:
    """At the end of ``f``'s turn every counted status loses a round; spent ones end (WH-B11)."""
    statuses = f.statuses
    if not statuses:
        return
    kept: list[Status] | None = None  # made only once one ends: most turns end none (vignette-long effects)
    for i, s in enumerate(statuses):
        if s.rounds > 0:
            s.rounds -= 1
            if s.rounds == 0:
                if journal.loud:
                    journal.append(EffectChanged(f.id, s.status.name, "ended", 0))
                if kept is None:
                    kept = statuses[:i]
                continue
        if kept is not None:
            kept.append(s)
    if kept is not None:
        f.statuses = kept
        f.refresh_mods()


def end_vignette_effects(f: Fighter, journal: Journal) -> None:
    """Effects "for the rest of the vignette" end with it (WH-02)."""
    if not f.statuses:
        return
    kept = []
    for s in f.statuses:  # a plain loop, not a comprehension: every fighter's vignette ends
        if s.rounds != VIGNETTE:
            kept.append(s)
    if len(kept) != len(f.statuses):
        for s in f.statuses:
            if s.rounds == VIGNETTE and journal.loud:
                journal.append(EffectChanged(f.id, s.status.name, "ended", 0))
        f.statuses = kept
        f.refresh_mods()


def recover(f: Fighter, amount: int, journal: Journal, why: str) -> None:
    """Regain Poise up to max, unless a status forbids it ("cannot regain Poise"). Rule: WH-B10."""
    if f.no_recovery:
        if journal.loud:
            journal.append(PoiseChanged(f.id, f.poise, f"cannot regain Poise ({why})"))
        return
    f.poise = min(f.max_poise, f.poise + amount)
    if journal.loud:
        journal.append(PoiseChanged(f.id, f.poise, f"regains Poise ({why})"))


def difficulty_of(value: int | str) -> int:
    """A difficulty given as a number or a rung of the ladder (WH-27)."""
    return value if isinstance(value, int) else DIFFICULTY[value]


def defense_value(f: Fighter, kind: str) -> int:
    """A character's aspect Defense of ``kind``: sheet + statuses + the card in force (WH-12)."""
    card = f.card.defenses.get(kind, 0) if f.card is not None else 0
    return f.defenses.get(kind, 0) + f.mod_defenses.get(kind, 0) + card


def saving_throw(state: WitchHammerState, f: Fighter, node: SaveNode, rng: RNG, journal: Journal) -> bool:
    """``f`` saves: d20 + the matching Defense + Malus >= difficulty (WH-27, WH-B7)."""
    bonus = defense_value(f, node["save"])
    malus = malus_of(state, f)
    diff = difficulty_of(node["difficulty"])
    what = f"{node['save']} save" if journal.loud else ""  # only events name the roll
    natural = d20(rng, f.id, what, bonus + malus, journal)
    result = save_roll(natural, bonus, malus, diff, crits_on(state, "check"))
    if journal.loud:
        journal.append(Checked(f.id, what, result.total, diff, result.success))
    return result.success


def skill(state: WitchHammerState, f: Fighter, node: CheckNode, rng: RNG, journal: Journal) -> bool:
    """``f`` makes a skill check: d20 + skill + Malus >= difficulty (WH-28, WH-B7)."""
    bonus = f.skills.get(node["skill"], 0)
    malus = malus_of(state, f)
    diff = difficulty_of(node["difficulty"])
    what = f"{node['skill']} check" if journal.loud else ""  # only events name the roll
    natural = d20(rng, f.id, what, bonus + malus, journal)
    result = skill_check(natural, bonus, diff, malus, crits=crits_on(state, "check"))
    if journal.loud:
        journal.append(Checked(f.id, what, result.total, diff, result.success))
    return result.success
