"""The built-in rulesets, registered by name and loaded on first use.

Each folder imports ``affray.core`` only, never another ruleset. The factories return the concrete classes
as the :class:`~affray.core.engine.Ruleset` protocol, which mypy checks here.
"""

from affray.core.engine import Ruleset, register


def _hud() -> Ruleset:
    from affray.rulesets.hud import HudRuleset

    return HudRuleset()


def _warp() -> Ruleset:
    from affray.rulesets.warp import WarpRuleset

    return WarpRuleset()


def _spellchrome() -> Ruleset:
    from affray.rulesets.spellchrome import SpellchromeRuleset

    return SpellchromeRuleset()


def _witchhammer() -> Ruleset:
    from affray.rulesets.witchhammer import WitchHammerRuleset

    return WitchHammerRuleset()


register("hud", _hud)
register("warp", _warp)
register("spellchrome", _spellchrome)
register("witchhammer", _witchhammer)
