"""The warp plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`).

Each part is loaded on demand and kept, so reading the record imports nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from affray.core.engine import Ruleset
from affray.core.plugin import DuelModel, Hinter, Plugin
from affray.core.policy import Policy


def _rules() -> Ruleset:
    from affray.rulesets.warp.ruleset import WarpRuleset

    return WarpRuleset()


@cache
def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.warp.policies import WarpHeuristic, WarpSteady

    return {"heuristic": WarpHeuristic, "steady": WarpSteady}


@cache
def _hints() -> Hinter:
    from affray.rulesets.warp.hints import hints

    return hints


@cache
def _duel() -> DuelModel:
    from affray.rulesets.warp.duel import duel_odds

    return DuelModel(duel_odds, ASSUMES)


@cache
def _sheet() -> Any:
    from affray.rulesets.warp.sheet import WarpRules

    return WarpRules()


@cache
def _builder() -> Any:
    from affray.rulesets.warp.builder import build

    return build


@cache
def _checks() -> Mapping[str, Callable[..., Any]]:
    """The exact single checks (``affray odds warp ...``), by name."""
    from affray.rulesets.warp.odds import attack_odds

    return {"attack": attack_odds}


#: What the exact duel model assumes, in one sentence (printed with every answer).
ASSUMES = ("both sides play 'steady': a melee attack each turn with the weapon in hand, best trait, a fresh "
           "plain maneuver, no Experience Pool dice; best defense trait; starting within reach")

PLUGIN = Plugin(
    name="warp", title="WaRP (Over the Edge): trait dice, damage factors and armour dice",
    rules=_rules, policies=_policies, hints=_hints, duel=_duel, checks=_checks, sheet=_sheet,
    builder=_builder)
