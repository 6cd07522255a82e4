"""The hud plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin, part
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.core.engine import Ruleset
    from affray.rulesets.hud.ruleset import HudRuleset
    from affray.rulesets.hud.setup import HudSetup
    from affray.rulesets.hud.state import HudState

PLUGIN: Plugin[HudState, HudSetup] = Plugin(
    name="hud", title="Sim HuD: Free Form, Dice Simplified, Combat Nerdified",
    rules_version="2",
    rules=part("affray.rulesets.hud.ruleset", "HudRuleset", build=True),
    policies=part("affray.rulesets.hud.policies", "POLICIES"),
    hints=part("affray.rulesets.hud.hints", "hints"),
    duel=part("affray.rulesets.hud.odds", "DUEL"),
    checks=part("affray.rulesets.hud.odds", "CHECKS"),
    sheet=part("affray.rulesets.hud.sheet", "RULES"),
    builder=part("affray.rulesets.hud.builder", "build"),
    batch=part("affray.rulesets.hud.batch", "BATCH"),
    narrator=part("affray.rulesets.hud.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.hud.adjust", "ADJUSTER"),
    sampler=part("affray.rulesets.hud.sample", "SAMPLER"),
    examples=bundled_examples("hud"),
)

if TYPE_CHECKING:  # the rules class satisfies the contract with its own state and setup (checked by mypy only)
    _RULES: Ruleset[HudState, HudSetup] = HudRuleset()
