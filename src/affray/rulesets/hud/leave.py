"""A combatant leaving the fight, or coming back, by a GM ruling (:mod:`affray.rulesets.hud.adjust`), and the fight
going on afterwards (:func:`settle`).

Leaving (HP set to 0 or below: ``down``, WL-04, WL-08; or taken out: ``out``) a combatant leaves every window it
was in: its declaration is no longer awaited (WL-09), its queued actions are dropped (WL-B7), an exchange it is in
ends unresolved (WL-11), a pursuit it flees ends with the round (WL-21), one it was to choose in goes on without it
(WL-22), its emergency prompt passes (WL-17), a Dice Simplified or Free Form exchange it is in ends unresolved and
its turn passes (WL-05, WL-06, WL-00). When that leaves one side alone, the outcome follows at once, as the rules
decide it (:func:`~affray.rulesets.hud.combat.check_outcome`, WL-B14), so a later change of the ruling is refused.

Applying a change draws no dice and tells nothing. After the ruling's last change :func:`settle` goes on from where
it left the fight, with the match's dice and into the ruling's record, by the very functions a step runs: each
leaving is told (``Defeated``), then the fight's end (``Ended``) if the ruling ended it; else the round's next
actions (:func:`~affray.rulesets.hud.nerdified.run`: after an exchange, an emergency prompt or the last
declaration), the end of the round when the one fleeing left (WL-21), the pursuit once nobody is left to choose
(:func:`~affray.rulesets.hud.pursuit.resolve`, WL-22), the next Dice Simplified or Free Form turn. Whatever those
roll (the next attack, the next round's initiative) is rolled then: the next window is one the rules open anyway.

A combatant brought back (out = false, or HP raised above 0 while down) takes part again from the next round in
Combat Nerdified, from its next turn in the other modes; one that had escaped comes back to a place of its own,
far from the fight (WL-B13). These are this project's rulings: the seed has no GM changes.
"""

from __future__ import annotations

from affray.core.events import Defeated
from affray.core.journal import QUIET, Journal
from affray.core.rng import RNG
from affray.rulesets.hud import freeform, nerdified, pursuit, simplified
from affray.rulesets.hud.combat import check_outcome, ending
from affray.rulesets.hud.state import Fighter, HudState


def take_out(state: HudState, f: Fighter, how: str) -> None:
    """``f`` leaves the fight (``how``: ``down`` or ``out``) and every window it was in (see the module docstring);
    :func:`settle` tells it."""
    f.out, f.defenses = how, 0
    state.leaving.append(f.id)
    if state.mode == "nerdified":
        _leave_round(state, f)
    elif f.id in state.free_attackers[1:]:  # a free attack still to come (WL-07); the current one passes in settle
        state.free_attackers.remove(f.id)
    check_outcome(state, QUIET)


def _leave_round(state: HudState, f: Fighter) -> None:
    """Combat Nerdified: out of the declarations, the queue, an exchange, a pursuit, the emergency prompt."""
    state.queue[state.cursor :] = [(a, i) for a, i in state.queue[state.cursor :] if a != f.id]
    if f.id in state.declare_queue:
        state.declare_queue.remove(f.id)
        if not state.declare_queue and state.phase == "declare":
            nerdified.queue_actions(state)  # everyone left has declared: the actions begin (WL-09)
    ex = state.exchange
    if ex is not None and f.id in (ex.attacker, ex.defender):
        state.exchange = None
    if state.phase == "emergency" and state.emergency_actor == f.id:
        state.phase, state.emergency_actor = "act", ""
    p = state.pursuit
    if p is not None:
        if p.fleeing == f.id:  # the pursuit replaced combat: the round ends with it, its actions left undone (WL-21)
            state.pursuit, state.phase, state.cursor = None, "act", len(state.queue)
        else:
            p.choices.pop(f.id, None)
            if f.id in p.waiting:
                p.waiting.remove(f.id)


def bring_back(state: HudState, f: Fighter) -> None:
    """``f`` is in the fight again, from the next round (see the module docstring)."""
    if f.out == "escaped":
        f.place, f.band = state.new_place(), "far"
    f.out, f.plan, f.declared = "", [], False
    state.queue[state.cursor :] = [(a, i) for a, i in state.queue[state.cursor :] if a != f.id]


def settle(state: HudState, rng: RNG, journal: Journal) -> None:
    """After a GM ruling's changes: tell who left, then go on as the rules do (see the module docstring)."""
    for actor in state.leaving:
        journal.append(Defeated(actor, state.fighters[actor].out))
    state.leaving = []
    duel = state.duel
    broken = duel is not None and any(state.fighters[a].out for a in (duel.attacker, duel.defender))
    if broken:
        state.duel = None  # it ends unresolved (WL-06): the attacker's turn is spent
    if state.outcome is not None:
        journal.append(ending(state, state.outcome))
    elif state.mode == "nerdified":
        _go_on_round(state, rng, journal)
    elif broken or (state.phase in ("attack", "post") and state.fighters[simplified.current(state)].out):
        if state.mode == "simplified":
            simplified.next_turn(state, journal)  # WL-05, WL-07
        else:
            freeform.next_poster(state, journal)  # WL-00


def _go_on_round(state: HudState, rng: RNG, journal: Journal) -> None:
    """Combat Nerdified: the pursuit once nobody is left to choose (WL-22), else the round's next actions (an
    exchange that ended, a prompt that passed, the last declaration, the round's end: WL-09, WL-11, WL-17, WL-21).
    In a window the rules keep open (a declaration, an exchange's decision, a pursuer's choice) nothing runs."""
    p = state.pursuit
    if p is not None:
        if not p.waiting:
            pursuit.resolve(state, rng, journal)
    elif state.exchange is None and state.phase == "act":
        nerdified.run(state, rng, journal)
