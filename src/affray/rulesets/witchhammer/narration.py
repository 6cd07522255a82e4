"""How a WitchHammer fight is told (:mod:`affray.core.narration`): every event as a sentence with names.

The ruleset's own events tell themselves (:mod:`.events`); this narrator names the content they carry (cards and
statuses, from the match's setup), words the core events as this ruleset uses them (the phases, a card placed face
down, a card turned over, a roll's purpose, the side that wins by its combatants' names) and keeps the face-down
cards secret: a ``committed`` event reads "Bruna Halloway places a card face down (slot 1)" for every seat, the
placing one's included (it reads the card in its own view), and a ``revealed`` one names only the slot (the
``card`` event that follows names the card, once it is in force). Rules: WH-02, WH-03, WH-04; DESIGN.md contract 6.

WitchHammer has no private events (everything about a face-down card is public but the card), so
:meth:`Narrator.hidden` only ever tells a GM ruling's private part, as the plain narrator does.
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.events import Committed, Ended, Event, PhaseStarted, Revealed, Rolled
from affray.core.json import Json
from affray.core.narration import Narrator, Story, sides_words, wins
from affray.rulesets.witchhammer.events import Withdrawn, roll_words
from affray.rulesets.witchhammer.setup import witchhammer_setup

SIDE = "side:"  # the terms' key for a side's combatants ("side:hunters" -> "Bruna Halloway and Tomas Reedwater")
_PHASES = {
    "psych": "The Psych phase: each may play one Psych card face down.",
    "planning": "The Planning phase: each places two Action cards face down, slot 1 and slot 2.",
    "violence": "The Violence phase: the cards turn over, slot 1 and then slot 2.",
}
_PURPOSES = {
    "attack": "rolls to attack",
    "initiative roll-off": "rolls off for initiative",
    "death's-door save": "rolls the death's-door save",
    "affliction": "rolls on the affliction table",
}


def slot_of(seal: str) -> str:
    """The slot a face-down card's seal names ("v1.bruna.slot2" -> "slot 2"; "v1.bruna.psych" -> "Psych"; a card
    placed again after a withdrawal, "v1.bruna.slot2.r1", -> "slot 2"): the seal's last part but a
    revision (WH-02, WH-03; ``planning._commit`` names the seals)."""
    rest, last = seal.rsplit(".", 1) if "." in seal else ("", seal)
    if last[:1] == "r" and last[1:].isdigit():
        last = rest.rsplit(".", 1)[-1]
    return f"slot {last[4:]}" if last.startswith("slot") else "Psych"


class WitchHammerNarrator(Narrator):
    """WitchHammer's narrator (see the module docstring)."""

    def terms(self, setup: Mapping[str, Json]) -> dict[str, str]:
        """The setup's cards and statuses by name, and each side's combatants (``side:NAME``)."""
        made = witchhammer_setup(setup)
        out = {k: str(c["name"]) for k, c in made.get("cards", {}).items()}
        out.update({k: str(s["name"]) for k, s in made.get("statuses", {}).items()})
        return out | sides_words(made.get("combatants", []), SIDE)

    def sentence(self, event: Event, story: Story) -> str:
        if isinstance(event, Rolled):
            return f"{self.lead(event, story)}: {event.dice_text()}"
        if isinstance(event, Committed):
            where = slot_of(event.seal)
            if where == "Psych":
                return f"{story[event.actor]} places a Psych card face down."
            return f"{story[event.actor]} places a card face down ({where})."
        if isinstance(event, Withdrawn):
            return f"{story[event.actor]} takes back the card face down in {slot_of(event.seal)}."
        if isinstance(event, Revealed):
            where = slot_of(event.seal)
            return f"{story[event.actor]} turns over the {'Psych card' if where == 'Psych' else 'card in ' + where}."
        if isinstance(event, PhaseStarted):
            return _PHASES.get(event.phase, f"The {event.phase.replace('_', ' ')} phase.")
        if isinstance(event, Ended):
            if event.winner is None:
                return f"The fight is over. Nobody wins: {event.reason}."
            return f"The fight is over. {wins(story.term(SIDE + event.winner))}: {event.reason}."
        return super().sentence(event, story)  # a GM ruling, with this narrator's change(), and the rest

    def lead(self, event: Event, story: Story) -> str:
        if not isinstance(event, Rolled):
            return self.sentence(event, story)
        who, purpose = story[event.actor], event.purpose
        said = _PURPOSES.get(purpose)
        if said is not None:
            return f"{who} {said}"
        if purpose.endswith((" save", " check")):
            named = roll_words(purpose)
            return f"{who} rolls {'an' if named[:1] in 'AEIOU' else 'a'} {named}"
        return f"{who} rolls {purpose.replace('_', ' ')}"


NARRATOR = WitchHammerNarrator()
