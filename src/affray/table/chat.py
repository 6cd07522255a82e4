"""A table's chat and free rolls: lines every seat can read, whispers only their sender and addressee read, and dice
rolled outside the fight that anyone can check at the end.

- A chat line is ``{"text", "to"}``: ``to`` is ``None`` (everyone), ``"gm"`` or a seat's name (a whisper). Its text is
  at most :data:`MAX_TEXT` characters of printable text (control characters refused), stored as written; every
  page escapes it when it shows it.
- A free roll is ``{"notation", "to"}`` in the notation of ``affray roll``, at most :data:`MAX_FREE_DICE` dice. A
  roll to everyone takes its dice from the table's secret seed on their own stream
  (:data:`affray.core.rng.FREE_STREAM`): the i-th public free draw of a dN is derived like a fight die with the
  message ``free:i:attempt`` instead of ``i:attempt``, so free rolls never change the fight's dice, and once the seed
  is revealed every seat re-derives them. A **whispered** roll takes its dice from its pair of seats' own stream
  (:func:`affray.core.rng.whisper_key` of the table's salt secret, ``whisper:i:attempt``, ``i`` counting that pair's
  draws): the seed revealed at the end does not give them, so a third seat cannot re-derive a whisper's roll, nor
  tell from the public draws' numbers that one was made. The line carries the SHA-256 of its pair's key
  (``commitment``, which only the pair reads); at the end each seat's log gives the key of each pair it whispered
  in (:func:`free_rolls`), and ``affray verify`` checks the rolls with it (and says which it could not check). A
  table stored before it had a salt secret draws every free roll from the free stream, as it did.
- Lines live in the store with the table (:meth:`affray.store.Store.add_chat`) and come back after a restart; the
  store's unique (table, n) numbers racing lines (and gives a roll its draws) once, across processes. A seat is
  shown its own numbering (``n``: the lines *it* may read, counted from 0), never the store's: a gap would tell it how
  many whispers it did not read.

A seat reads the lines it may see (:func:`affray.table.messages.visible`, with the rest of what it receives); the
spectator may read and write public lines and whisper to the GM. Nothing here is a record of the fight: chat neither
changes the version nor enters the hash chain.
"""

from __future__ import annotations

import hashlib
import time
import unicodedata

from affray.core.engine import GM
from affray.core.json import JsonObject, as_list, as_object
from affray.core.notation import NotationError, parse, roll_expr
from affray.core.rng import FREE_STREAM, WHISPER_STREAM, VerifiableRNG, whisper_key
from affray.store import ChatLine, Store
from affray.table.errors import UNAVAILABLE, UNPROCESSABLE, Refusal
from affray.table.ledger import Ledger
from affray.table.messages import line_json, may_read, read_before
from affray.table.seats import SeatInfo
from affray.table.state import Table

MAX_TEXT = 500
MAX_FREE_DICE = 100
CHAT, ROLL = "chat", "roll"


def addressee(table: Table, seat: SeatInfo, to: str | None) -> str | None:
    """The checked ``to`` of a line from ``seat``: ``None``, "gm" or another seat of the table."""
    if to is None:
        return None
    if to == seat.name:
        raise Refusal("bad_addressee", "A whisper goes to someone else: the GM or another seat.", UNPROCESSABLE)
    if to != GM and (to not in table.seats or table.seats[to].role == "spectator"):
        raise Refusal("bad_addressee", f"There is no seat '{to}' at this table to whisper to.", UNPROCESSABLE)
    if seat.role == "spectator" and to != GM:
        raise Refusal("bad_addressee", "A spectator may whisper to the GM only.", UNPROCESSABLE)
    return to


def checked_text(text: str) -> str:
    """The text of a chat line, stripped; refused when empty, too long or holding control characters."""
    text = text.strip()
    if not text:
        raise Refusal("empty_text", "Write something to send.", UNPROCESSABLE)
    if len(text) > MAX_TEXT:
        raise Refusal("text_too_long", f"A chat line holds at most {MAX_TEXT} characters.", UNPROCESSABLE)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") and ch not in "\n\t" for ch in text):
        raise Refusal("bad_text", "A chat line cannot hold control characters.", UNPROCESSABLE)
    return text


def pair_key(table: Table, seat: str, to: str | None) -> bytes | None:
    """The key of the stream a free roll from ``seat`` to ``to`` draws from: its pair's whisper key for a whisper
    at a table with a salt secret; None for a roll to everyone, or at a table stored before salt secrets (the
    seed's free stream)."""
    if to is None or not table.salt_hex:
        return None
    return whisper_key(bytes.fromhex(table.salt_hex), seat, to)


def same_stream(line: ChatLine, seat: str, to: str | None, whispers: bool) -> bool:
    """Whether ``line`` drew from the stream a roll from ``seat`` to ``to`` draws from (``whispers``: the table's
    whispers have streams of their own)."""
    if not whispers:
        return True
    if to is None:
        return line.to is None
    return line.to is not None and {line.seat, line.to} == {seat, to}


def free_draws(table: Table, seat: str = "", to: str | None = None) -> int:
    """How many free dice the stream of a roll from ``seat`` to ``to`` has drawn (the index of its next draw)."""
    whispers = bool(table.salt_hex)
    return sum(
        len(as_list(as_object(line.body["roll"])["dice"]))
        for line in table.chat
        if line.kind == ROLL and same_stream(line, seat, to, whispers)
    )


def free_roll(table: Table, notation: str, seat: str = "", to: str | None = None) -> JsonObject:
    """The body of a free roll of ``notation`` from ``seat`` to ``to``: its roll from its stream (the seed's free
    stream, or its pair's whisper stream), the index of its first draw on that stream and, for a whisper, the
    SHA-256 of its pair's key (``commitment``)."""
    try:
        expr = parse(notation)
    except NotationError as exc:
        raise Refusal("bad_notation", str(exc), UNPROCESSABLE) from None
    dice = sum(g.count for g in expr.groups) + expr.bonus + expr.penalty
    if dice > MAX_FREE_DICE:
        raise Refusal("too_many_dice", f"A free roll throws at most {MAX_FREE_DICE} dice.", UNPROCESSABLE)
    first = free_draws(table, seat, to)
    key = pair_key(table, seat, to)
    if key is None:
        rng = VerifiableRNG(bytes.fromhex(table.seed_hex), first, stream=FREE_STREAM)
    else:
        rng = VerifiableRNG(key, first, stream=WHISPER_STREAM)
    roll = roll_expr(rng, expr)
    body: JsonObject = {"notation": roll.notation, "roll": roll.to_dict(), "first": first}
    if key is not None:
        body["commitment"] = hashlib.sha256(key).hexdigest()
    return body


def free_rolls(table: Table, seat: SeatInfo) -> list[JsonObject]:
    """The free rolls ``seat`` may read (the public ones and its whispers), for its full log after the end, numbered
    as the seat reads them: ``affray verify`` re-derives a public roll's dice from the seed's free stream, a
    whispered one's from its pair's key, given here (``key``) to the two seats of the pair only."""
    out: list[JsonObject] = []
    n = 0
    for line in table.chat:
        if not may_read(line, seat.name):
            continue
        if line.kind == ROLL:
            entry: JsonObject = {
                "n": n,
                "seat": line.seat,
                "to": line.to,
                "notation": line.body["notation"],
                "roll": line.body["roll"],
            }
            key = pair_key(table, line.seat, line.to)
            if key is not None:
                entry.update(key=key.hex(), commitment=line.body.get("commitment"))
            out.append(entry)
        n += 1
    return out


def post(
    ledger: Ledger,
    table: Table,
    seat: SeatInfo,
    to: str | None,
    *,
    text: str | None = None,
    notation: str | None = None,
) -> JsonObject:
    """Add a chat line (``text``) or a free roll (``notation``) from ``seat`` to ``to``; the answer is the line as
    the sender reads it. Every seat that may read it hears it (a push)."""
    with table.lock:
        target = addressee(table, seat, to)
        said = checked_text(text) if text is not None else None
        for _ in range(RETRIES):
            if said is not None:
                line = ChatLine(len(table.chat), seat.name, target, CHAT, {"text": said}, time.time())
            else:
                line = ChatLine(
                    len(table.chat),
                    seat.name,
                    target,
                    ROLL,
                    free_roll(table, notation or "", seat.name, target),
                    time.time(),
                )
            if ledger.guard(lambda: ledger.store.add_chat(table.id, line)):  # noqa: B023
                table.chat.append(line)
                break
            catch_up(ledger.store, table)  # another process numbered a line first: number anew
        else:
            raise Refusal("busy", "The chat is busy; send it again.", UNAVAILABLE)
        answer = line_json(table, line, read_before(table, seat.name, len(table.chat) - 1))
    ledger.announce(table)
    return answer


def catch_up(store: Store, table: Table) -> None:
    """Add the lines other processes stored since the table's last one (under ``table.lock``)."""
    table.chat.extend(store.chat(table.id, since_n=len(table.chat)))


RETRIES = 5
