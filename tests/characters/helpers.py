"""Shared builders for the character tests: content libraries and a WitchHammer sheet built step by step."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from affray.characters import library
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG, seed_from_int
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters.hats import roll_starting_silver
from affray.rulesets.witchhammer.characters.sheet import WitchHammerSheet

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "characters"


@cache
def lib(ruleset: str = "witchhammer") -> ContentLibrary:
    return library(ruleset)


def hilde() -> WitchHammerSheet:
    """The example PC: WH-31's 15/1/7/2 points all spent (the same steps as examples/characters/hilde.yaml)."""
    content = lib()
    s = adv.new_sheet("Hilde Brandt")
    s = adv.set_money(s, roll_starting_silver(VerifiableRNG(seed_from_int(3)))[0])
    for a in ("attack", "defense", "max_poise", "max_poise", "init", "init", "con_defense"):
        s = adv.buy_attribute(s, a, content)
    s = adv.learn_school(s, "raging_bull", content)
    for t in ("bull_rush", "horn_swing", "thick_neck", "bulls_temper", "sword_swing", "dodge_away", "remember_why"):
        s = adv.learn_technique(s, t, content)
    for t in ("sharp_eyed", "menacing"):
        s = adv.take_trait(s, t, content)
    return s
