"""The WitchHammer ruleset (seed 000, ``rules/witchhammer.md``): vignettes of face-down cards, Poise and Health."""

from affray.rulesets.witchhammer.plugin import PLUGIN
from affray.rulesets.witchhammer.ruleset import WitchHammerRuleset

__all__ = ["PLUGIN", "WitchHammerRuleset"]
