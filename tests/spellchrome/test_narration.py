"""How a Spellchrome fight is told (rulesets/spellchrome/narration.py, events.py): every example played to its end
reads, at every seat, as sentences with names and never ids; and the main events of seeded fights read exactly so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from affray.core.engine import GM, Accepted
from affray.core.match import Match
from tests.conformance.common import ROOT, example_scenarios
from tests.narration import played, problems, seats, told
from tests.spellchrome.support import fighter, seeded

EXAMPLES = [p for p in example_scenarios() if p.parent.name == "spellchrome"]


def ids_of(match: Match) -> set[str]:
    """The combatants' ids and every content id the setup uses (weapons, spells, feats)."""
    out = set(match.names())
    for c in match.setup_data["combatants"]:
        out |= set(c["weapons"]) | set(c["spells"]) | set(c["feats"])
    return out


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_sentence_names_and_never_shows_an_id(path: Path, seed: int, kind: str) -> None:
    match = played(path, seed, kind)
    for seat in seats(match):
        assert not problems(told(match, seat), ids_of(match)), seat


def first(match: Match) -> dict[str, str]:
    """The first sentence of each kind of event in ``match``, as the narrator tells it."""
    story, out = match.story(), dict[str, str]()
    for event in match.events():
        out.setdefault(event.kind, match.narrator.sentence(event, story))
    return out


def test_golden_sentences_of_a_seeded_fight() -> None:
    """Rules: SC-16 (initiative), SC-B1 (the attack against Defense), SC-07 and SC-B6 (armour, then EX-HP, then
    HP), SC-18 (the Run check), SC-04 (dying), SC-06 (the DC 22 Fortitude save), ruling SC-R12 (the fight decided,
    the dying bleeding on; then over)."""
    match = played(ROOT / "examples/spellchrome/crossroads_2v2.yaml", 1, "scenario")
    told_first = first(match)
    assert {
        k: told_first[k]
        for k in (
            "rolled",
            "initiative",
            "attacked",
            "damaged",
            "note",
            "status",
            "defeated",
            "check",
            "fight_decided",
            "ended",
        )
    } == {
        "rolled": "Oriel Vantasse rolls initiative: 1d20+1 [3] +1 = 4",
        "initiative": "Initiative: Kestrin Moll 16, Cutthroat Brann 14, Cutthroat Vell 10, Oriel Vantasse 4.",
        "attacked": "Kestrin Moll hits Cutthroat Vell with the Rail carbine (17 against Defense 14).",
        "damaged": "Cutthroat Vell takes 8 damage (1 stopped by armour): 29 HP left.",
        "note": "Cutthroat Vell runs: 14 on the Run check, 2 squares farther.",
        "status": "Cutthroat Vell is dying (below 0 HP).",
        "defeated": "Cutthroat Vell is out of the fight.",
        "check": "Cutthroat Vell makes the Fortitude save to stabilise (22 against DC 22).",
        "fight_decided": "The fight is decided: the travellers (Oriel Vantasse and Kestrin Moll) win (every foe is "
        "down). Cutthroat Brann bleeds on until dead or stable; no more blows are struck.",
        "ended": "The fight is over. The travellers (Oriel Vantasse and Kestrin Moll) win: every foe is down; after "
        "the fight Cutthroat Brann stable.",
    }
    texts = told(match, "kestrin")
    assert "Kestrin Moll takes 3 damage (3 absorbed by EX-HP): 21 HP left." in texts
    assert "Kestrin Moll rolls to hit with the Rail carbine" in texts  # a roll's lead: the page draws its dice


def act(match: Match, actor: str, action: dict[str, Any]) -> list[str]:
    result = match.act(actor, action, version=match.version)
    assert isinstance(result, Accepted), result
    story = match.story()
    return [match.narrator.sentence(e, story) for e in result.events]


def test_golden_sentences_of_an_attack_of_opportunity() -> None:
    """Rules: SC-27 (a) (leaving a melee-armed foe's reach provokes), SC-26 (the attack of opportunity), SC-17 (the
    move goes on)."""
    match = seeded({"red": [fighter("a", (1, 1), name="Ayla")], "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")
    assert act(match, "a", {"type": "move", "to": [0, 1]}) == [
        "Ayla provokes an attack of opportunity from Bram by leaving melee at full speed."
    ]
    told_now = act(match, "b", {"type": "attack_of_opportunity"})
    assert told_now[0] == "Bram rolls an attack of opportunity: " + told_now[0].split(": ", 1)[1]
    assert told_now[1].startswith("Bram ") and " Ayla with an attack of opportunity (Longsword, " in told_now[1]
    assert told_now[-1] == "Ayla moves 1 square to (0, 1)."


def test_a_ruling_reads_the_same_at_every_seat() -> None:
    """A GM ruling (core/adjust.py) names the combatant and the bar as the view does; what follows from it is told
    after it (SC-R12: the last foe taken out ends the fight)."""
    match = seeded({"red": [fighter("a", (1, 1), name="Ayla")], "blue": [fighter("b", (2, 1), name="Bram")]}, "ab")
    ruled = match.rule(
        GM,
        {
            "type": "ruling",
            "reason": "a lucky dodge",
            "changes": [{"combatant": "b", "bar": "HP", "value": 12}, {"combatant": "b", "out": True}],
        },
        version=match.version,
    )
    assert isinstance(ruled, Accepted)
    for seat in seats(match):
        assert [e["text"] for e in match.events_since(0, seat, narrate=True)[0]["events"]] == [
            "GM ruling (a lucky dodge): Bram's HP 12 (was 20); Bram is out of the fight.",
            "Bram leaves the fight.",
            "The fight is over. The red (Ayla) wins: every foe is down.",
        ]
