"""Registration of the built-in policies (imported lazily by :func:`affray.ai.base.get_policy`)."""

from affray.ai.base import register_policy
from affray.ai.hud import HudHeuristic, HudSteady
from affray.ai.spellchrome import SpellchromeHeuristic, SpellchromeSteady
from affray.ai.warp import WarpHeuristic, WarpSteady
from affray.ai.witchhammer import WitchHammerHeuristic, WitchHammerSteady

register_policy("hud", "heuristic", HudHeuristic)
register_policy("hud", "steady", HudSteady)
register_policy("spellchrome", "heuristic", SpellchromeHeuristic)
register_policy("spellchrome", "steady", SpellchromeSteady)
register_policy("witchhammer", "heuristic", WitchHammerHeuristic)
register_policy("witchhammer", "steady", WitchHammerSteady)
register_policy("warp", "heuristic", WarpHeuristic)
register_policy("warp", "steady", WarpSteady)
