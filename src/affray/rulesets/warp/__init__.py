"""WaRP (Over the Edge): trait dice, damage factors, armour dice (``rules/warp.md``, ``docs/warp.md``)."""

from affray.rulesets.warp.plugin import PLUGIN
from affray.rulesets.warp.ruleset import WarpRuleset

__all__ = ["PLUGIN", "WarpRuleset"]
