"""The witchhammer plug-in record: everything this ruleset contributes, found from one place
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
    from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset

    return WitchHammerRuleset()


@cache
def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.witchhammer.policies import WitchHammerHeuristic, WitchHammerSteady

    return {"heuristic": WitchHammerHeuristic, "steady": WitchHammerSteady}


@cache
def _hints() -> Hinter:
    from affray.rulesets.witchhammer.hints import hints

    return hints


@cache
def _duel() -> DuelModel:
    from affray.rulesets.witchhammer.duel import duel_odds

    return DuelModel(duel_odds, ASSUMES)


@cache
def _sheet() -> Any:
    from affray.rulesets.witchhammer.characters.show import WitchHammerRules

    return WitchHammerRules()


@cache
def _builder() -> Any:
    from affray.rulesets.witchhammer.characters.builder import build

    return build


@cache
def _checks() -> Mapping[str, Callable[..., Any]]:
    """The exact single checks (``affray odds witchhammer ...``), by name."""
    from affray.rulesets.witchhammer.odds import attack_odds, save_odds

    return {"attack": attack_odds, "save": save_odds}


#: What the exact duel model assumes, in one sentence (printed with every answer).
ASSUMES = ("both sides play 'steady': the first two reusable Action cards of the deck every vignette, no Psych "
           "card; starting adjacent and facing each other")

PLUGIN = Plugin(
    name="witchhammer", title="WitchHammer: vignettes of face-down cards, Poise and Health",
    rules=_rules, policies=_policies, hints=_hints, duel=_duel, checks=_checks, sheet=_sheet,
    builder=_builder)
