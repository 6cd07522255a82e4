"""What several seat messages share, built once (:func:`affray.table.live.seat_message`).

Every change of a table sends each followed seat its message, and a seat's page asks for its whole state again
after a reconnect; built from scratch, each of them re-told the whole log in sentences, re-built its view and its
legal actions with their odds hints. :class:`SharedParts` keeps, per table:

- each log entry as told to each *visibility* of it (:func:`affray.core.seatlog.visibility`: whether its commit is
  sealed to the seat, and which of its events the seat sees in full). Seats that see an entry alike share the one
  built entry; a seat that sees it otherwise (a private event, a face-down commit) has its own. An entry is told once
  per visibility for the table's whole life, not once per message.
- the legal actions per seat for the table as it is now (the match, its version and newest record, paused or
  over): a push and a GET of the same seat at the same version share them (their odds hints are the costly part);
- during one pass over the seats (the pushes of a change, :meth:`SharedParts.one_pass`), the view per viewer, and
  the parts the seats' views share (the same objects, converted to JSON once:
  :func:`affray.core.events.to_jsonable_shared`). Forgotten at the end of the pass.

Each part is kept as its JSON text (orjson), read back for every message that holds it: reading 1 KB of JSON back
costs a few microseconds where telling an entry or building a view costs a hundred or more, the text is a few times
smaller than the objects, and no two messages share an object.

No part is keyed by a seat's name alone: every key holds everything the part is built from (the viewer or its
visibility, the match object and record it was built from), so a part built for one seat is given to another only
when that seat would have been given the same (tests/table/test_shared.py compares with the uncached build).
Call under the table's lock.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

import orjson

from affray.core.engine import Viewer
from affray.core.events import to_jsonable_shared
from affray.core.json import Json, JsonObject, as_object
from affray.core.match import Match
from affray.core.records import Record
from affray.core.seatlog import seat_entry, visibility
from affray.table.patch import Cut, cut

if TYPE_CHECKING:
    from affray.table.live import SeatInfo, Table

LegalLists = dict[str, list[JsonObject]]
K = TypeVar("K")
V = TypeVar("V")


def _kept(store: dict[K, bytes], key: K, build: Callable[[], V]) -> V:
    """The part under ``key``: built (and kept as its JSON text) the first time, read back from that text after.

    Kept as text, not as the built objects: a few times smaller (a live table's memory counts), and every message
    gets objects of its own, so no reader of one message can change another's. A part orjson cannot write (an
    integer past 64 bits) is built every time."""
    text = store.get(key)
    if text is not None:
        value: V = orjson.loads(text)
        return value
    built = build()
    with contextlib.suppress(TypeError):  # orjson.JSONEncodeError is a TypeError
        # A copy of exactly its length: orjson's own result keeps its whole output buffer (32 KiB or more).
        store[key] = bytes(memoryview(orjson.dumps(built, option=orjson.OPT_NON_STR_KEYS)))
    return built


class SharedParts:
    """See the module docstring. One per table (``Table.shared``)."""

    __slots__ = ("_converted", "_cuts", "_entries", "_legal", "_match", "_newest", "_pass", "_version", "_views")

    def __init__(self) -> None:
        # seq -> (the record it was told from, visibility -> the told entry's JSON)
        self._entries: dict[int, tuple[Record, dict[tuple[bool, ...], bytes]]] = {}
        self._match: Match | None = None
        self._version = -1
        self._newest: Record | None = None
        self._views: dict[Viewer, bytes] = {}
        self._cuts: dict[Viewer, Cut] = {}  # the views cut into units (protocol 2), as the views
        self._pass = False
        # The views' parts converted to JSON at this version: the seats' views share most of their objects.
        self._converted: dict[int, tuple[object, object]] = {}
        self._legal: dict[tuple[str, Viewer, tuple[str, ...], bool, bool], bytes] = {}

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
            out.append(_kept(cached[1], key, functools.partial(seat_entry, entry, viewer, key[0], narrator, story)))
        return out

    def view(self, match: Match, seat: str) -> JsonObject:
        """:meth:`Match.view_json` ``(seat)``; within :meth:`one_pass`, once per viewer, and the parts the views of
        the pass's seats share (the same objects) converted once (:func:`~affray.core.events.to_jsonable_shared`)."""
        if not self._pass:  # one seat's message (a GET): nothing to share it with
            return match.view_json(seat)
        self._check(match)
        return _kept(self._views, match.viewer(seat), lambda: as_object(to_jsonable_shared(match.view(seat),
                                                                                          self._converted)))

    def view_cut(self, match: Match, seat: str) -> Cut:
        """:meth:`view` cut into its units (:func:`affray.table.patch.cut`, at ``/view``): within :meth:`one_pass`,
        once per viewer."""
        if not self._pass:
            return Cut(cut(match.view_json(seat), "/view"))
        self._check(match)
        viewer = match.viewer(seat)
        made = self._cuts.get(viewer)
        if made is None:
            kept = self._views.get(viewer)  # a protocol-1 message of this pass built it: read it back
            view = orjson.loads(kept) if kept is not None else to_jsonable_shared(match.view(seat), self._converted)
            made = self._cuts[viewer] = Cut(cut(view, "/view"))
        return made

    def legal(self, table: Table, seat: SeatInfo) -> LegalLists:
        """:meth:`Table.legal_for` ``(seat)``, once per seat, viewer, actors, version, pause and end."""
        return _kept(self._legal, self._legal_key(table, seat), lambda: table.legal_for(seat))

    def legal_cut(self, table: Table, seat: SeatInfo) -> Cut:
        """:meth:`legal` as the one unit ``/legal``: the JSON text kept, neither read back nor written again."""
        key = self._legal_key(table, seat)
        kept = self._legal.get(key)
        if kept is None:
            self.legal(table, seat)
            kept = self._legal.get(key)
        return Cut({"/legal": kept if kept is not None else cut(table.legal_for(seat), "/legal")["/legal"]})

    def _legal_key(self, table: Table, seat: SeatInfo) -> tuple[str, Viewer, tuple[str, ...], bool, bool]:
        self._check(table.match)
        return (seat.name, table.match.viewer(table.match_seat(seat)), tuple(table.human_actors(seat)), table.paused,
                table.over)

    @contextlib.contextmanager
    def one_pass(self) -> Iterator[None]:
        """A pass over the seats (:func:`affray.table.feed.pushes`): inside it the views and their converted parts
        are kept, and forgotten at its end (views are a seat's own but for spectators, cheap to build again from
        the match's memo, and a live table keeps less); the told log entries and the legal actions stay."""
        self._pass = True
        try:
            yield
        finally:
            self._pass = False
            self._converted.clear()
            self._views.clear()
            self._cuts.clear()

    def _check(self, match: Match) -> None:
        """Forget what was built for another match (a reload) or another version of it (views, legal actions)."""
        newest = match.records[-1] if match.records else None
        if match is not self._match:
            self._entries.clear()
        if match is not self._match or match.version != self._version or newest is not self._newest:
            self._match, self._version, self._newest = match, match.version, newest
            self._views.clear()
            self._cuts.clear()
            self._legal.clear()
            self._converted.clear()
