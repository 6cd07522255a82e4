"""A combatant leaving the fight, or coming back, by a GM ruling (:mod:`affray.rulesets.hud.adjust`), and going on
with the fight afterwards.

Leaving (HP set to 0 or below: ``down``, WL-04, WL-08; or taken out: ``out``) a combatant leaves every window it
was in: its declaration is no longer awaited (WL-09), its queued actions are dropped (WL-B7), an exchange it is in
ends unresolved (WL-11), a pursuit it flees ends, one it was to choose in goes on without it (WL-22), its emergency
prompt passes (WL-17), its Dice Simplified or Free Form turn passes (WL-05, WL-00). When that leaves one side
alone, the fight ends as the rules say (:func:`~affray.rulesets.hud.combat.check_outcome`, WL-B14).

A ruling draws no dice, and the fight often cannot go on without them (the round's next attack, the next round's
initiative). Then ``state.resume`` says what must run and :func:`affray.rulesets.hud.windows.pending` asks the
first combatant in the order still in the fight to ``go_on`` (:func:`go_on`), which runs it with the match's dice.

A combatant brought back (out = false, or HP raised above 0 while down) takes part again from the next round in
Combat Nerdified, from its next turn in the other modes; one that had escaped comes back to a place of its own,
far from the fight (WL-B13). These are this project's rulings: the seed has no GM changes.
"""

from __future__ import annotations

from typing import Any

from affray.core.engine import Rejected, StepResult
from affray.core.journal import QUIET, Journal
from affray.core.rng import RNG
from affray.rulesets.hud import freeform, nerdified, pursuit, simplified
from affray.rulesets.hud.combat import accepted, check_outcome
from affray.rulesets.hud.state import Fighter, HudState

GO_ON = "go_on"


def take_out(state: HudState, f: Fighter, how: str) -> None:
    """``f`` leaves the fight (``how``: ``down`` or ``out``) and every window it was in (see the module docstring)."""
    f.out, f.defenses = how, 0
    if state.mode == "nerdified":
        _leave_round(state, f)
    else:
        _leave_turns(state, f)
    check_outcome(state, QUIET)
    if state.outcome is not None:
        state.resume = ""


def _leave_round(state: HudState, f: Fighter) -> None:
    """Combat Nerdified: out of the declarations, the queue, an exchange, a pursuit, the emergency prompt."""
    state.queue[state.cursor:] = [(a, i) for a, i in state.queue[state.cursor:] if a != f.id]
    if f.id in state.declare_queue:
        state.declare_queue.remove(f.id)
        if not state.declare_queue and state.phase == "declare":
            nerdified.queue_actions(state)  # everyone left has declared: the actions begin (WL-09)
            state.resume = "run"
    ex = state.exchange
    if ex is not None and f.id in (ex.attacker, ex.defender):
        state.exchange, state.resume = None, "run"
    if state.phase == "emergency" and state.emergency_actor == f.id:
        state.phase, state.emergency_actor, state.resume = "act", "", "run"
    p = state.pursuit
    if p is not None:
        if p.fleeing == f.id:  # the pursuit replaced combat: the round ends with it (WL-21)
            state.pursuit, state.phase, state.resume = None, "act", "end_round"
        else:
            p.choices.pop(f.id, None)
            if f.id in p.waiting:
                p.waiting.remove(f.id)
                if not p.waiting:
                    state.resume = "resolve"


def _leave_turns(state: HudState, f: Fighter) -> None:
    """Dice Simplified and Free Form: a duel it is in ends unresolved and its turn passes (WL-05, WL-06, WL-00)."""
    duel = state.duel
    in_duel = duel is not None and f.id in (duel.attacker, duel.defender)
    its_turn = state.phase in ("attack", "post") and simplified.current(state) == f.id
    if f.id in state.free_attackers[1:]:  # a free attack still to come (WL-07); the current one passes below
        state.free_attackers.remove(f.id)
    if not (in_duel or its_turn):
        return
    state.duel = None
    check_outcome(state, QUIET)
    if state.outcome is not None:
        return
    if state.mode == "simplified":
        simplified.next_turn(state, QUIET)
    else:
        freeform.next_poster(state, QUIET)


def bring_back(state: HudState, f: Fighter) -> None:
    """``f`` is in the fight again, from the next round (see the module docstring)."""
    if f.out == "escaped":
        f.place, f.band = state.new_place(), "far"
    f.out, f.plan, f.declared = "", [], False
    state.queue[state.cursor:] = [(a, i) for a, i in state.queue[state.cursor:] if a != f.id]


def go_on(state: HudState, rng: RNG, actor: str, action: dict[str, Any], journal: Journal) -> StepResult:
    """Go on with the fight after a GM ruling, running what ``state.resume`` names with the match's dice."""
    if action.get("type") != GO_ON:
        return Rejected("not_allowed_now", 'The GM has ruled: go on with the fight ({"type": "go_on"}).')
    kind, state.resume = state.resume, ""
    if kind == "resolve":
        pursuit.resolve(state, rng, journal)
    elif kind == "end_round":
        nerdified.end_round(state, rng, journal)
    else:
        nerdified.run(state, rng, journal)
    return accepted(journal)
