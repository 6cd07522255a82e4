"""The Spellchrome ruleset (seed 004, ``rules/spellchrome.md``): grid movement, attacks of opportunity, dying."""

from affray.rulesets.spellchrome.plugin import PLUGIN
from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset

__all__ = ["PLUGIN", "SpellchromeRuleset"]
