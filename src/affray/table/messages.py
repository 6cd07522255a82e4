"""What a seat receives: the answer to its accepted action (:class:`Answer`), its message (:func:`seat_message`,
and cut into units for a protocol-2 push: :func:`seat_units`), the fields every seat's message shares
(:func:`table_fields`), the chat lines it may read (:func:`visible`, each line's sender told by :func:`speaker`), and
the short text form for an in-world display (:func:`compact_text`). Built one seat at a time, so that no seat's
message is ever sent to another; what several messages hold alike is built once per table (:mod:`affray.table.parts`,
``Table.shared``).

Chat lines: a seat reads the public lines and the whispers it sent or that are addressed to it (:func:`may_read`),
numbered in its own count (``n``: the lines *it* may read, counted from 0, :func:`read_before`), never the store's:
a gap would tell it how many whispers it did not read. Writing lines and free rolls: :mod:`affray.table.chat`.

Call everything here under ``table.lock``.
"""

from __future__ import annotations

import functools
import weakref
from typing import Required, TypedDict, cast

from affray.core.engine import GM
from affray.core.json import Json, JsonObject
from affray.core.match import Match
from affray.store import ChatLine
from affray.table import patch
from affray.table.seats import SeatInfo
from affray.table.state import Table, countdown_of


class Answer(TypedDict, total=False):
    """The answer to an accepted action or ruling: its version, seq and the seat's events; ``chosen_at`` when it was
    chosen at an earlier version (:meth:`affray.table.ledger.Ledger.answer`)."""

    version: Required[int]
    seq: Required[int]
    events: Required[list[Json]]
    chosen_at: int


def seat_message(table: Table, seat: SeatInfo, since: int = 0, chat_since: int = 0) -> JsonObject:
    """What ``seat`` may know now: its view, its due legal actions (and the same as a tree of steps, ``steps``), its
    redacted log from ``since`` on (each event told in a sentence, ``text``), the chat lines it may read from line
    ``chat_since`` on, the version, the commitment and chain head, the outcome, and the seed (null until the end); the
    GM's also says which seats are connected. Call under ``table.lock``.

    The view, the legal actions and the told log entries come from ``table.shared`` (:mod:`affray.table.parts`):
    built once and shared by every message (of this seat, or of a seat that may see the same) that holds them."""
    return _message(table, seat, since, chat_since, False)


def seat_units(table: Table, seat: SeatInfo, since: int = 0, chat_since: int = 0) -> dict[str, patch.Unit]:
    """:func:`seat_message` cut into its units (:func:`affray.table.patch.cut`), for a protocol-2 push: the view and
    the legal actions come already cut from ``table.shared``, as the JSON text it keeps."""
    return patch.cut(_message(table, seat, since, chat_since, True))


def _message(table: Table, seat: SeatInfo, since: int, chat_since: int, cut: bool) -> JsonObject:
    match, name = table.match, table.match_seat(seat)
    shared = table.shared
    # the same for every seat (in a pass of pushes, built and cut once)
    head, tail = shared.table_fields(match, cut, functools.partial(table_fields, table))
    message: JsonObject = {
        **head,
        "seat": seat.name,
        "role": seat.role,
        "actors": list(seat.actors),
        # A Cut stands in for the value it holds (patch.cut takes it as is); it never leaves this module otherwise.
        "view": cast(Json, shared.view_cut(match, name)) if cut else shared.view(match, name),
        "legal": (
            cast(Json, shared.legal_cut(table, seat))
            if cut
            else {actor: list[Json](specs) for actor, specs in shared.legal(table, seat).items()}
        ),
        "steps": shared.steps(table, seat),  # the same choices as a tree of steps in words (docs/table.md, "Steps")
        "log": shared.log(match, since, name),
        "since": since,
        "chat": list[Json](visible(table, seat, chat_since)),
        "chat_since": read_before(table, seat.name, chat_since),  # in the seat's own count: no whisper shows
        **tail,
    }
    if seat.role == "gm":
        message["connected"] = {s: n for s, n in table.connected.items() if n > 0}
    return message


def table_fields(table: Table) -> tuple[JsonObject, JsonObject]:
    """The fields of every seat's message that are the table's, not the seat's, in the message's order: those before
    the seat's own fields (the table, its title, ruleset and version) and those after them (the people one may
    whisper to, the commitment and chain head, pause, timer, countdown, the map image's version, outcome,
    and the seed once it is over)."""
    match = table.match
    head: JsonObject = {
        "table": table.id,
        "title": table.title,
        "ruleset": match.ruleset.name,
        "version": match.version,
    }
    tail: JsonObject = {
        "seats": [
            {"seat": s.name, "role": s.role, "name": speaker(table, s.name)}
            for s in table.seats.values()
            if s.role != "spectator" and s.token_hash is not None
        ],  # the people one may whisper to
        "commitment": match.commitment,
        "chain": table.head,
        "paused": table.paused,
        "timer": table.config.get("timer"),
        "countdown": countdown_offer(match),
        "map": table.config.get("map"),  # the GM's map image: {version, type, bytes}, or null (table/map_image.py)
        "outcome": table.outcome(),
        "seed": table.seed_hex if table.over else None,
    }
    return head, tail


def countdown_offer(match: Match) -> JsonObject | None:
    """What the pages show of the countdown that is on: its name, rule and usual length in seconds."""
    countdown = countdown_of(match)
    if countdown is None:
        return None
    return {"name": countdown.name, "rule": countdown.rule, "seconds": countdown.length(match.options)}


def may_read(line: ChatLine, seat: str) -> bool:
    """Whether ``seat`` may read ``line``: a public line, or a whisper it sent or that is addressed to it."""
    return line.to is None or line.seat == seat or line.to == seat


def visible(table: Table, seat: SeatInfo, since: int = 0) -> list[JsonObject]:
    """The chat lines ``seat`` may read, from the table's line ``since`` on, as the page and the API show them,
    each numbered in the seat's own count (:func:`read_before`)."""
    n = read_before(table, seat.name, since)
    out = []
    for line in table.chat[since:]:
        if may_read(line, seat.name):
            out.append(line_json(table, line, n))
            n += 1
    return out


#: Per table, per seat: how many of the table's first i lines the seat may read, for each i counted so far. The
#: table's lines only grow (a reload reads the same lines back, the store's, in the same order), so a count stays true.
_counted: weakref.WeakKeyDictionary[Table, dict[str, list[int]]] = weakref.WeakKeyDictionary()


def read_before(table: Table, seat: str, since: int) -> int:
    """How many of the table's lines before line ``since`` ``seat`` may read: the seat's number for the next line it
    reads, and what its message says as ``chat_since``. Each line is looked at once per seat (kept counts)."""
    counts = _counted.setdefault(table, {}).setdefault(seat, [0])
    since = min(since, len(table.chat))
    for line in table.chat[len(counts) - 1 : since]:
        counts.append(counts[-1] + may_read(line, seat))
    return counts[since]


def line_json(table: Table, line: ChatLine, n: int) -> JsonObject:
    """``line`` as a seat that numbers it ``n`` reads it."""
    out: JsonObject = {
        "n": n,
        "at": line.at,
        "seat": line.seat,
        "from": speaker(table, line.seat),
        "to": line.to,
        "kind": line.kind,
        **line.body,
    }
    if line.to is not None:
        out["to_name"] = speaker(table, line.to)
    return out


def speaker(table: Table, seat: str) -> str:
    """A seat as a person reads it: "GM", "spectator", or the names of the combatants it plays."""
    if seat == GM:
        return "GM"
    info = table.seats.get(seat)
    if info is None or not info.actors:
        return seat
    names = table.match.names()
    return ", ".join(names.get(a, a) for a in info.actors)


COMPACT_LIMIT = 2048


def compact_text(table: Table, seat: SeatInfo) -> str:
    """A short text form of the seat's state and choices (at most 2 KB of UTF-8), for an in-world heads-up
    display's script.

    The view is read only through its common envelope (``combatants``, ``bars``, ``down``), defensively."""
    match = table.match
    view = match.view_json(table.match_seat(seat))
    outcome = table.outcome()
    head = f"{table.id} v{match.version} {match.ruleset.name} r{view.get('round', '?')} {view.get('phase', '')}"
    lines = [head.strip()]
    if outcome is not None:
        lines.append(f"OVER: {outcome.get('winner') or 'draw'} ({outcome.get('reason')})")
    elif table.paused:
        lines.append("PAUSED")
    for c in view.get("combatants") or []:
        if not isinstance(c, dict):
            continue
        bars = " ".join(
            f"{b.get('name')} {b.get('value')}/{b.get('max')}" for b in c.get("bars") or [] if isinstance(b, dict)
        )
        mark = "*" if c.get("controlled") else " "
        lines.append(f"{mark}{c.get('name', c.get('id'))}: {bars}{' DOWN' if c.get('down') else ''}")
    for actor, specs in table.legal_for(seat).items():
        lines.append(f"{actor} to act:")
        lines.extend(f"{i}) {spec['label']}" for i, spec in enumerate(specs, 1))
    return _fit(lines, COMPACT_LIMIT)


def _fit(lines: list[str], limit: int) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        cost = len(line.encode()) + 1
        if size + cost > limit - 4:
            out.append("...")
            break
        out.append(line)
        size += cost
    return "\n".join(out)
