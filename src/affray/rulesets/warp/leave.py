"""A character leaving the fight, or coming back, by a GM ruling (:mod:`affray.rulesets.warp.adjust`), and going
on with the fight afterwards.

Leaving (down for the count, at death's door or dead by its HP, WR-25/WR-26; escaped by a move, WR-X4; or taken
out, ``out``) a character leaves every window it was in: an attack it makes or suffers ends unresolved with the GM's
ruling and the defender's choice about it (WR-08), its decisions (initiative, a plea, a gestalt roll) and the GM's
about it are no longer awaited, it holds nobody and nobody holds it (WR-30), its turn passes and a held action
lapses (WR-06). When that leaves one side fighting, the fight ends (:func:`~affray.rulesets.warp.turns.check_outcome`).

A ruling draws no dice. The fight then goes on at once where it can without them (the next turn); where it cannot
(a new round's initiative, a gestalt tie rolled again), the first character in the order still fighting is asked to
``go_on``: the step that answers runs it with the match's dice.

A character brought back takes part from the next round: its turn this round is over, and one who missed the
initiative roll acts last. These are this project's rulings (docs/warp.md, "GM rulings").
"""

from __future__ import annotations

import copy

from affray.core.journal import QUIET
from affray.rulesets.warp import gestalt, turns
from affray.rulesets.warp.rolls import is_messed
from affray.rulesets.warp.state import Decision, Fighter, WarpState
from affray.rulesets.warp.wounds import release

GO_ON = "go_on"
#: Decisions about an attack in flight (WR-08, WR-14, WR-31): they go with it.
ABOUT_ATTACK = ("ruling", "defend")


class DiceNeeded(RuntimeError):
    """Going on would roll dice, which a ruling never does."""


class NoDice:
    """An RNG for going on without dice: any draw is :class:`DiceNeeded`."""

    index = 0

    def die(self, sides: int) -> int:
        raise DiceNeeded(f"a d{sides}")

    def salt(self) -> bytes:
        raise DiceNeeded("a salt")


def leave_windows(state: WarpState, f: Fighter) -> None:
    """``f``, out of the fight now, leaves every window it was in (see the module docstring); a plea it must give
    at death's door stays (WR-26)."""
    release(state, f)
    f.holding = False
    a = state.attack
    if a is not None and f.id in (a.attacker, a.target):
        state.attack = None
        state.decisions = [d for d in state.decisions if d.kind not in ABOUT_ATTACK]
    state.decisions = [d for d in state.decisions if not _moot(d, f)]
    go_on_without_dice(state)


def _moot(d: Decision, f: Fighter) -> bool:
    """Whether decision ``d`` is no longer awaited now that ``f`` is out: its own (but the plea at death's door)
    and the GM's verdict on its plea once it is no longer dying (WR-26); a serious wound it took is still ruled."""
    dying = f.status == "dying"
    if d.actor == f.id:
        return not (dying and d.kind == "plea")
    return d.about == f.id and d.kind == "verdict" and not dying


def go_on_without_dice(state: WarpState) -> None:
    """Run what the fight runs by itself, if it needs no dice; else ask the next character to go on."""
    if turns.check_outcome(state, QUIET) if state.mode != "gestalt" else state.outcome is not None:
        state.decisions = [d for d in state.decisions if d.kind != GO_ON]
        return
    if state.decisions and state.decisions[0].kind == GO_ON:
        return
    trial = copy.deepcopy(state)
    try:
        _advance(trial)
    except DiceNeeded:
        state.decisions.insert(0, Decision(GO_ON, resume_actor(state)))
        return
    _advance(state)


def _advance(state: WarpState) -> None:
    if state.mode == "gestalt":
        gestalt.advance(state, NoDice(), QUIET)
    else:
        turns.advance(state, NoDice(), QUIET)


def resume_actor(state: WarpState) -> str:
    """Who is asked to go on: whose turn it is, else the first character in the order still fighting."""
    current = state.current()
    if current is not None and not current.out:
        return current.id
    order = [a for a in state.order if not state.fighters[a].out]
    return (order or [f.id for f in state.fighters.values() if not f.out])[0]


def bring_back(state: WarpState, f: Fighter) -> None:
    """``f`` fights again from the next round (see the module docstring)."""
    f.status, f.down_state, f.wound_class = "fighting", "", ""
    f.turn_started = f.turn_done = True
    f.messed = is_messed(state, f)
    if state.order and f.id not in state.order:
        state.order.append(f.id)
