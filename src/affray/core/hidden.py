"""Hidden foes: combatants only the GM's seat knows of until they are revealed (docs/table.md, "Hidden foes").

A scenario combatant may say ``hidden: true``; :func:`affray.api.scenario_from_data` lists those ids in the setup
under :data:`SETUP_KEY`, and the match (:class:`affray.core.match.Match`) keeps, after each record, which of them are
still hidden (``Record.hidden``: id -> name). Hiding is a matter of what reaches each seat, never of the rules: the
ruleset plays the same fight, and a fight without hidden combatants is untouched by this module.

To a seat that may not see a hidden combatant (:func:`concealed_for`: any seat but the GM's and the one that plays
it), the match gives

- a view without it (:func:`conceal_view`: not among the combatants nor in the order; its turn told as the GM's,
  "Waiting for the GM."), and every other part of the view's JSON that names it left out (:func:`scrub`);
- legal actions without those that name it (:func:`conceal_specs`), and an action that names it refused exactly as
  an action naming a combatant that does not exist;
- a log where a record the hidden combatant took (or whose action names one) is "The GM acts.", with no actor nor
  action (the record carries a :class:`Concealed` event, which the hash chain's public form reads too), and where any
  event that names it is left out (:mod:`affray.core.seatlog`).

It is revealed by the GM (a ruling's change ``{"combatant": ID, "reveal": true}``) or by itself when it first takes
an action that names a combatant another seat plays (its attack); either way the record carries an
:class:`Unhidden` event, told to every seat ("The Ash Jackal Cinder steps out of hiding."). Records made while it was
hidden stay as they were told; after the end every log is whole, as for face-down cards.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, TypeVar

from affray.core.engine import GM, ActionSpec, Viewer
from affray.core.events import Event
from affray.core.json import Json, JsonObject

if TYPE_CHECKING:
    from affray.core.view import View

#: The setup's list of the combatant ids that start hidden (absent: none).
SETUP_KEY = "hidden"
#: The scenario combatant's ``hidden`` field, in every ruleset's schema.
HIDDEN_HELP = (
    "starts hidden: only the GM's seat knows of it until the GM reveals it or it acts on another seat's combatant "
    "(played from the GM's seat)"
)
#: No combatant hidden (shared by every record of a fight without hidden foes).
NONE: Mapping[str, str] = MappingProxyType({})
#: What a seat reads of a record it may not see (its action's type) and its sentence.
CONCEALED = "concealed"
GM_ACTS = "The GM acts."
WAITING = "Waiting for the GM."
#: The status a hidden combatant shows in the views of the seats that see it (the GM's).
HIDDEN_STATUS = "Hidden"
V = TypeVar("V")


@dataclass(slots=True)
class Unhidden(Event):
    """``actor`` is hidden no more: revealed by the GM (``how`` ``"gm"``) or stepping out to act (``"acts"``)."""

    kind: ClassVar[str] = "unhidden"
    actor: str
    how: str = "acts"

    def describe(self, names: Mapping[str, str]) -> str:
        if self.how == "gm":
            return f"The GM reveals {names[self.actor]}: it was hidden until now."
        return f"{names[self.actor]} steps out of hiding."


@dataclass(slots=True)
class Concealed(Event):
    """The record is about combatants hidden from the other seats (``ids``: its actor, or those its action names):
    only the GM's seat and theirs read it; every other seat reads "The GM acts." (:func:`conceal_entry`) and the hash
    chain links that form (:func:`affray.core.chain.public_action`)."""

    kind: ClassVar[str] = CONCEALED
    ids: list[str]

    def audience(self) -> frozenset[str]:
        return frozenset({GM, *self.ids})

    def redacted(self) -> JsonObject:
        return {"type": CONCEALED}

    def describe(self, names: Mapping[str, str]) -> str:
        return f"(Hidden from the other seats: {', '.join(names[i] for i in self.ids)}.)"


def starting(setup: Mapping[str, object], names: Mapping[str, str]) -> Mapping[str, str]:
    """The combatants the setup hides at the start (:data:`SETUP_KEY`), id -> name; :data:`NONE` when none."""
    listed = setup.get(SETUP_KEY)
    if not isinstance(listed, list) or not listed:
        return NONE
    return MappingProxyType({str(i): names.get(str(i), str(i)) for i in listed if str(i) in names})


def concealed_for(hidden: Mapping[str, str], viewer: Viewer) -> Mapping[str, str]:
    """The hidden combatants ``viewer`` may not see: all but the ones its seat plays, for any seat but the GM's."""
    if not hidden or viewer.omniscient:
        return NONE
    kept = {i: n for i, n in hidden.items() if i not in viewer.controls}
    return MappingProxyType(kept) if kept else NONE


@functools.lru_cache(maxsize=256)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    words = [re.escape(n) for n in names if n]
    return re.compile(r"\b(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")\b") if words else None


def _matcher(concealed: Mapping[str, str]) -> tuple[frozenset[str], re.Pattern[str] | None]:
    return frozenset(concealed), _pattern(tuple(sorted(set(concealed.values()) | set(concealed))))


def mentions(value: object, concealed: Mapping[str, str]) -> bool:
    """Whether the JSON ``value`` names a concealed combatant anywhere: its id as a string or a key, or its name (or
    id) as a word of a text."""
    if not concealed:
        return False
    ids, pattern = _matcher(concealed)
    return _mentions(value, ids, pattern)


def _mentions(value: object, ids: frozenset[str], pattern: re.Pattern[str] | None) -> bool:
    if isinstance(value, str):
        return value in ids or (pattern is not None and pattern.search(value) is not None)
    if isinstance(value, Mapping):
        return any(k in ids or _mentions(v, ids, pattern) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_mentions(v, ids, pattern) for v in value)
    return False


def scrub(value: Json, concealed: Mapping[str, str]) -> Json:
    """A copy of the JSON ``value`` that names no concealed combatant: a list leaves out each item that names one
    (an id, a text, an object with such a field); an object leaves out the keys that are such ids, and a field that
    names one directly becomes null (a text: empty). Deeper parts are scrubbed the same way."""
    if not concealed:
        return value
    ids, pattern = _matcher(concealed)
    return _scrub(value, ids, pattern)


def _direct(value: Json, ids: frozenset[str], pattern: re.Pattern[str] | None) -> bool:
    """Whether ``value`` names a concealed combatant itself, or (an object) in one of its own atom fields."""
    if isinstance(value, dict):
        return any(not isinstance(v, dict | list) and _mentions(v, ids, pattern) for v in value.values())
    return not isinstance(value, list) and _mentions(value, ids, pattern)


def _scrub(value: Json, ids: frozenset[str], pattern: re.Pattern[str] | None) -> Json:
    if isinstance(value, list):
        return [_scrub(v, ids, pattern) for v in value if not _direct(v, ids, pattern)]
    if isinstance(value, dict):
        out: JsonObject = {}
        for key, item in value.items():
            if key in ids:
                continue
            if isinstance(item, dict | list):
                out[key] = _scrub(item, ids, pattern)
            elif _mentions(item, ids, pattern):
                out[key] = "" if isinstance(item, str) and item not in ids else None
            else:
                out[key] = item
        return out
    return "" if isinstance(value, str) and _mentions(value, ids, pattern) else value


def conceal_view(view: View[object, object], concealed: Mapping[str, str]) -> View[object, object]:
    """``view`` without the concealed combatants: not among its combatants nor in its order; the turn of one told as
    the GM's, and a prompt of theirs as "Waiting for the GM." (the typed envelope only: :func:`scrub` the JSON for the
    ruleset's own parts)."""
    if not concealed:
        return view
    from affray.core.view import Prompt

    prompt = view.prompt
    if prompt is not None and any(a in concealed for a in prompt.actors):
        actors = tuple(dict.fromkeys(GM if a in concealed else a for a in prompt.actors))
        prompt = Prompt(prompt.phase, actors, WAITING)
    return dataclasses.replace(
        view,
        combatants=tuple(c for c in view.combatants if c.id not in concealed),
        order=tuple(a for a in view.order if a not in concealed),
        turn=GM if view.turn in concealed else view.turn,
        prompt=prompt,
    )


def mark_hidden(view: View[object, object], hidden: Mapping[str, str]) -> View[object, object]:
    """``view`` for a seat that sees the hidden combatants (the GM's): each with the status :data:`HIDDEN_STATUS`,
    which the GM's page offers to reveal."""
    from affray.core.view import Status

    return dataclasses.replace(
        view,
        combatants=tuple(
            dataclasses.replace(c, statuses=(*c.statuses, Status(HIDDEN_STATUS))) if c.id in hidden else c
            for c in view.combatants
        ),
    )


def conceal_specs(specs: Sequence[ActionSpec], concealed: Mapping[str, str]) -> list[ActionSpec]:
    """``specs`` without the actions that name a concealed combatant (in the action or its label); a note that names
    one is left out with its warning code."""
    if not concealed:
        return list(specs)
    out = []
    for spec in specs:
        if mentions(spec.action, concealed) or mentions(spec.label, concealed):
            continue
        if any(mentions(note, concealed) for note in spec.notes):
            kept = [i for i, note in enumerate(spec.notes) if not mentions(note, concealed)]
            spec = dataclasses.replace(
                spec,
                notes=tuple(spec.notes[i] for i in kept),
                warnings=tuple(w for i, w in enumerate(spec.warnings) if i in kept),
            )
        out.append(spec)
    return out


def named(action: Mapping[str, Json], ids: Collection[str]) -> list[str]:
    """The ids of ``ids`` that ``action`` names as a value (a target, a list of targets), in ``ids``' order."""
    found: set[str] = set()
    _collect(action, frozenset(ids), found)
    return [i for i in ids if i in found]


def _collect(value: object, ids: frozenset[str], found: set[str]) -> None:
    if isinstance(value, str):
        if value in ids:
            found.add(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            _collect(item, ids, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect(item, ids, found)


def replaced(value: Json, old: str, new: str) -> Json:
    """``value`` with every string equal to ``old`` replaced by ``new`` (an action's target)."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, dict):
        return {k: replaced(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [replaced(v, old, new) for v in value]
    return value
