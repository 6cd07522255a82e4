"""The witchhammer plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is loaded by a function of its own, which imports the part's module on its
first call (reading the record imports nothing else) and says what it returns, so mypy checks every part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Countdown, Plugin
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
    from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset
    from affray.rulesets.witchhammer.sample import WitchHammerKnown
    from affray.rulesets.witchhammer.setup import WitchHammerSetup
    from affray.rulesets.witchhammer.state import WitchHammerState
    from affray.rulesets.witchhammer.views import WitchHammerView


def _rules() -> WitchHammerRuleset:
    from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset

    return WitchHammerRuleset()


def _policies() -> Mapping[str, Callable[[], Policy]]:
    from affray.rulesets.witchhammer.policies import POLICIES

    return POLICIES


def _hints() -> Hinter[WitchHammerView]:
    from affray.rulesets.witchhammer.hints import hints

    return hints


def _duel() -> DuelModel:
    from affray.rulesets.witchhammer.duel import DUEL

    return DUEL


def _checks() -> Mapping[str, Check]:
    from affray.rulesets.witchhammer.odds import CHECKS

    return CHECKS


def _sheet() -> AnySheetRules:
    from affray.rulesets.witchhammer.characters.show import RULES

    return RULES


def _builder() -> Builder:
    from affray.rulesets.witchhammer.characters.builder import build

    return build


def _narrator() -> Narrator:
    from affray.rulesets.witchhammer.narration import NARRATOR

    return NARRATOR


def _adjuster() -> Adjuster[WitchHammerState]:
    from affray.rulesets.witchhammer.adjust import ADJUSTER

    return ADJUSTER


def _sampler() -> Sampler[WitchHammerKnown]:
    from affray.rulesets.witchhammer.sample import SAMPLER

    return SAMPLER


PLUGIN: Plugin[WitchHammerState, WitchHammerSetup] = Plugin(
    name="witchhammer",
    title="WitchHammer: vignettes of face-down cards, Poise and Health",
    rules=_rules,
    rules_version="2",  # 2: the Psych phase resolves against the reveal and lands together (WH-B24)
    policies=_policies,
    hints=_hints,
    duel=_duel,
    checks=_checks,
    sheet=_sheet,
    builder=_builder,
    narrator=_narrator,
    adjuster=_adjuster,
    sampler=_sampler,
    countdown=Countdown("Drama Timer", "WH-B20", option="drama_timer", action="timeout", seconds="drama_timer_seconds"),
    examples=bundled_examples("witchhammer"),
    round_word="vignette",  # WitchHammer counts its rounds as vignettes
)
