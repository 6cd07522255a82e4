"""The warp plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is loaded by a function of its own, which imports the part's module on its
first call (reading the record imports nothing else) and says what it returns, so mypy checks every part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from affray.core.adjust import Adjuster
    from affray.core.checks import Check
    from affray.core.narration import Narrator
    from affray.core.plugin import DuelModel, Hinter, Sampler
    from affray.core.policy import Policy
    from affray.core.prompts import Builder
    from affray.core.sheetrules import AnySheetRules
    from affray.rulesets.warp.ruleset import WarpRuleset
    from affray.rulesets.warp.sample import WarpKnown
    from affray.rulesets.warp.setup import WarpSetup
    from affray.rulesets.warp.state import WarpState
    from affray.rulesets.warp.view_types import WarpView


def _rules() -> WarpRuleset:
    from affray.rulesets.warp.ruleset import WarpRuleset

    return WarpRuleset()


def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.warp.policies import POLICIES

    return POLICIES


def _hints() -> Hinter[WarpView]:
    from affray.rulesets.warp.hints import hints

    return hints


def _duel() -> DuelModel:
    from affray.rulesets.warp.duel import DUEL

    return DUEL


def _checks() -> Mapping[str, Check]:
    from affray.rulesets.warp.odds import CHECKS

    return CHECKS


def _sheet() -> AnySheetRules:
    from affray.rulesets.warp.sheet import RULES

    return RULES


def _builder() -> Builder:
    from affray.rulesets.warp.builder import build

    return build


def _narrator() -> Narrator:
    from affray.rulesets.warp.narration import NARRATOR

    return NARRATOR


def _adjuster() -> Adjuster[WarpState]:
    from affray.rulesets.warp.adjust import ADJUSTER

    return ADJUSTER


def _sampler() -> Sampler[WarpKnown]:
    from affray.rulesets.warp.sample import SAMPLER

    return SAMPLER


PLUGIN: Plugin[WarpState, WarpSetup] = Plugin(
    name="warp",
    title="WaRP (Over the Edge): trait dice, damage factors and armour dice",
    # "2": ganging up gives exactly max(0, attackers - C) dice by default (WR-B17), a clumsy dodge takes no Clumsy
    # penalty die (WR-B16), a taser rolls 5d6 under Alternate Damage (WR-B18)
    rules_version="2",
    rules=_rules,
    policies=_policies,
    hints=_hints,
    duel=_duel,
    checks=_checks,
    sheet=_sheet,
    builder=_builder,
    narrator=_narrator,
    adjuster=_adjuster,
    sampler=_sampler,
    examples=bundled_examples("warp"),
)
