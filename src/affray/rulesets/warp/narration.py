"""How a WaRP fight is told (:mod:`affray.core.narration`): WaRP's own events say themselves
(:mod:`affray.rulesets.warp.events`); this narrator names the content, tells the core events WaRP emits in WaRP's
words, and tells the two private events from their redactions.

- ``terms``: the names of the weapons, traits, flaws and maneuvers the setup carries, and each side by the names of
  its combatants (``side:<name>``), so an outcome reads "Victory for Dana Reyes and Theo Marsh".
- A GM character's gestalt roll is the GM's secret until the result (WR-35): the others read that it was rolled.
- A GM character's HP are GM-level (docs/warp.md, "What each seat sees"): the others read its wound without them.
- A GM ruling's position reads in metres on the line (ruling WR-X2), a hold by the holder's name (WR-30).
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.adjust import describe_change
from affray.core.events import Defeated, Ended, Event, Note, Rolled
from affray.core.fields import integer, text
from affray.core.json import Json
from affray.core.narration import Narrator, Story, sides_words
from affray.rulesets.warp.phrases import purpose, side_key, wound_sentence
from affray.rulesets.warp.setup import warp_setup

#: How a combatant leaves the fight, where "is <how>" does not read (WR-25, WR-35, ruling WR-X4, a GM ruling).
LEFT = {"escaped": "has escaped", "beaten": "is beaten, out of the fight", "out": "is out of the fight"}
HELD_BY = "held by "


def outcome_sentence(winner: str | None, reason: str, story: Story) -> str:
    """The end of the fight: "Victory for the couriers (Dana Reyes and Theo Marsh): every foe is out of
    the fight."."""
    reason = REASONS.get(reason, reason)
    if winner is None:
        return f"The fight is over without a winner: {reason}."
    return f"Victory for {story.term(side_key(winner))}: {reason}."


#: An outcome's reason where it reads better in other words (WR-35).
REASONS = {"the gestalt totals": "the higher gestalt total"}


class WarpNarrator(Narrator):
    """WaRP's narrator (see the module docstring)."""

    def change(self, change: Mapping[str, Json], story: Story) -> str:
        return change_words(change, story)

    def terms(self, setup: Mapping[str, Json]) -> dict[str, str]:
        made = warp_setup(setup)
        out = {mid: str(m["name"]) for mid, m in made.get("maneuvers", {}).items()}
        for c in made.get("combatants", []):
            out.update({wid: str(w["name"]) for wid, w in c.get("weapons", {}).items()})
            out.update({tid: str(t["name"]) for tid, t in c.get("traits", {}).items()})
            out.update({str(f["id"]): str(f["name"]) for f in c.get("flaws", [])})
        out.update(sides_words(made.get("combatants", []), side_key("")))
        return out

    def sentence(self, event: Event, story: Story) -> str:
        if isinstance(event, Rolled):
            return f"{self.lead(event, story)}: {event.dice_text()}"
        if isinstance(event, Ended):
            return outcome_sentence(event.winner, event.reason, story)
        if isinstance(event, Defeated):
            return f"{story[event.actor]} {LEFT.get(event.how, 'is ' + event.how)}."
        if isinstance(event, Note) and event.actor and event.text.startswith(story[event.actor]):
            return f"{event.text}."  # a note that names its own actor (an unstoppable six, WR-B12)
        return super().sentence(event, story)  # a GM ruling, with this narrator's change(), and the rest

    def lead(self, event: Event, story: Story) -> str:
        if type(event) is Rolled:  # WaRP's own rolls (PoolRolled) say their trait and dice themselves
            return f"{story[event.actor]} rolls {purpose(event.purpose)}"
        if isinstance(event, Rolled):
            return event.lead(story)
        return self.sentence(event, story)

    def hidden(self, data: Mapping[str, Json], story: Story) -> str:
        kind = data.get("type")
        if kind == "wounded":  # a GM character's wound, without its HP
            return wound_sentence(
                story,
                text(data, "target"),
                integer(data, "raw"),
                integer(data, "absorbed"),
                integer(data, "damage"),
                bool(data["temporary"]),
            )
        if kind == "hidden" and data.get("purpose") == "gestalt":
            return f"{story[str(data['actor'])]} rolls for the gestalt fight; the GM keeps the total secret."
        return super().hidden(data, story)


def change_words(c: Mapping[str, Json], story: Story) -> str:
    """One change of a GM ruling in this ruleset's words (positions in metres and holds by name)."""
    who = story[text(c, "combatant")]
    if "position" in c:
        return f"{who} is moved to {c['position']:g} m (from {c.get('was', 0):g} m)"
    for key, verb in (("status", "is"), ("remove_status", "is no longer")):
        name = str(c.get(key, ""))
        if name.startswith(HELD_BY):
            return f"{who} {verb} held by {story[name[len(HELD_BY) :]]}"
    return describe_change(c, story)


NARRATOR = WarpNarrator()
