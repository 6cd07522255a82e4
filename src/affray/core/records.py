"""The log of record's entries (DESIGN.md contract 4): a :class:`Record` is an accepted action, an undo or a GM
ruling; :class:`Line` is the records in force at a version, as a persistent list (an undo does not cut the log, it
names the line it goes back to). :mod:`affray.core.match` keeps them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from affray.core.engine import Action
from affray.core.events import Event, Revealed, Rolled
from affray.core.hidden import NONE
from affray.core.json import JsonObject

ACTION = "action"
UNDO = "undo"
RULING = "gm"  # a GM ruling (core/adjust.py): replayed like an action, taken back like one
IN_FORCE = (ACTION, RULING)  # the kinds of record a take back can remove and replay folds


@dataclass(slots=True)
class Record:
    """One entry of the log of record. ``kind`` is ``"action"`` (``actor`` took ``action`` for ``seat``), ``"undo"``
    (``seat`` took the match back to version ``action["to"]``) or ``"gm"`` (a GM ruling, :mod:`affray.core.adjust`:
    ``action`` is ``{"type": "ruling", "reason", "changes"}``). ``events`` derive from the record by replay."""

    seq: int
    seat: str
    actor: str
    action: Action
    events: list[Event]
    kind: str = ACTION
    #: The version the action was chosen at, when it was earlier than ``seq`` (a simultaneous move that still stood,
    #: :mod:`affray.core.standing`). Not an input: the chain and replay ignore it.
    chosen_at: int | None = None
    #: The combatants still hidden after this record (id -> name; :mod:`affray.core.hidden`): which of its events
    #: each seat reads. Derived, not an input: the chain and replay ignore it.
    hidden: Mapping[str, str] = field(default_factory=lambda: NONE)

    def to_dict(self, events: bool = True) -> JsonObject:
        out: JsonObject = {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "actor": self.actor,
            "action": self.action,
        }
        if events:
            out["events"] = [e.to_dict() for e in self.events]
        return out


@dataclass(frozen=True, slots=True)
class Line:
    """The actions in force at a version, as a persistent list: the last record's index and the line before it."""

    index: int
    before: Line | None


class ReplayError(RuntimeError):
    """A logged action was refused on replay: the log does not belong to this setup and seed."""


def reveals(events: list[Event]) -> bool:
    """Whether ``events`` showed anyone something new: a die rolled or a sealed choice opened."""
    return any(isinstance(e, Rolled | Revealed) for e in events)
