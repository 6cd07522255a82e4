"""WaRP (Over the Edge): trait dice, damage factors, armour dice (``rules/warp.md``, ``docs/warp.md``).

The package exports its plug-in record; the rules load only when asked for (``PLUGIN.ruleset()``, or the ruleset
class by name), so importing a submodule never drags the whole ruleset in through this file.
"""

from typing import TYPE_CHECKING

from affray.rulesets.warp.plugin import PLUGIN

if TYPE_CHECKING:
    from affray.rulesets.warp.ruleset import WarpRuleset

__all__ = ["PLUGIN", "WarpRuleset"]


def __getattr__(name: str) -> "type[WarpRuleset]":
    if name == "WarpRuleset":
        from affray.rulesets.warp.ruleset import WarpRuleset

        return WarpRuleset
    raise AttributeError(name)
