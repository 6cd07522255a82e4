"""The spellchrome plug-in record: everything this ruleset contributes, found from one place
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
    from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset

    return SpellchromeRuleset()


@cache
def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.spellchrome.policies import SpellchromeHeuristic, SpellchromeSteady

    return {"heuristic": SpellchromeHeuristic, "steady": SpellchromeSteady}


@cache
def _hints() -> Hinter:
    from affray.rulesets.spellchrome.hints import hints

    return hints


@cache
def _duel() -> DuelModel:
    from affray.rulesets.spellchrome.duel import duel_odds

    return DuelModel(duel_odds, ASSUMES)


@cache
def _sheet() -> Any:
    from affray.rulesets.spellchrome.sheet import SpellchromeRules

    return SpellchromeRules()


@cache
def _builder() -> Any:
    from affray.rulesets.spellchrome.builder import build

    return build


@cache
def _checks() -> Mapping[str, Callable[..., Any]]:
    """The exact single checks (``affray odds spellchrome ...``), by name."""
    from affray.rulesets.spellchrome.odds import attack_odds, dying_odds, save_odds

    return {"attack": attack_odds, "save": save_odds, "dying": dying_odds}


#: What the exact duel model assumes, in one sentence (printed with every answer).
ASSUMES = ("both sides play 'steady': a (full) attack on the foe each turn with the weapon in hand, never "
           "moving; starting adjacent")

PLUGIN = Plugin(
    name="spellchrome", title="Spellchrome RPG: combat on the battle grid",
    rules=_rules, policies=_policies, hints=_hints, duel=_duel, checks=_checks, sheet=_sheet,
    builder=_builder)
