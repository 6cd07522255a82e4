"""The Sim HuD ruleset (seed 001, ``rules/hud.md``): Free Form, Dice Simplified, Combat Nerdified."""

from affray.rulesets.hud.plugin import PLUGIN
from affray.rulesets.hud.ruleset import HudRuleset

__all__ = ["PLUGIN", "HudRuleset"]
