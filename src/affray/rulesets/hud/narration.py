"""How a Sim HuD fight is told (:mod:`affray.core.narration`): the HuD's own events say themselves
(:mod:`affray.rulesets.hud.events`); this narrator names the content they carry and tells the core events the HuD
emits in the HuD's words.

- ``terms``: each weapon's content name by its id (WL-03, WL-19), and each side by its name and its combatants
  (``side:<name>``), so an outcome reads "Victory for the witcher (Vesna of the Lynx)".
- Rolls name the HuD's buttons (WL-02): "Vesna rolls Attack", "rolls Chance for initiative" (WL-09).
- A GM ruling's place (WL-B13) and penalties (WL-17) read in the HuD's terms.

The HuD declares everything in the open (WL-09): no event is private, so nothing is told from a redaction but a
GM ruling (which the plain narrator tells).
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.adjust import describe_change
from affray.core.events import Defeated, Ended, Event, Note, Rolled
from affray.core.fields import objects, text
from affray.core.json import Json, JsonObject
from affray.core.narration import Narrator, Story, sides_words
from affray.rulesets.hud.events import EndedEscaped

#: A roll's purpose as the HuD's button reads it (WL-02, WL-09, WL-B8, WL-22).
BUTTONS = {
    "chance": "Chance",
    "initiative": "Chance for initiative",
    "initiative tie": "Chance to break a tie",
    "attack": "Attack",
    "defense": "Defense",
    "damage": "Damage",
    "injury": "Injury",
    "pursuit": "Chance for the pursuit",
}
#: How a combatant leaves the fight (WL-04, WL-08, WL-22, a GM ruling).
LEFT = {"down": "is down, out of the fight", "escaped": "has escaped", "out": "is out of the fight"}
#: Free Form's call for dice (WL-00), a note the poster makes.
SETTLE = "calls for dice to settle the exchange"


def side_key(side: str) -> str:
    """The term under which a side's combatants' names are kept."""
    return f"side:{side}"


def combatants(setup: Mapping[str, Json]) -> list[JsonObject]:
    """The combatants of a setup (read back as JSON), each an object with at least ``id``, ``name`` and ``side``."""
    return objects(setup, "combatants") if "combatants" in setup else []


def side_names(setup: Mapping[str, Json]) -> dict[str, str]:
    """Each side of the setup by its name and its combatants ("the mercenaries (Ilka and Bors)"), under
    :func:`side_key` (:func:`affray.core.narration.side_words`)."""
    return sides_words(combatants(setup), side_key(""))


def outcome_sentence(winner: str | None, reason: str, story: Story) -> str:
    """The end of the fight: "Victory for the witcher (Vesna of the Lynx): every foe is down." (WL-04, WL-08)."""
    if winner is None:
        return f"The fight is over without a winner: {reason}."
    return f"Victory for {story.term(side_key(winner))}: {reason}."


class HudNarrator(Narrator):
    """The Sim HuD's narrator (see the module docstring)."""

    def change(self, change: Mapping[str, Json], story: Story) -> str:
        return change_words(change, story)

    def terms(self, setup: Mapping[str, Json]) -> dict[str, str]:
        out = side_names(setup)
        for c in combatants(setup):
            weapons = c.get("weapons", {})
            if isinstance(weapons, dict):
                out.update({wid: str(w["name"]) for wid, w in weapons.items() if isinstance(w, dict)})
        return out

    def sentence(self, event: Event, story: Story) -> str:
        if isinstance(event, Rolled):
            return f"{self.lead(event, story)}: {event.dice_text()}"
        if isinstance(event, EndedEscaped):
            return event.describe(story)
        if isinstance(event, Ended):
            return outcome_sentence(event.winner, event.reason, story)
        if isinstance(event, Defeated):
            return f"{story[event.actor]} {LEFT.get(event.how, 'is ' + event.how)}."
        if isinstance(event, Note) and event.actor and event.text == SETTLE:
            return f"{story[event.actor]} {SETTLE}."
        return super().sentence(event, story)  # a GM ruling, with this narrator's change(), and the rest

    def lead(self, event: Event, story: Story) -> str:
        if isinstance(event, Rolled):
            return f"{story[event.actor]} rolls {BUTTONS.get(event.purpose, event.purpose)}"
        return self.sentence(event, story)


def change_words(c: Mapping[str, Json], story: Story) -> str:
    """One change of a GM ruling in this ruleset's words (places and penalties)."""
    who = story[text(c, "combatant")]
    if "position" in c:
        return f"{who} is moved to {place(c['position'])} (from {place(c.get('was'))})"
    if "status" in c and str(c["status"])[:1] in "+-":  # a penalty (WL-17): this round's, or next round's
        status = str(c["status"])
        return f"{who} takes {status}" + ("" if status.endswith("next round") else " this round")
    return describe_change(c, story)


def place(where: Json) -> str:
    """A place (WL-B13): a numbered place, or a new place of its own near or far from the fight."""
    if where == "near":
        return "a place of its own near the fight"
    if where == "far":
        return "a place of its own far from the fight"
    return f"place {where}"


NARRATOR = HudNarrator()
