"""The actions on offer in each WitchHammer window (``Ruleset.legal``), as concrete action objects (``ActionSpec``).

Decisions happen in the Psych and Planning windows (the cards: :func:`affray.rulesets.witchhammer.planning.legal`),
and in the GM's ruling on a PC's failed death's-door save when that option is on (WH-29, WH-B8): the GM rules on
one fighter at a time, that it dies or survives. Every entry is an instance of the action types of
:mod:`affray.rulesets.witchhammer.actions`; the lists are read-only.
"""

from __future__ import annotations

from affray.core.engine import ActionSpec
from affray.core.memo import Memo
from affray.rulesets.witchhammer import planning
from affray.rulesets.witchhammer.state import WitchHammerState


def legal(state: WitchHammerState, actor: str, memo: Memo | None = None) -> list[ActionSpec]:
    """What ``actor`` may do now."""
    window = state.window
    if window is None or actor not in window.actors:
        return []
    if window.phase == "deaths_door":
        return [
            ActionSpec({"type": "fate", "actor": a, "fate": fate}, f"{state.fighters[a].name} {fate}")
            for a in state.pending_fates[:1]
            for fate in ("dies", "survives")
        ]
    return planning.legal(state, actor, memo if memo is not None else Memo())
