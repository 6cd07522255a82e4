"""WitchHammer's narration of an attack: one modifier, the one the roll's line shows. Rules: WH-15, WH-16
(attack value = d20 + card Attack + Attack - Defense), WH-17 (the crit's and the fumble's 10)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import affray
from affray.core.events import Rolled
from affray.rulesets.witchhammer.events import Attacked

YARD = Path(__file__).parents[2] / "examples" / "witchhammer" / "yard_duel.yaml"


def test_affray_fight_yard_duel_narrates_one_attack_modifier() -> None:
    """The user's step: ``affray fight yard_duel.yaml --seed 1``. Each attack's line gives the d20 and the same
    modifier as the roll's line before it (``1d20+6 [3] +6 = 9``, then ``d20 3 +6 (Attack +9 − Defense 3) = 9``),
    where it used to print ``Attack +9`` beside the roll's +6 with nothing to tie them."""
    scenario = affray.load_scenario(YARD)
    match = scenario.start(1)
    affray.play(match, scenario.policies(match))
    events = list(match.events())
    names = match.names()
    checked = 0
    for before, event in itertools.pairwise(events):
        if isinstance(event, Attacked):
            assert isinstance(before, Rolled) and before.purpose == "attack"
            line = event.describe(names)
            found = re.search(r"d20 (\d+) ([+-]\d+) \(Attack ([+-]\d+) − Defense (-?\d+)\)", line)
            assert found is not None, line
            natural, modifier, bonus, defense = map(int, found.groups())
            assert (natural, modifier) == (before.roll.total - before.roll.modifier, before.roll.modifier)
            assert modifier == bonus - defense == event.bonus - event.defense
            assert line.split(", ")[0].endswith(f"= {event.value}")
            checked += 1
    assert checked > 0


def test_wh17_a_crit_shows_its_ten() -> None:
    """WH-16, WH-17: a natural 20 with Attack +9 against Defense 3: d20 20 +6, +10 for the crit, value 36."""
    line = Attacked("a", "b", "Sword Swing", 20, 9, 3, 36, 26, "solid", True, []).describe({"a": "A", "b": "B"})
    assert line == "A attacks B with Sword Swing: d20 20 +6 (Attack +9 − Defense 3) +10 (crit) = 36, lands a Solid " \
                   "Hit for 26 CRIT!"
