"""Disengage and pursuit (WL-21, WL-22, WL-B9, WL-B10).

When a combatant disengages, each foe still in the fight chooses to ``chase``, to ``shoot`` (with a
ranged weapon in hand: two attacks, then the target is away) or to ``let_go``. Shots are resolved first;
then, if anyone chases, pursuit rounds are rolled until the gap closes to 2 m or less (back in combat,
the pursuers holding initiative) or opens beyond 15 m (escaped). With several chasers the pursuing side
rolls with its best roller (ruling, see docs/hud.md). Pursuit replaces combat: the round ends with it.
"""

from __future__ import annotations

from affray.core.engine import Action, Rejected, StepResult
from affray.core.events import Defeated
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.hud.combat import (
    accepted,
    attack_modifier,
    check_outcome,
    damage_phase,
    defense_modifier,
    roll,
    scoped_penalty,
)
from affray.rulesets.hud.events import Disengaged, Exchanged, Moved, PursuitChoice, PursuitRound
from affray.rulesets.hud.mechanics import CHANCE_DIE, exchange, pursuit_step
from affray.rulesets.hud.state import Fighter, HudState, Pursuit

CHOICES = ("chase", "shoot", "let_go")


def start(state: HudState, rng: RNG, fleeing: str, journal: Journal) -> None:
    journal.append(Disengaged(fleeing))
    foes = [f.id for f in state.enemies(fleeing)]
    state.pursuit = Pursuit(fleeing, {}, foes)
    state.phase = "pursuit"
    if not foes:
        resolve(state, rng, journal)


def choices(state: HudState, actor: str) -> list[str]:
    p = state.pursuit
    if p is None or actor not in p.waiting:
        return []
    ranged = any(a.kind == "ranged" for a in state.fighters[actor].in_hand())
    return [c for c in CHOICES if c != "shoot" or ranged]


def choose(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """Apply a pursuer's choice (chase, shoot or let go); the last one starts the pursuit. Rules: WL-22."""
    allowed = choices(state, actor)
    if action["type"] not in allowed:
        return Rejected("not_allowed_now", f"In a pursuit the choices are: {', '.join(allowed)}.")
    p = state.pursuit
    assert p is not None
    if journal.loud:
        journal.append(PursuitChoice(actor, action["type"]))
    p.choices[actor] = action["type"]
    p.waiting.remove(actor)
    if not p.waiting:
        resolve(state, rng, journal)
    return accepted(journal)


def _shots(state: HudState, rng: RNG, shooter: Fighter, target: Fighter, journal: Journal) -> None:
    """A ranged pursuer's two attacks on the fleeing target (WL-22), defended per WL-B9."""
    arm = max((a for a in shooter.in_hand() if a.kind == "ranged"), key=lambda a: a.attack)
    for _ in range(2):
        if target.out:
            return
        attack = roll(state, rng, shooter.id, "attack", attack_modifier(shooter, arm, False), journal)
        if state.options.pursuit_shots_defended:
            defense = roll(state, rng, target.id, "defense", defense_modifier(target), journal)
            hit = exchange(attack, defense).hit
            if journal.loud:
                journal.append(Exchanged(shooter.id, target.id, attack, defense, "hit" if hit else "parry", False))
        else:
            hit = True
        if hit:
            damage_phase(state, rng, shooter.id, target.id, arm.id, False, journal)


def _pursuit_roll(state: HudState, rng: RNG, f: Fighter, journal: Journal) -> int:
    modifier = max(f.agility, f.strength) - f.armour_penalty + scoped_penalty(state.options, f)
    return roll(state, rng, f.id, "pursuit", modifier, journal, CHANCE_DIE)


def resolve(state: HudState, rng: RNG, journal: Journal) -> None:
    p = state.pursuit
    assert p is not None
    target = state.fighters[p.fleeing]
    for shooter in [a for a, c in p.choices.items() if c == "shoot"]:
        _shots(state, rng, state.fighters[shooter], target, journal)
    chasers = [state.fighters[a] for a, c in p.choices.items() if c == "chase" and not state.fighters[a].out]
    if not target.out and state.outcome is None:
        if chasers:
            _chase(state, rng, target, chasers, journal)
        else:
            _escape(state, target, journal)
    state.pursuit = None
    if state.outcome is None:
        from affray.rulesets.hud.nerdified import end_round  # a cycle by design: pursuit ends the round

        state.phase = "act"
        end_round(state, rng, journal)


def _chase(state: HudState, rng: RNG, target: Fighter, chasers: list[Fighter], journal: Journal) -> None:
    opts = state.options
    gap = opts.pursuit_start_gap
    for _ in range(opts.round_limit):
        flee = _pursuit_roll(state, rng, target, journal)
        pursue = max(_pursuit_roll(state, rng, c, journal) for c in chasers)
        gap, status = pursuit_step(gap, flee, pursue, opts.pursuit_catch_gap, opts.pursuit_escape_gap)
        if journal.loud:
            journal.append(PursuitRound(target.id, flee, pursue, gap, status))
        if status == "caught":
            place = state.new_place()
            for f in (target, *chasers):  # the chase ends far from everyone else (WL-B13)
                f.place, f.band = place, "far"
                if journal.loud:
                    journal.append(Moved(f.id, place, "is caught up in a new melee" if f is target else "catches up"))
            state.pursuers_first = [c.id for c in chasers]
            return
        if status == "escaped":
            break
    _escape(state, target, journal)


def _escape(state: HudState, target: Fighter, journal: Journal) -> None:
    target.out = "escaped"
    journal.append(Defeated(target.id, "escaped"))
    check_outcome(state, journal)
