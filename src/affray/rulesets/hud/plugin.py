"""The hud plug-in record: everything this ruleset contributes, found from one place
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
    from affray.core.plugin import BatchPath, DuelModel, Frozen, Hinter, Sampler
    from affray.core.policy import Policy
    from affray.core.prompts import Builder
    from affray.core.sheetrules import AnySheetRules
    from affray.rulesets.hud.ruleset import HudRuleset
    from affray.rulesets.hud.setup import HudSetup
    from affray.rulesets.hud.state import HudState
    from affray.rulesets.hud.views import HudView
    from affray.sim.runner import SimSpec
    from affray.sim.stats import Tally


def _rules() -> HudRuleset:
    from affray.rulesets.hud.ruleset import HudRuleset

    return HudRuleset()


def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.hud.policies import POLICIES

    return POLICIES


def _hints() -> Hinter[HudView]:
    from affray.rulesets.hud.hints import hints

    return hints


def _duel() -> DuelModel:
    from affray.rulesets.hud.odds import DUEL

    return DUEL


def _checks() -> Mapping[str, Check]:
    from affray.rulesets.hud.odds import CHECKS

    return CHECKS


def _sheet() -> AnySheetRules:
    from affray.rulesets.hud.sheet import RULES

    return RULES


def _builder() -> Builder:
    from affray.rulesets.hud.builder import build

    return build


def _batch() -> BatchPath[SimSpec, Tally]:
    from affray.rulesets.hud.batch import BATCH

    return BATCH


def _narrator() -> Narrator:
    from affray.rulesets.hud.narration import NARRATOR

    return NARRATOR


def _adjuster() -> Adjuster[HudState]:
    from affray.rulesets.hud.adjust import ADJUSTER

    return ADJUSTER


def _sampler() -> Sampler[Frozen[HudState]]:
    from affray.rulesets.hud.sample import SAMPLER

    return SAMPLER


PLUGIN: Plugin[HudState, HudSetup] = Plugin(
    name="hud",
    title="Sim HuD: Free Form, Dice Simplified, Combat Nerdified",
    rules_version="2",
    rules=_rules,
    policies=_policies,
    hints=_hints,
    duel=_duel,
    checks=_checks,
    sheet=_sheet,
    builder=_builder,
    batch=_batch,
    narrator=_narrator,
    adjuster=_adjuster,
    sampler=_sampler,
    examples=bundled_examples("hud"),
)
