"""The actions on offer in each HuD window (``Ruleset.legal``), as concrete action objects (``ActionSpec``).

The decision due is the one :func:`~affray.rulesets.hud.windows.pending` names: a declaration (WL-09, a plan of
the round's actions, whose ``plan`` is a free parameter: any plan the rules allow may be declared), a pursuer's
choice (WL-21, WL-22), the emergency prompt (WL-17), an exchange's reaction (WL-11..WL-14), or a turn of Dice
Simplified (WL-05, WL-06) or Free Form.
"""

from __future__ import annotations

from affray.core.engine import ActionSpec, Window
from affray.core.memo import Memo
from affray.rulesets.hud import emergency, freeform, nerdified, pursuit, simplified
from affray.rulesets.hud.actions import REACTION_LABELS
from affray.rulesets.hud.plans import legal_plans
from affray.rulesets.hud.state import HudState
from affray.rulesets.hud.windows import pending


def window_now(state: HudState, memo: Memo | None) -> Window | None:
    """The window, worked out once per match version with a memo (the views and legal lists built in it ask)."""
    return pending(state) if memo is None else memo.now("hud-window", lambda: pending(state))


def legal(state: HudState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
    """The actions ``actor`` may take now. A declaration lists the usual plans; any plan the rules allow may be
    declared (``plan`` is free)."""
    window = window_now(state, memo)
    if window is None or actor not in window.actors:
        return []
    if window.phase == "declare":
        return legal_plans(state, state.fighters[actor], memo)
    if window.phase == "pursuit":
        return reactions(pursuit.choices(state, actor), memo)
    if window.phase == "emergency":
        return emergency.choices(state, actor)
    if state.exchange is not None:
        return reactions(nerdified.reaction_choices(state, actor), memo)
    if window.phase in ("respond", "settle"):
        return simplified.respond_specs(state)
    if window.phase == "attack":
        return simplified.attack_specs(state, actor)
    return freeform.legal(state, actor)


def reactions(choices: list[str], memo: Memo | None) -> list[ActionSpec]:
    """The reaction specs; the few lists there are are kept for the match (read-only, like every memo value)."""

    def build() -> list[ActionSpec]:
        return [ActionSpec({"type": c}, REACTION_LABELS[c]) for c in choices]

    return build() if memo is None else memo.static(("hud-reactions", *choices), build)
