"""This ruleset's choices as a tree of steps in words (:mod:`affray.core.steps`; the page and the in-world HuD)."""

from __future__ import annotations

from collections.abc import Sequence

from affray.core.engine import ActionSpec
from affray.core.steps import Step, default_steps
from affray.core.view import View
from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset


def steps(view: View[object, object], actor: str, specs: Sequence[ActionSpec], hints: Sequence[str]) -> Step:
    """``actor``'s legal actions as a tree, from the seat's view only."""
    names = {c.id: c.name for c in view.combatants}
    return default_steps(WitchHammerRuleset().action_types(), names, actor, specs, hints)
