"""Who must act now in a HuD fight (``Ruleset.pending``), as a plain function of the state.

Rules: WL-09 (declarations from the lowest initiative up), WL-11..WL-14 (an exchange's decisions), WL-17 (the
emergency prompt), WL-21/WL-22 (the pursuers' choices), WL-05/WL-06 (Dice Simplified's turns). A GM ruling opens
no window of its own: its settle goes on to one of these (:mod:`affray.rulesets.hud.leave`). The windows are
immutable and the same few repeat all fight long, so each is made once (:func:`_window`) and shared: the policies'
observations and choices ask for the window at every decision.
"""

from __future__ import annotations

from functools import lru_cache

from affray.core.engine import Window
from affray.rulesets.hud.simplified import current
from affray.rulesets.hud.state import HudState


@lru_cache(maxsize=4096)
def _window(phase: str, actors: tuple[str, ...], prompt: str, simultaneous: str = "") -> Window:
    return Window(phase, actors, prompt, simultaneous)


@lru_cache(maxsize=4096)
def _exchange_window(stage: str, kind: str, attacker: str, defender: str, names: tuple[str, str]) -> Window:
    """An exchange's decision: the defender's in ``defend`` and ``parry``, the attacker's in ``follow``. The prompt
    names the two by their names (a seat reads it), never by their ids."""
    who = defender if stage in ("defend", "parry") else attacker
    return Window(stage, (who,), f"{names[0]}'s {kind} against {names[1]}")


def pending(state: HudState) -> Window | None:
    """The decision due now, or ``None`` when the fight is over (see the module docstring)."""
    if state.outcome is not None:
        return None
    if state.pursuit is not None:
        # The pursuers choose independently (WL-22): a simultaneous window, one per disengage.
        return _window(
            "pursuit",
            tuple(state.pursuit.waiting),
            "Chase, shoot or let them go?",
            f"r{state.round}.pursuit.{state.pursuit.fleeing}",
        )
    ex = state.exchange
    if ex is not None:
        names = (state.fighters[ex.attacker].name, state.fighters[ex.defender].name)
        return _exchange_window(ex.stage, ex.kind, ex.attacker, ex.defender, names)
    phase = state.phase
    if phase == "declare":
        return _window("declare", (state.declare_queue[0],), "Declare this round's actions")
    if phase == "emergency":
        return _window(
            "emergency", (state.emergency_actor,), "Add an emergency action (-2 to all rolls next round) or carry on?"
        )
    if phase in ("respond", "settle"):
        assert state.duel is not None
        return _window(phase, (state.duel.defender,), "Roll Defense or Injury")
    if phase in ("attack", "post"):
        return _window(phase, (current(state),), "Your turn")
    return None
