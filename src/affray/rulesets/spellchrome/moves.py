"""Walking a validated path: provocations on the way, tumbling, and settling on a legal square.

Rules: SC-18 (a run goes as far as its Run check allows), SC-19 (withdrawing never provokes), SC-21 (a
5-foot step never provokes), SC-24 (tumbling through an opponent, DC ``tumble_dc``; a move that stops on
an illegal square goes back to the last legal one), SC-27 (a)/(b) (leaving a threatened square at full
speed provokes), ruling SC-R9 (each foe gets one chance per turn at a mover's movement).
"""

from __future__ import annotations

from affray.core.events import Note, counted
from affray.core.grid import Pos
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events, loud, roll, skill_check
from affray.rulesets.spellchrome.combat import open_opportunity
from affray.rulesets.spellchrome.events import Moved
from affray.rulesets.spellchrome.mechanics import D20, run_bonus_squares, squares
from affray.rulesets.spellchrome.movement import (
    PROVOKING_KINDS,
    can_punish,
    in_the_way,
    melee_foes,
    run_modifier,
    settle,
    threateners,
    whole_of,
)
from affray.rulesets.spellchrome.state import Combatant, Motion, SpellchromeState

TRIGGER_FLEE = "(a) leaving melee at full speed"
TRIGGER_PAST = "(b) moving on past a melee-armed foe"


def start_motion(
    state: SpellchromeState, rng: RNG, c: Combatant, kind: str, path: list[Pos], tumble: bool, events: Events
) -> None:
    """Begin walking ``path``; a run first rolls how far it gets (SC-18)."""
    if kind == "run":
        path = _run_reach(state, rng, c, path, events)
    state.motion = Motion(c.id, kind, c.pos, list(path), tumble=tumble)
    continue_motion(state, rng, events)


def _run_reach(state: SpellchromeState, rng: RNG, c: Combatant, path: list[Pos], events: Events) -> list[Pos]:
    """The part of a run's path within two moves plus ⌊Run/5⌋ squares (SC-18)."""
    mod = run_modifier(c)
    total = roll(rng, c.id, "Run check", D20, mod, events)
    budget = 2 * squares(c.speed_ft) + run_bonus_squares(total)
    if loud(events):
        events.append(
            Note(f"runs: {total} on the Run check adds {counted(run_bonus_squares(total), 'square')} (SC-18)", c.id)
        )
    spent, kept, whole = 0, [], whole_of(c, "run")
    for p in path:
        spent += state.grid.cost(p, whole)
        if spent > budget:
            break
        kept.append(p)
    return kept


def _report(m: Motion, how: str, events: Events) -> None:
    if len(m.walked) > m.reported:
        if loud(events):
            events.append(Moved(m.actor, list(m.walked[m.reported :]), how))
        m.reported = len(m.walked)


def continue_motion(state: SpellchromeState, rng: RNG, events: Events) -> None:
    """Walk on until the path ends, a foe may punish the mover (SC-27 (a)/(b)), or a tumble fails."""
    m = state.motion
    assert m is not None and state.turn is not None
    c = state.combatants[m.actor]
    how = "tumble" if m.tumble else m.kind
    # who may threaten a square of the walk: the same foes all the way (the walk stops when one may punish)
    armed = melee_foes(state, c) if m.kind in PROVOKING_KINDS else []
    while m.index < len(m.path) and c.able:
        if m.kind in PROVOKING_KINDS:
            foes = []
            for f in threateners(state, c, c.pos, armed):  # a plain loop: every square of a walk asks
                if can_punish(state, f):
                    foes.append(f)
            if foes:
                state.turn.offered.update(f.id for f in foes)
                _report(m, how, events)
                trigger = TRIGGER_FLEE if m.index == 0 else TRIGGER_PAST
                if open_opportunity(state, c, trigger, foes, {"kind": "motion"}, events):
                    return
        nxt = m.path[m.index]
        through = m.tumble and any(o.side != c.side and in_the_way(state, o) for o in state.at(nxt))
        if through and not skill_check(rng, c, "tumble", state.options.tumble_dc, events, "Acrobatics and Tumbling"):
            break
        c.pos = nxt
        m.walked.append(nxt)
        m.index += 1
    finish_motion(state, events)


def finish_motion(state: SpellchromeState, events: Events) -> None:
    """End the move on a legal square, going back along the way if it stopped on an illegal one (SC-24)."""
    m = state.motion
    assert m is not None
    c = state.combatants[m.actor]
    _report(m, "tumble" if m.tumble else m.kind, events)
    end = settle(state, c, m.start, m.walked)
    if end != c.pos:
        c.pos = end
        events.append(Moved(c.id, [end], "settle"))
    state.motion = None
