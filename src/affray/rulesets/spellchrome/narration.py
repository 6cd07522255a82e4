"""How a Spellchrome fight is told (:mod:`affray.core.narration`): every event as a sentence with names.

The ruleset's own events tell themselves (:mod:`.events`); this narrator names the content they carry (weapons and
spells, from the match's setup), words the core events the way this ruleset uses them (a roll's purpose, who is out
and how, the side that wins, the Run check's note) and says who won by name rather than by side. Spellchrome has no
private events: everything on the battle map is public, so :meth:`Narrator.hidden` only ever tells a GM ruling's
private part, as the plain narrator does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from affray.core.events import Defeated, Ended, Event, Note, Rolled
from affray.core.json import Json
from affray.core.narration import Narrator, Story, sides_words
from affray.rulesets.spellchrome.events import TAKEN_OUT, FightDecided, told
from affray.rulesets.spellchrome.setup import spellchrome_setup

SIDE = "side:"  # the terms' key for a side's combatants ("side:bandits" -> "Cutthroat Vell and Cutthroat Brann")
_RUN = re.compile(r"^runs: (-?\d+) on the Run check adds (\d+) squares")
_ATTACK = re.compile(r"^attack \((.+)\)$")
#: What a roll is for, as its sentence says it ("Kestrin Moll rolls a Fortitude save to stabilise").
_PURPOSES = {
    "initiative": "rolls initiative",
    "initiative roll-off": "rolls off for initiative",
    "attack of opportunity": "rolls an attack of opportunity",
    "damage": "rolls damage",
    "dying (1d4 lost)": "loses 1d4 HP while dying",
    "Run check": "rolls a Run check",
    "Heal check (first aid)": "rolls a Heal check to give first aid",
    "Heal check (treat injury)": "rolls a Heal check to treat an injury",
    "Concentration to cast in melee": "rolls Concentration to cast in melee",
    "Acrobatics and Tumbling": "rolls Acrobatics and Tumbling to get past",
}


def side_names(setup: Mapping[str, Json]) -> dict[str, str]:
    """Each side by its name and its combatants ("the bandits (Cutthroat Vell and Cutthroat Brann)"), under the key
    ``side:NAME`` (:func:`affray.core.narration.side_words`)."""
    return sides_words(spellchrome_setup(setup).get("combatants", []), SIDE)


def verdict(winner: str | None, story: Story, none: str = "nobody wins") -> str:
    """Who won, by its side's name and its combatants: "the travellers (Oriel Vantasse and Kestrin Moll) win"."""
    if winner is None:
        return none
    who = story.term(SIDE + winner)
    return f"{who} {'win' if ' and ' in who else 'wins'}"  # "A and B" (listed) names several


class SpellchromeNarrator(Narrator):
    """Spellchrome's narrator (see the module docstring)."""

    def terms(self, setup: Mapping[str, Json]) -> dict[str, str]:
        """Weapon and spell ids of every combatant's sheet, and each side's combatants (:func:`side_names`)."""
        out: dict[str, str] = {}
        for c in spellchrome_setup(setup).get("combatants", []):
            out.update({wid: str(w["name"]) for wid, w in c.get("weapons", {}).items()})
            out.update({sid: str(s["name"]) for sid, s in c.get("spells", {}).items()})
        return out | side_names(setup)

    def sentence(self, event: Event, story: Story) -> str:
        if isinstance(event, Rolled):
            return f"{self.lead(event, story)}: {event.dice_text()}"
        if isinstance(event, Ended):
            said = verdict(event.winner, story, "Nobody wins")
            return f"The fight is over. {said[:1].upper()}{said[1:]}: {told(event.reason)}."
        if isinstance(event, FightDecided):
            return event.told(verdict(event.winner, story), story)
        if isinstance(event, Defeated):  # one the GM takes out: its ruling's line has just said it is out
            return f"{story[event.actor]} {'leaves' if event.how == TAKEN_OUT else 'is out of'} the fight."
        if isinstance(event, Note):
            return self._note(event, story)
        return super().sentence(event, story)  # a GM ruling, with this narrator's change(), and the rest

    def lead(self, event: Event, story: Story) -> str:
        if not isinstance(event, Rolled):
            return self.sentence(event, story)
        who, purpose = story[event.actor], event.purpose
        said = _PURPOSES.get(purpose)
        if said is not None:
            return f"{who} {said}"
        weapon = _ATTACK.match(purpose)
        if weapon is not None:
            return f"{who} rolls to hit with the {weapon[1]}"
        if purpose.endswith(("save", "save to stabilise")) or purpose.startswith("Fortitude save"):
            return f"{who} rolls a {purpose[:1].upper()}{purpose[1:]}"
        return f"{who} rolls for {purpose}" if purpose[:1].isupper() else f"{who} rolls {purpose}"  # a spell

    @staticmethod
    def _note(event: Note, story: Story) -> str:
        who = story[event.actor] if event.actor else ""
        run = _RUN.match(event.text)
        if run is not None:
            return f"{who} runs: {run[1]} on the Run check, {run[2]} squares farther."
        text = told(event.text)
        return f"{who}: {text}" if who else text


NARRATOR = SpellchromeNarrator()
