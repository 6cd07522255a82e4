"""What several seat messages share, built once (:func:`affray.table.messages.seat_message`).

Every change of a table sends each followed seat its message, and a seat's page asks for its whole state again
after a reconnect; built from scratch, each of them re-told the whole log in sentences, re-built its view and its
legal actions with their odds hints. :class:`SharedParts` keeps, per table:

- each log entry as told to each *visibility* of it (:func:`affray.core.seatlog.visibility`: whether its commit is
  sealed to the seat, and which of its events the seat sees in full). Seats that see an entry alike share the one
  built entry; a seat that sees it otherwise (a private event, a face-down commit) has its own. An entry is told once
  per visibility for the table's whole life, not once per message.
- the legal actions per seat for the table as it is now (the match, its version and newest record, paused or
  over): a push and a GET of the same seat at the same version share them (their odds hints are the costly part);
- during one pass over the seats (the pushes of a change, :meth:`SharedParts.one_pass`), the view per viewer, the
  parts the seats' views share (the same objects, converted to JSON once:
  :func:`affray.core.events.to_jsonable_shared`, and written once: :func:`affray.table.patch.cut`), and the message's
  table-wide fields, cut once (:meth:`SharedParts.table_fields`). Forgotten at the end of the pass.

Each part is kept as its JSON text (orjson), read back for every message that holds it: reading 1 KB of JSON back
costs a few microseconds where telling an entry or building a view costs a hundred or more, the text is a few times
smaller than the objects, and no two messages share an object.

No part is keyed by a seat's name alone: every key holds everything the part is built from (the viewer or its
visibility, the match object and record it was built from), so a part built for one seat is given to another only
when that seat would have been given the same (tests/table/test_shared.py compares with the uncached build).
Call under the table's lock.

The parts read a live table through :class:`LiveTable`, what they need of it (the table holds its parts: this module
names no module above it).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar, cast

import orjson

from affray.core.engine import ActionSpec, Viewer
from affray.core.events import to_jsonable_shared
from affray.core.json import Json, JsonObject, as_object
from affray.core.match import Match
from affray.core.records import Record
from affray.core.seatlog import seat_entry, visibility
from affray.core.steps import steps_for
from affray.table.patch import Cut, Written, cut
from affray.table.seats import SeatInfo

LegalLists = dict[str, list[JsonObject]]
DueSpecs = list[tuple[str, list[ActionSpec], list[str]]]
Fields = tuple[JsonObject, JsonObject]
K = TypeVar("K")
V = TypeVar("V")


def _write(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _write_kept(value: object) -> bytes:
    """:func:`_write`, copied to its length: orjson's own result keeps its whole output buffer (4 KiB or more)."""
    return bytes(memoryview(_write(value)))


def _open_object(value: object) -> bytes:
    """The JSON object ``value`` without its closing brace, copied to its length (:func:`_write_kept`): a spec keeps
    it as long as the ruleset keeps the spec."""
    return bytes(memoryview(_write(value))[:-1])


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
        store[key] = _write_kept(built)
    return built


class LiveTable(Protocol):
    """What the parts read of a live table (:class:`affray.table.state.Table`): its match, whether it is paused or
    over, and its seats' actors and due legal actions."""

    match: Match

    @property
    def paused(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    def match_seat(self, seat: SeatInfo) -> str: ...

    def human_actors(self, seat: SeatInfo) -> list[str]: ...

    def due_specs(self, seat: SeatInfo) -> DueSpecs: ...

    def legal_for(self, seat: SeatInfo) -> LegalLists: ...


_HINTS: dict[str, bytes] = {"": b',"hint":""},'}  # a spec's hint, its closing brace and a comma; most have none


def legal_text(due: DueSpecs) -> bytes:
    """The JSON text of :meth:`Table.legal_for`'s lists, byte for byte what orjson writes of them, written from each
    spec's kept text (:meth:`ActionSpec.written`) and its hint: no dict is made per spec. A due seat's list holds a
    hundred specs at a grid move, most of them kept by the ruleset from version to version: written this way it takes
    26 µs against 76-92 µs through the dicts (docs/performance.md, "Pings only when idle, legal lists from kept
    text")."""
    parts = [b"{"]
    for actor, specs, texts in due:
        if len(parts) > 1:
            parts.append(b",")
        parts += (_write(actor), b":[")
        for spec, hint in zip(specs, texts, strict=True):
            tail = _HINTS.get(hint)
            if tail is None:
                tail = b',"hint":' + _write(hint) + b"},"
            parts += (spec.written(_open_object), tail)  # the spec's object without its "}", then its hint and "}"
        if specs:
            parts[-1] = parts[-1][:-1]  # no comma after the last spec
        parts.append(b"]")
    parts.append(b"}")
    return b"".join(parts)


def step_trees(table: LiveTable, seat: SeatInfo) -> dict[str, Json]:
    """Each due actor of ``seat`` with its legal actions as a step tree's JSON (docs/table.md, "Steps"): built by the
    ruleset's builder from the seat's own view (what the seat may see, never another seat's face-down card), the
    same specs and odds hints as the seat's ``legal`` lists."""
    due = table.due_specs(seat)
    if not due:
        return {}
    match = table.match
    view = match.view(table.match_seat(seat))
    return {actor: steps_for(match.plugin, view, actor, specs, texts).to_json() for actor, specs, texts in due}


def _cut_fields(fields: Fields) -> Fields:
    """Each top-level field of a message as its own unit (:class:`Cut`), in place of its value."""
    head, tail = ({key: cast(Json, Cut(cut(value, f"/{key}"))) for key, value in part.items()} for part in fields)
    return head, tail


class SharedParts:
    """See the module docstring. One per table (``Table.shared``)."""

    __slots__ = (
        "_converted",
        "_cuts",
        "_entries",
        "_fields",
        "_legal",
        "_match",
        "_newest",
        "_pass",
        "_steps",
        "_version",
        "_views",
        "_written",
    )

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
        self._fields: Fields | None = None  # the table's fields, cut, within a pass
        self._written: Written = {}  # the texts of the converted parts' units, written once for every seat (patch.cut)
        self._legal: dict[tuple[str, Viewer, tuple[str, ...], bool, bool], bytes] = {}
        self._steps: dict[tuple[str, Viewer, tuple[str, ...], bool, bool], bytes] = {}  # as _legal, the step trees

    def log(self, match: Match, since: int, seat: str) -> list[Json]:
        """:meth:`Match.events_since` ``(since, seat, narrate=True)``, each entry told once per visibility."""
        self._check(match)
        viewer, revealed = match.viewer(seat), match.revealed
        narrator, story = match.narrator, match.story()
        out: list[Json] = []
        for entry in match.records[max(0, since) :]:
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
        return _kept(
            self._views,
            match.viewer(seat),
            lambda: match.scrubbed(seat, as_object(to_jsonable_shared(match.view(seat), self._converted))),
        )

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
            view = (
                orjson.loads(kept)
                if kept is not None
                else match.scrubbed(seat, to_jsonable_shared(match.view(seat), self._converted))
            )
            made = self._cuts[viewer] = Cut(cut(view, "/view", written=self._written))
        return made

    def legal(self, table: LiveTable, seat: SeatInfo) -> LegalLists:
        """:meth:`Table.legal_for` ``(seat)``, once per seat, viewer, actors, version, pause and end."""
        text = self._legal_text(table, seat)
        if text is None:
            return table.legal_for(seat)
        lists: LegalLists = orjson.loads(text)
        return lists

    def legal_cut(self, table: LiveTable, seat: SeatInfo) -> Cut:
        """:meth:`legal` as the one unit ``/legal``: the JSON text kept, neither read back nor written again."""
        text = self._legal_text(table, seat)
        return Cut({"/legal": text if text is not None else cut(table.legal_for(seat), "/legal")["/legal"]})

    def _legal_text(self, table: LiveTable, seat: SeatInfo) -> bytes | None:
        """:meth:`Table.legal_for` ``(seat)`` as JSON text (None if orjson cannot write it), kept per
        :meth:`_legal_key`."""
        key = self._legal_key(table, seat)
        text = self._legal.get(key)
        if text is None:
            with contextlib.suppress(TypeError):  # orjson.JSONEncodeError is a TypeError
                text = self._legal[key] = legal_text(table.due_specs(seat))
        return text

    def steps(self, table: LiveTable, seat: SeatInfo) -> dict[str, Json]:
        """Each due actor's legal actions as a tree of steps in words (:func:`affray.core.steps.steps_for`, its JSON),
        built from the same specs and hints as :meth:`legal` and from the seat's own view only; kept per
        :meth:`_legal_key`, as the legal lists are."""
        return _kept(self._steps, self._legal_key(table, seat), functools.partial(step_trees, table, seat))

    def table_fields(self, match: Match, cut: bool, build: Callable[[], Fields]) -> Fields:
        """The message's table-wide fields, as ``build()`` gives them (:func:`affray.table.messages.table_fields`);
        with ``cut``, each field's value is its unit (a :class:`Cut`), and within :meth:`one_pass` both are built once
        for every seat (a dozen fields each seat's push cut, wrote and fingerprinted alike)."""
        if not self._pass or not cut:
            return build() if not cut else _cut_fields(build())
        self._check(match)
        if self._fields is None:
            self._fields = _cut_fields(build())
        return self._fields

    def _legal_key(self, table: LiveTable, seat: SeatInfo) -> tuple[str, Viewer, tuple[str, ...], bool, bool]:
        self._check(table.match)
        return (
            seat.name,
            table.match.viewer(table.match_seat(seat)),
            tuple(table.human_actors(seat)),
            table.paused,
            table.over,
        )

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
            self._written.clear()
            self._fields = None
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
            self._steps.clear()
            self._converted.clear()
            self._written.clear()
            self._fields = None
