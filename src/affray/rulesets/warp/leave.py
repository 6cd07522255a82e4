"""A character leaving the fight, or coming back, by a GM ruling (:mod:`affray.rulesets.warp.adjust`), and the fight
going on afterwards (:func:`settle`).

Leaving (down for the count, at death's door or dead by its HP, WR-25/WR-26; escaped by a move, WR-X4; or taken
out, ``out``) a character leaves every window it was in: an attack it makes or suffers ends unresolved with the GM's
ruling and the defender's choice about it (WR-08), its decisions (initiative, a plea, a gestalt roll) and the GM's
about it are no longer awaited, it holds nobody and nobody holds it (WR-30), its turn passes and a held action
lapses (WR-06). When that leaves one side fighting, the outcome follows at once
(:func:`~affray.rulesets.warp.turns.check_outcome`), so a later change of the ruling is refused.

Applying a change draws no dice and tells nothing. After the ruling's last change :func:`settle` goes on from where
it left the fight, with the match's dice and into the ruling's record: each character it took out or put nearer
death is told (``Defeated``, in the words the wound would have used), then the fight's end (``Ended``) if the ruling
ended it; else what the fight runs by itself after any step
(:func:`~affray.rulesets.warp.resolution.continue_fight`): the next turn, a new round and its initiative under
``reroll_initiative_each_round``, the initiative roll once the last PC's choice is gone (WR-05), the gestalt totals
once the last roll is in, a tie rolled again (WR-35). The next window is one the rules open anyway.

A character brought back takes part from the next round: its turn this round is over, and one who missed the
initiative roll acts last. These are this project's rulings (docs/warp.md, "GM rulings").
"""

from __future__ import annotations

from affray.core.events import Defeated, Ended
from affray.core.journal import QUIET, Journal
from affray.core.rng import RNG
from affray.rulesets.warp import turns
from affray.rulesets.warp.resolution import continue_fight
from affray.rulesets.warp.rolls import is_messed
from affray.rulesets.warp.state import Decision, Fighter, WarpState
from affray.rulesets.warp.wounds import release

#: Decisions about an attack in flight (WR-08, WR-14, WR-31): they go with it.
ABOUT_ATTACK = ("ruling", "defend")


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
    if state.mode != "gestalt":
        turns.check_outcome(state, QUIET)  # told by settle


def _moot(d: Decision, f: Fighter) -> bool:
    """Whether decision ``d`` is no longer awaited now that ``f`` is out: its own (but the plea at death's door)
    and the GM's verdict on its plea once it is no longer dying (WR-26); a serious wound it took is still ruled."""
    dying = f.status == "dying"
    if d.actor == f.id:
        return not (dying and d.kind == "plea")
    return d.about == f.id and d.kind == "verdict" and not dying


def worse(before: str, f: Fighter) -> bool:
    """Whether ``f``'s status, ``before`` a change, is now one that takes it out of the fight or nearer death: the
    change :func:`settle` tells."""
    return f.out and f.status != before and (before == "fighting" or f.status in ("dying", "dead"))


def how_left(f: Fighter) -> str:
    """How ``f`` is out of the fight, as a wound or a move says it (WR-25, WR-26, WR-X4), or ``out`` (a ruling)."""
    if f.status == "down":
        return f"down for the count ({f.down_state})"
    return "at death's door" if f.status == "dying" else f.status


def settle(state: WarpState, rng: RNG, events: Journal) -> None:
    """After a GM ruling's changes: tell who left, then go on as the rules do (see the module docstring)."""
    for actor in state.leaving:
        events.append(Defeated(actor, how_left(state.fighters[actor])))
    state.leaving = []
    if state.outcome is not None:
        events.append(Ended(state.outcome.winner, state.outcome.reason))
        return
    current = state.current()
    if current is not None and current.out:
        state.slot += 1  # its turn passes, as after an action: a holder is offered the next turn again (WR-06)
    continue_fight(state, rng, events)


def bring_back(state: WarpState, f: Fighter) -> None:
    """``f`` fights again from the next round (see the module docstring)."""
    f.status, f.down_state, f.wound_class = "fighting", "", ""
    f.turn_started = f.turn_done = True
    f.messed = is_messed(state, f)
    if state.order and f.id not in state.order:
        state.order.append(f.id)
