"""The Sim HuD ruleset (seed 001, ``rules/hud.md``): Free Form, Dice Simplified, Combat Nerdified.

The package exports its plug-in record; the rules load only when asked for (``PLUGIN.ruleset()``, or the ruleset
class by name), so importing a submodule never drags the whole ruleset in through this file.
"""

from typing import TYPE_CHECKING

from affray.rulesets.hud.plugin import PLUGIN

if TYPE_CHECKING:
    from affray.rulesets.hud.ruleset import HudRuleset

__all__ = ["PLUGIN", "HudRuleset"]


def __getattr__(name: str) -> "type[HudRuleset]":
    if name == "HudRuleset":
        from affray.rulesets.hud.ruleset import HudRuleset

        return HudRuleset
    raise AttributeError(name)
