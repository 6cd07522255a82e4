"""Pushing every change to the seats that follow a table (docs/architecture.md, 'One action', step 5).

A *follower* is one connection that hears one seat (a WebSocket, or any other push transport). It is registered
with :meth:`affray.table.TableService.follow` and given, through its ``deliver`` callback:

1. at once, the seat's whole message (:func:`affray.table.messages.seat_message` from version 0);
2. after every change of the table, the seat's message with the log entries and the chat lines since the last
   one it was sent;
3. a final push (``Push.final``) when its token stops opening the seat, or when its message could not be built (a
   bug, logged here; the other followers go on): the connection must close.

A follower of protocol 2 (``Follower.patches``) is sent, after its first message, only what changed: a JSON Patch
of the message it was sent before (:mod:`affray.table.patch`; nothing at all when nothing it may see changed).

Why the pushes are built here and not by each connection: a change used to wake every connection, and each then
asked a worker thread for its own message under the table's lock. Six seats meant six thread hops contending for the
lock and the interpreter, and the first message left the server 5 ms after the change for 1 ms of work
(docs/performance.md, "The table server"). Now the thread that learns of the change (the store's listener) builds
every followed seat's message once, in one pass under the lock, and encodes it to JSON text there; a connection only
sends text. Two connections of one seat that were sent the same version share one build.

``deliver`` is called under the table's lock, in the order of the table's changes, from whichever thread made the
change known: it must only hand the push over (``loop.call_soon_threadsafe(queue.put_nowait, push)``), never block.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from affray.table import patch
from affray.table.messages import seat_message, seat_units
from affray.table.seats import SeatInfo
from affray.table.state import Table


@dataclass(frozen=True, slots=True)
class Push:
    """One message for a follower: ``text`` is the JSON to send; a ``close`` code means send it, then close the
    connection with that code (WebSocket close codes: 4401 a token that no longer opens the seat, 1011 a server
    error)."""

    text: str
    close: int | None = None

    @property
    def final(self) -> bool:
        return self.close is not None


TOKEN_REPLACED = Push(json.dumps({"code": "token_replaced", "message": "This seat's token was replaced."}), close=4401)
# A seat whose message could not be built (a bug, logged on the server): its connection closes with 1011 and no
# frame (a client reconnects after a close without a refusal), the others go on. Nothing of the table is sent.
BROKEN = Push("", close=1011)
log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class Follower:
    """One connection hearing ``seat``, opened with the token that hashes to ``token_hash``; ``sent`` is the
    version of the last message it was given."""

    seat: SeatInfo
    token_hash: str
    deliver: Callable[[Push], object]
    sent: int = 0
    chat_sent: int = 0  # the table's chat lines it has been given (it reads those it may)
    gone: bool = False  # unfollowed: never registered again
    patches: bool = False  # protocol 2: every push after the first is a patch of the message before it
    units: patch.Units | None = None  # protocol 2: the fingerprints of the message it was last sent (table/patch.py)


def encode(message: Mapping[str, object]) -> str:
    """The JSON text of a seat's message or a reply (:func:`affray.table.patch.dumps`), as a str."""
    return patch.dumps(message).decode()


def first_push(table: Table, follower: Follower) -> Push:
    """The follower's first push (the whole message, or the refusal of a token replaced meanwhile). Call under
    ``table.lock``; sets ``follower.sent``."""
    seat = opened(table, follower)
    if seat is None:
        return TOKEN_REPLACED
    follower.sent, follower.chat_sent = table.version, len(table.chat)
    push, units = _build(table, seat, 0, 0, None if not follower.patches else {})
    follower.units = units
    return push or BROKEN


def pushes(table: Table, followers: list[Follower]) -> list[tuple[Follower, Push]]:
    """Each follower's push for the table as it is now (one build per seat, starting version, chat line and, for
    protocol 2, units object it was sent before: two connections of one seat share builds from the first pass that
    gave them one push, not before); a protocol-2 follower to which nothing changed is left out. Call under
    ``table.lock``; advances each follower's ``sent``, ``chat_sent`` and ``units``. What the seats' messages share is
    built once (:mod:`affray.table.parts`)."""
    built: dict[tuple[str, int, int, int], tuple[Push | None, patch.Units | None]] = {}
    keep = []  # every units object keyed by its id below, alive until the pass ends: no id is reused meanwhile
    out = []
    with table.shared.one_pass():
        for follower in followers:
            seat = opened(table, follower)
            if seat is None:
                out.append((follower, TOKEN_REPLACED))
                continue
            before = follower.units if follower.patches else None
            # Two followers sent the same units object were sent the same message (units are never changed).
            key = (seat.name, follower.sent, follower.chat_sent, 0 if before is None else id(before))
            keep.append(before)
            made = built.get(key)
            if made is None:
                made = built[key] = _build(table, seat, follower.sent, follower.chat_sent, before)
            push, follower.units = made
            follower.sent, follower.chat_sent = table.version, len(table.chat)
            if push is not None:
                out.append((follower, push))
    table.match.memo.release()  # the version is sent: its views and legal lists live on as text only
    return out


def _build(
    table: Table, seat: SeatInfo, since: int, chat_since: int, before: patch.Units | None
) -> tuple[Push | None, patch.Units | None]:
    """The push of the seat's message from ``since`` and ``chat_since``: whole (``before`` None: protocol 1), or
    the patch of the message whose units were ``before`` (``{}``: a protocol-2 first message, whole), with the
    message's units; ``(None, units)`` when the patch would be empty."""
    try:
        if before is None:
            return Push(encode(seat_message(table, seat, since, chat_since))), None
        cut = seat_units(table, seat, since, chat_since)
        if not before:
            text, units = patch.whole(cut)
            return Push(text), units
        changed, units = patch.between(before, cut)
        return (None if changed is None else Push(changed)), units
    except Exception:  # a bug in a view: this seat's connection closes (1011), every other seat still hears
        log.exception("table %s: the message of seat %s could not be built", table.id, seat.name)
        return BROKEN, before


def opened(table: Table, follower: Follower) -> SeatInfo | None:
    """The table's current record of the follower's seat, or None once its token no longer opens it (a GM replaced
    it). The record is read again each time: a reload from the store replaces the table's seat records."""
    current = table.seats.get(follower.seat.name)
    return current if current is not None and current.token_hash == follower.token_hash else None
