"""The hud plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`).

Each part is loaded on demand and kept, so reading the record imports nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from affray.core.engine import Ruleset
from affray.core.plugin import BatchPath, DuelModel, Hinter, Plugin
from affray.core.policy import Policy


def _rules() -> Ruleset:
    from affray.rulesets.hud.ruleset import HudRuleset

    return HudRuleset()


@cache
def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.hud.policies import HudHeuristic, HudSteady

    return {"heuristic": HudHeuristic, "steady": HudSteady}


@cache
def _hints() -> Hinter:
    from affray.rulesets.hud.hints import hints

    return hints


@cache
def _duel() -> DuelModel:
    from affray.rulesets.hud.odds import duel_odds

    return DuelModel(duel_odds, ASSUMES)


@cache
def _sheet() -> Any:
    from affray.rulesets.hud.sheet import HudRules

    return HudRules()


@cache
def _builder() -> Any:
    from affray.rulesets.hud.builder import build

    return build


@cache
def _batch() -> BatchPath:
    from affray.rulesets.hud.batch import BATCH_CHUNK, simplified_chunk, simplified_fit

    return BatchPath(simplified_fit, simplified_chunk, BATCH_CHUNK, "batch (numpy, Dice Simplified)")


@cache
def _checks() -> Mapping[str, Callable[..., Any]]:
    """The exact single checks (``affray odds hud ...``), by name."""
    from affray.rulesets.hud.odds import exchange_odds, simplified_hit_chance

    return {"exchange": exchange_odds, "simplified_hit": simplified_hit_chance}


#: What the exact duel model assumes, in one sentence (printed with every answer).
ASSUMES = ("both sides play 'steady' (Nerdified: attack with every action but one, always defend and riposte, "
           "never disengage; Simplified: the die with the better modifier)")

PLUGIN = Plugin(
    name="hud", title="Sim HuD: Free Form, Dice Simplified, Combat Nerdified",
    rules=_rules, policies=_policies, hints=_hints, duel=_duel, checks=_checks, sheet=_sheet,
    builder=_builder, batch=_batch)
