"""``Match.observe`` takes a combatant or the GM (core/match.py): in every ruleset alike, an id that is neither is
refused with ``UnknownActor`` and a sentence naming the combatants, where HuD and Spellchrome raised a bare
``KeyError`` and WitchHammer and WaRP gave an observation of nobody (``me`` None)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import affray
from affray.core.match import UnknownActor

EXAMPLES = Path(__file__).parents[2] / "examples"
FIGHTS = ("witchhammer/yard_duel", "warp/knight_duel", "hud/nerdified_duel", "spellchrome/ford_duel")


@pytest.mark.parametrize("example", FIGHTS)
@pytest.mark.parametrize("who", ["nobody", "Ilse"])
def test_observing_what_is_no_combatant_is_refused_with_the_combatants_named(example: str, who: str) -> None:
    match = affray.load_scenario(EXAMPLES / f"{example}.yaml").start(1)
    combatants = sorted(match.names())
    with pytest.raises(UnknownActor) as refused:
        match.observe(who)
    assert str(refused.value) == (
        f"There is no combatant called '{who}' in this fight; its combatants are {', '.join(combatants)}."
    )
    first = combatants[0]
    seen: Any = match.observe(first)  # each ruleset's own observation type, each with its ``me``
    assert seen.me.id == first  # a combatant is observed as before
