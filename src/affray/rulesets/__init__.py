"""The built-in rulesets, registered by name. Each folder imports ``affray.core`` only, never another ruleset."""

from affray.core.engine import register


def _hud() -> object:
    from affray.rulesets.hud import HudRuleset

    return HudRuleset()


def _witchhammer() -> object:
    from affray.rulesets.witchhammer import WitchHammerRuleset

    return WitchHammerRuleset()


register("hud", _hud)  # type: ignore[arg-type]
register("witchhammer", _witchhammer)  # type: ignore[arg-type]


def _spellchrome() -> object:
    from affray.rulesets.spellchrome import SpellchromeRuleset

    return SpellchromeRuleset()


register("spellchrome", _spellchrome)  # type: ignore[arg-type]


def _warp() -> object:
    from affray.rulesets.warp import WarpRuleset

    return WarpRuleset()


register("warp", _warp)  # type: ignore[arg-type]
