"""The content library as a player reads it: every item of a ruleset's content with its stats in words and numbers.

A ruleset's plug-in record names a :data:`Describer` (its ``library`` part, ``rulesets/<name>/library.py``): from a
:class:`~affray.core.content.ContentLibrary` it makes one :class:`Entry` per character, monster, weapon, armour,
card, trait, technique, status... with a ``summary`` sentence in the ruleset's own words ("Drowner: Endurance 5,
Agility 2, ...": no ids in the words, the names of what it names instead) and its ``stats`` as JSON numbers. The
table server's ``GET /api/content/RULESET`` and ``affray content show`` both read it (:mod:`affray.table.library`).
A ruleset without a describer is described by :func:`plain_entries` (the name and the item's own fields).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel

from affray.core.json import Json, JsonObject

if TYPE_CHECKING:
    from affray.core.content import ContentLibrary

#: A section's kind in the library: the singular a player says ("armour" stays "armour").
KINDS: dict[str, str] = {
    "characters": "character",
    "monsters": "monster",
    "weapons": "weapon",
    "armour": "armour",
    "cards": "card",
    "traits": "trait",
    "passives": "technique",
    "statuses": "status",
    "signs": "sign",
    "spells": "spell",
    "feats": "feat",
    "maneuvers": "maneuver",
    "schools": "school",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One content item as the library shows it: ``id`` (what a scenario's ``use:`` or a sheet names), ``kind``
    (singular: ``monster``), ``name``, ``summary`` (its stats in words, starting with its name), ``stats`` (the
    item's own fields as a content file or a scenario's inline ``stats:`` writes them) and ``derived`` (the numbers
    the rules make of them: HP, Defense, attack bonuses...)."""

    id: str
    kind: str
    name: str
    summary: str
    stats: JsonObject
    derived: JsonObject = field(default_factory=dict)

    def as_json(self) -> JsonObject:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "summary": self.summary,
            "stats": self.stats,
            "derived": self.derived,
        }


#: A ruleset's describer: every item of a library as an :class:`Entry`.
Describer = Callable[["ContentLibrary"], list[Entry]]


def kind_of(section: str) -> str:
    """The singular kind of a content section (``monsters`` -> ``monster``); an unknown one loses a final ``s``."""
    return KINDS.get(section, section[:-1] if section.endswith("s") else section)


def fields_of(item: BaseModel, leave_out: Iterable[str] = ("description", "text")) -> JsonObject:
    """An item's own fields as JSON (what a scenario's inline ``stats:`` takes), without its long words (description,
    text) and without empty values."""
    dumped: JsonObject = item.model_dump(mode="json")
    skip = set(leave_out)
    return {k: v for k, v in dumped.items() if k not in skip and v not in (None, [], {}, "")}


def _value(value: Json) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(value)


def plain_entries(library: ContentLibrary) -> list[Entry]:
    """Every item of ``library`` described by its own fields ("Name: field value, ..."): for a ruleset whose record
    names no describer."""
    out = []
    for section, items in sorted(library.sections.items()):
        for item_id, item in sorted(items.items()):
            name = str(getattr(item, "name", "") or item_id)
            stats = fields_of(item) if isinstance(item, BaseModel) else {}
            words = "; ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in stats.items() if k != "name")
            out.append(Entry(item_id, kind_of(section), name, f"{name}: {words}." if words else f"{name}.", stats))
    return out


def signed(value: int) -> str:
    """``+2``, ``+0``, ``-1``: a modifier as a sheet prints it."""
    return f"+{value}" if value >= 0 else str(value)
