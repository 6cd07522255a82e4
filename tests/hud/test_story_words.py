"""The story says what happened: a Dice Simplified exchange reads as its result, and the winner
is named by its side's name and its combatants. Exact sentences."""

from __future__ import annotations

from pathlib import Path

import affray
from affray.core.engine import GM
from affray.core.json import as_list, as_object
from affray.core.match import Match
from affray.core.narration import side_words, sides_words
from affray.core.seatlog import seat_log
from affray.rulesets.hud.events import SimplifiedExchange

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = {"vesna": "Vesna", "hald": "Hald"}


def _told(match: Match) -> list[list[str]]:
    """Each record's events as the GM's story tells them."""
    return [
        [str(as_object(e)["text"]) for e in as_list(entry["events"])] for entry in seat_log(match, 0, GM, narrate=True)
    ]


def test_wl06_an_exchange_reads_as_its_result() -> None:
    """WL-06: the attacker's roll against the defender's, and the HP it cost: a higher attack costs 1 HP, a tie
    goes to the defender."""
    hit = SimplifiedExchange("vesna", "hald", "attack", 9, "defense", 7, 1, 2)
    assert hit.describe(NAMES) == "Vesna's Attack 9 against Hald's Defense 7: Hald loses 1 HP, 2 left."
    tie = SimplifiedExchange("vesna", "hald", "damage", 6, "injury", 6, 0, 3)
    assert tie.describe(NAMES) == "Vesna's Damage 6 against Hald's Injury 6: Hald holds, no HP lost."
    last = SimplifiedExchange("hald", "vesna", "attack", 11, "injury", 4, 1, 0)
    assert last.describe(NAMES) == "Hald's Attack 11 against Vesna's Injury 4: Vesna loses 1 HP, none left."


def test_wl05_wl06_a_seeded_simplified_duel_tells_each_exchange_after_the_defenders_roll() -> None:
    """The Riverbank Scrap on seed 1, as the GM's story tells its first two exchanges and its end."""
    scenario = affray.load_scenario(EXAMPLES / "hud" / "simplified_duel.yaml")
    match = scenario.start(seed=1)
    affray.play(match, scenario.policies(match))
    told = _told(match)
    assert told[1] == [
        "Drowner rolls Injury: 1d13+2 [10] +2 = 12",
        "Ilka Reedwhistle's Attack 14 against Drowner's Injury 12: Drowner loses 1 HP, 2 left.",
    ]
    assert told[3][1] == "Drowner's Damage 15 against Ilka Reedwhistle's Injury 6: Ilka Reedwhistle loses 1 HP, 2 left."
    assert told[5][1] == "Ilka Reedwhistle's Attack 3 against Drowner's Injury 12: Drowner holds, no HP lost."
    assert told[-1][-1] in (
        "Victory for the scout (Ilka Reedwhistle): every foe is down.",
        "Victory for Drowner: every foe is down.",  # the side "drowner" is named after its one combatant
    )


def test_the_winner_is_named_by_its_side_and_its_combatants() -> None:
    """A side reads as its name and its combatants; a side named after its one combatant, or by a letter, as the
    combatants alone."""
    assert side_words("couriers", ["Dana Reyes", "Theo Marsh"]) == "the couriers (Dana Reyes and Theo Marsh)"
    assert side_words("theo", ["Theo Marsh"], ["theo"]) == "Theo Marsh"
    assert side_words("B", ["Sniper"]) == "Sniper"
    combatants = [
        {"id": "vesna", "name": "Vesna", "side": "lynx"},
        {"id": "ilka", "name": "Ilka", "side": "lynx"},
        {"id": "hald", "name": "Hald", "side": "hald"},
    ]
    assert sides_words(combatants) == {"side:lynx": "the lynx (Vesna and Ilka)", "side:hald": "Hald"}


def test_wl04_wl08_the_nerdified_duel_ends_naming_the_winning_side() -> None:
    """The Nerdified duel on seed 3: the witcher's side wins, named with its combatant."""
    scenario = affray.load_scenario(EXAMPLES / "hud" / "nerdified_duel.yaml")
    match = scenario.start(seed=3)
    affray.play(match, scenario.policies(match))
    assert _told(match)[-1][-1] == "Victory for the witcher (Vesna of the Lynx): every foe is down."
