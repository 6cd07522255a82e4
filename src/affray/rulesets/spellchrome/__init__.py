"""The Spellchrome ruleset (seed 004, ``rules/spellchrome.md``): grid movement, attacks of opportunity, dying.

The package exports its plug-in record; the rules load only when asked for (``PLUGIN.ruleset()``, or the ruleset
class by name), so importing a submodule never drags the whole ruleset in through this file.
"""

from typing import TYPE_CHECKING

from affray.rulesets.spellchrome.plugin import PLUGIN

if TYPE_CHECKING:
    from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset

__all__ = ["PLUGIN", "SpellchromeRuleset"]


def __getattr__(name: str) -> "type[SpellchromeRuleset]":
    if name == "SpellchromeRuleset":
        from affray.rulesets.spellchrome.ruleset import SpellchromeRuleset

        return SpellchromeRuleset
    raise AttributeError(name)
