"""The spellchrome plug-in record: everything this ruleset contributes, found from one place
(:mod:`affray.core.plugin`). Each part is named by its module and loaded on first use, so reading the record
imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.plugin import Plugin, part
from affray.rulesets import bundled_examples

if TYPE_CHECKING:
    from affray.core.engine import Ruleset
    from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset
    from affray.rulesets.spellchrome.setup import SpellchromeSetup
    from affray.rulesets.spellchrome.state import SpellchromeState

PLUGIN: Plugin[SpellchromeState, SpellchromeSetup] = Plugin(
    name="spellchrome", title="Spellchrome RPG: combat on the battle grid",
    rules_version="2",
    rules=part("affray.rulesets.spellchrome.ruleset", "SpellchromeRuleset", build=True),
    policies=part("affray.rulesets.spellchrome.policies", "POLICIES"),
    hints=part("affray.rulesets.spellchrome.hints", "hints"),
    duel=part("affray.rulesets.spellchrome.duel", "DUEL"),
    checks=part("affray.rulesets.spellchrome.odds", "CHECKS"),
    sheet=part("affray.rulesets.spellchrome.sheet", "RULES"),
    builder=part("affray.rulesets.spellchrome.builder", "build"),
    narrator=part("affray.rulesets.spellchrome.narration", "NARRATOR"),
    adjuster=part("affray.rulesets.spellchrome.adjust", "ADJUSTER"),
    sampler=part("affray.rulesets.spellchrome.sample", "SAMPLER"),
    examples=bundled_examples("spellchrome"),
)

if TYPE_CHECKING:  # the rules class satisfies the contract with its own state and setup (checked by mypy only)
    _RULES: Ruleset[SpellchromeState, SpellchromeSetup] = SpellchromeRuleset()
