"""What several seat messages share, built once (:func:`affray.table.live.seat_message`).

Every change of a table sends each followed seat its message, and a seat's page asks for its whole state again
after a reconnect; built from scratch, each of them re-told the whole log in sentences, re-built its view and its
legal actions with their odds hints. :class:`SharedParts` keeps, per table:

- each log entry as told to each *visibility* of it (:func:`affray.core.seatlog.visibility`: whether its commit is
  sealed to the seat, and which of its events the seat sees in full). Seats that see an entry alike share the one
  built entry; a seat that sees it otherwise (a private event, a face-down commit) has its own. An entry is told once
  per visibility for the table's whole life, not once per message.
- the view per viewer and the legal actions per seat, for the table as it is now (the match, its version and newest
  record; paused or over for the legal actions). A push and a GET of the same seat at the same version share them;
  seats with the same viewer (spectators) share one view.

No part is keyed by a seat's name alone: every key holds everything the part is built from (the viewer or its
visibility, the match object and record it was built from), so a part built for one seat is given to another only
when that seat would have been given the same (tests/table/test_shared.py compares with the uncached build). The
parts are shared objects: a message's reader must not change them (the server only encodes them to JSON).
Call under the table's lock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.core.engine import Viewer
from affray.core.json import Json, JsonObject
from affray.core.match import Match
from affray.core.records import Record
from affray.core.seatlog import seat_entry, visibility

if TYPE_CHECKING:
    from affray.table.live import SeatInfo, Table

LegalLists = dict[str, list[JsonObject]]


class SharedParts:
    """See the module docstring. One per table (``Table.shared``)."""

    __slots__ = ("_entries", "_legal", "_match", "_newest", "_version", "_views")

    def __init__(self) -> None:
        # seq -> (the record it was told from, visibility -> the told entry)
        self._entries: dict[int, tuple[Record, dict[tuple[bool, ...], JsonObject]]] = {}
        self._match: Match | None = None
        self._version = -1
        self._newest: Record | None = None
        self._views: dict[Viewer, JsonObject] = {}
        self._legal: dict[tuple[str, Viewer, tuple[str, ...], bool, bool], LegalLists] = {}

    def log(self, match: Match, since: int, seat: str) -> list[Json]:
        """:meth:`Match.events_since` ``(since, seat, narrate=True)``, each entry told once per visibility."""
        self._check(match)
        viewer, revealed = match.viewer(seat), match.revealed
        narrator, story = match.narrator, match.story()
        out: list[Json] = []
        for entry in match.records[max(0, since):]:
            cached = self._entries.get(entry.seq)
            if cached is None or cached[0] is not entry:  # a new record at this seq (a lost race, a reload)
                cached = self._entries[entry.seq] = (entry, {})
            key = visibility(entry, viewer, revealed)
            told = cached[1].get(key)
            if told is None:
                told = cached[1][key] = seat_entry(entry, viewer, key[0], narrator, story)
            out.append(told)
        return out

    def view(self, match: Match, seat: str) -> JsonObject:
        """:meth:`Match.view_json` ``(seat)``, once per viewer and version."""
        self._check(match)
        viewer = match.viewer(seat)
        view = self._views.get(viewer)
        if view is None:
            view = self._views[viewer] = match.view_json(seat)
        return view

    def legal(self, table: Table, seat: SeatInfo) -> LegalLists:
        """:meth:`Table.legal_for` ``(seat)``, once per seat, viewer, actors, version, pause and end."""
        self._check(table.match)
        key = (seat.name, table.match.viewer(table.match_seat(seat)), tuple(table.human_actors(seat)), table.paused,
               table.over)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = table.legal_for(seat)
        return legal

    def _check(self, match: Match) -> None:
        """Forget what was built for another match (a reload) or another version of it (views, legal actions)."""
        newest = match.records[-1] if match.records else None
        if match is not self._match:
            self._entries.clear()
        if match is not self._match or match.version != self._version or newest is not self._newest:
            self._match, self._version, self._newest = match, match.version, newest
            self._views.clear()
            self._legal.clear()
