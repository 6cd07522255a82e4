"""The spellchrome plug-in record: everything this ruleset contributes, found from one place
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
    from affray.core.plugin import DuelModel, Frozen, Hinter, Sampler
    from affray.core.policy import Policy
    from affray.core.prompts import Builder
    from affray.core.sheetrules import AnySheetRules
    from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset
    from affray.rulesets.spellchrome.setup import SpellchromeSetup
    from affray.rulesets.spellchrome.state import SpellchromeState
    from affray.rulesets.spellchrome.views import SpellchromeView


def _rules() -> SpellchromeRuleset:
    from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset

    return SpellchromeRuleset()


def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.spellchrome.policies import POLICIES

    return POLICIES


def _hints() -> Hinter[SpellchromeView]:
    from affray.rulesets.spellchrome.hints import hints

    return hints


def _duel() -> DuelModel:
    from affray.rulesets.spellchrome.duel import DUEL

    return DUEL


def _checks() -> Mapping[str, Check]:
    from affray.rulesets.spellchrome.odds import CHECKS

    return CHECKS


def _sheet() -> AnySheetRules:
    from affray.rulesets.spellchrome.sheet import RULES

    return RULES


def _builder() -> Builder:
    from affray.rulesets.spellchrome.builder import build

    return build


def _narrator() -> Narrator:
    from affray.rulesets.spellchrome.narration import NARRATOR

    return NARRATOR


def _adjuster() -> Adjuster[SpellchromeState]:
    from affray.rulesets.spellchrome.adjust import ADJUSTER

    return ADJUSTER


def _sampler() -> Sampler[Frozen[SpellchromeState]]:
    from affray.rulesets.spellchrome.sample import SAMPLER

    return SAMPLER


PLUGIN: Plugin[SpellchromeState, SpellchromeSetup] = Plugin(
    name="spellchrome",
    title="Spellchrome RPG: combat on the battle grid",
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
    examples=bundled_examples("spellchrome"),
)
