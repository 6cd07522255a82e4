"""How a fight is told: every event as a sentence with names, never ids (the terminal, the table's pages, a HuD
script reading the API all read the same sentences).

One :class:`Narrator` per ruleset, declared in its plug-in record (``Plugin.narrator``; a match takes it from the
record it carries, :attr:`affray.core.match.Match.narrator`, and falls back to this module's plain one,
:data:`PLAIN`). A narrator tells

- an event the viewer may see (:meth:`Narrator.sentence`): by default the event's own ``describe``, given a
  :class:`Story` (the combatants' display names, and the content's names for the ids events carry: cards, weapons,
  traits, statuses);
- an event the viewer may not see (:meth:`Narrator.hidden`), from its redacted form only, so the sentence can say
  no more than the redaction does;
- a record's headline where its events do not tell it (:meth:`Narrator.headline`): a take back, a GM ruling.

Dice stay dice: a ``rolled`` event's sentence ends with its dice as text (``1d20+3 [14] +3 = 17``) for a terminal or
a script, and :meth:`Narrator.lead` gives the sentence without them, for a page that draws the dice as chips.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from affray.core.adjust import Ruled, describe_change, ruling_sentence
from affray.core.events import Event, Rolled
from affray.core.json import Json, as_list, as_object


class Story(Mapping[str, str]):
    """What a narrator needs to name things: the combatants' display names (unknown ids display as
    themselves) and ``terms``, the names of content ids (cards, weapons, traits)."""

    __slots__ = ("_names", "_terms")

    def __init__(self, names: Mapping[str, str], terms: Mapping[str, str] | None = None) -> None:
        self._names = dict(names)
        self._terms = dict(terms or {})

    def __getitem__(self, key: str) -> str:
        return self._names.get(key, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    @property
    def terms(self) -> dict[str, str]:
        """The content names this story knows (a copy)."""
        return dict(self._terms)

    def term(self, key: str) -> str:
        """The content name of ``key`` (a card, weapon or trait id; ``action:TYPE`` an action type's label); the id
        itself, with spaces, if unknown."""
        return self._terms.get(key) or key.replace("_", " ")


def listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``""`` for none): how every narrator joins names."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def side_words(side: str, members: Sequence[str], ids: Sequence[str] = ()) -> str:
    """A side as the story names it, by its name and its combatants: "the couriers (Dana Reyes and Theo
    Marsh)"; its combatants only where the side is named after one of them (a side "theo" of Theo Marsh alone) or by
    a single letter."""
    who = listed(members)
    label = side.replace("_", " ").strip()
    if len(label) < 2 or label.lower() in {m.lower() for m in (*members, *ids)}:  # "A", "B": a label, no name
        return who
    return f"the {label} ({who})"


def sides_words(combatants: Sequence[Mapping[str, object]], key: str = "side:") -> dict[str, str]:
    """Every side of a setup's ``combatants`` (each with ``id``, ``name``, ``side``) as :func:`side_words`, under
    ``key + side``."""
    names: dict[str, list[str]] = {}
    ids: dict[str, list[str]] = {}
    for c in combatants:
        names.setdefault(str(c["side"]), []).append(str(c["name"]))
        ids.setdefault(str(c["side"]), []).append(str(c.get("id", "")))
    return {key + side: side_words(side, who, ids[side]) for side, who in names.items()}


def wins(who: str) -> str:
    """``who`` and the verb, a sentence's start: "The couriers (Dana Reyes and Theo Marsh) win", "Tamsin wins"."""
    return f"{who[:1].upper()}{who[1:]} {'win' if ' and ' in who else 'wins'}"


def term(names: Mapping[str, str], key: str) -> str:
    """The content name of ``key`` when ``names`` is a :class:`Story`; else ``key`` with spaces for underscores
    (an event's ``describe`` may be given plain names)."""
    return names.term(key) if isinstance(names, Story) else key.replace("_", " ")


class Narrator:
    """The plain narrator: each event's own ``describe``; rulesets subclass it (see the module docstring)."""

    def terms(self, setup: Mapping[str, Json]) -> dict[str, str]:
        """The names of the content ids that events carry, from the match's setup (none here)."""
        return {}

    def story(self, setup: Mapping[str, Json], names: Mapping[str, str]) -> Story:
        return Story(names, self.terms(setup))

    def sentence(self, event: Event, story: Story) -> str:
        """``event`` told in full, for a viewer who may see it (a GM ruling with :meth:`change` for each change)."""
        if isinstance(event, Ruled):
            return ruling_sentence(event.reason, event.changes, (), story, lambda c, _: self.change(c, story))
        return event.describe(story)

    def change(self, change: Mapping[str, Json], story: Story) -> str:
        """One change of a GM ruling in words ("Tomas's Poise 15 (was 23)"); a ruleset says its positions and
        statuses in its own words by overriding this."""
        return describe_change(change, story)

    def lead(self, event: Event, story: Story) -> str:
        """The sentence without a roll's dice (a page draws them); the sentence itself for other events."""
        return event.lead(story) if isinstance(event, Rolled) else self.sentence(event, story)

    def hidden(self, data: Mapping[str, Json], story: Story) -> str:
        """An event the viewer may not see, told from its redacted form ``data`` only."""
        if data.get("type") == "ruled":
            unseen = [str(c) for c in as_list(data.get("unseen") or [])]
            changes = [as_object(c) for c in as_list(data.get("changes") or [])]
            return ruling_sentence(
                str(data.get("reason") or ""), changes, unseen, story, lambda c, _: self.change(c, story)
            )
        actor = data.get("actor")
        if isinstance(actor, str) and actor:
            purpose = data.get("purpose")
            if isinstance(purpose, str) and purpose:
                return f"{story[actor]} rolls {purpose} in secret."
            return f"{story[actor]} does something only its own seat sees."
        return "Something happens out of your sight."

    def headline(self, entry: Mapping[str, Json], story: Story) -> str:
        """The sentence for a record whose events do not tell it ("" for most actions: their events do). ``entry``
        is the record as the seat sees it, its events already told (each with its ``text``)."""
        kind = entry.get("kind")
        who = story[str(entry.get("actor") or entry.get("seat") or "")]
        if kind == "undo":
            to = as_object(entry.get("action", {})).get("to")
            if entry.get("seat") == "gm" and isinstance(to, int):
                # moves are counted from 1 (the record of seq 0 is move 1): back to version N is before move N + 1
                return f"The GM takes the fight back to how it stood before move {to + 1}."
            return f"{who} takes back their last move."
        if kind == "action" and not any(as_object(e).get("text") for e in as_list(entry.get("events") or [])):
            # An action whose events tell nothing (a pass, "carry on"): who did what, in the action type's words.
            action_type = str(as_object(entry.get("action", {})).get("type", ""))
            return f"{who}: {story.term(f'action:{action_type}') if action_type else 'acts'}."
        return ""


PLAIN = Narrator()
