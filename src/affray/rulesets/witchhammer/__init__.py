"""The WitchHammer ruleset (seed 000, ``rules/witchhammer.md``): vignettes of face-down cards, Poise and Health.

The package exports its plug-in record; the rules load only when asked for (``PLUGIN.ruleset()``, or the ruleset
class by name), so importing a submodule never drags the whole ruleset in through this file.
"""

from typing import TYPE_CHECKING

from affray.rulesets.witchhammer.plugin import PLUGIN

if TYPE_CHECKING:
    from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset

__all__ = ["PLUGIN", "WitchHammerRuleset"]


def __getattr__(name: str) -> "type[WitchHammerRuleset]":
    if name == "WitchHammerRuleset":
        from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset

        return WitchHammerRuleset
    raise AttributeError(name)
