"""A table's chat and free rolls: lines every seat can read, whispers only their sender and addressee read, and dice
rolled outside the fight that anyone can check at the end.

- A chat line is ``{"text", "to"}``: ``to`` is ``None`` (everyone), ``"gm"`` or a seat's name (a whisper). Its text is
  at most :data:`MAX_TEXT` characters of printable text (control characters refused), stored as written; every
  page escapes it when it shows it.
- A free roll is ``{"notation", "to"}`` in the notation of ``affray roll``, at most :data:`MAX_FREE_DICE` dice. Its
  dice come from the table's secret seed on their own stream (:data:`affray.core.rng.FREE_STREAM`): the i-th free
  draw of a dN is derived like a fight die with the message ``free:i:attempt`` instead of ``i:attempt``, so free
  rolls never change the fight's dice, and once the seed is revealed every seat re-derives the rolls it saw.
- Lines live in the store with the table (:meth:`affray.store.Store.add_chat`) and come back after a restart; the
  store's unique (table, n) numbers racing lines (and gives a roll its draws) once, across processes.

A seat reads the lines it may see (:func:`visible`); the spectator may read and write public lines and whisper to
the GM. Nothing here is a record of the fight: chat neither changes the version nor enters the hash chain.
"""

from __future__ import annotations

import time
import unicodedata
from typing import TYPE_CHECKING

from affray.core.engine import GM
from affray.core.json import JsonObject, as_list, as_object
from affray.core.notation import NotationError, parse, roll_expr
from affray.core.rng import FREE_STREAM, VerifiableRNG
from affray.store import ChatLine, Store
from affray.table.errors import UNAVAILABLE, UNPROCESSABLE, Refusal
from affray.table.live import SeatInfo, Table

if TYPE_CHECKING:
    from affray.table.service import TableService

MAX_TEXT = 500
MAX_FREE_DICE = 100
CHAT, ROLL = "chat", "roll"


def may_read(line: ChatLine, seat: str) -> bool:
    """Whether ``seat`` may read ``line``: a public line, or a whisper it sent or that is addressed to it."""
    return line.to is None or line.seat == seat or line.to == seat


def visible(table: Table, seat: SeatInfo, since: int = 0) -> list[JsonObject]:
    """The chat lines ``seat`` may read, from line ``since`` on, as the page and the API show them."""
    return [line_json(table, line) for line in table.chat[since:] if may_read(line, seat.name)]


def line_json(table: Table, line: ChatLine) -> JsonObject:
    out: JsonObject = {"n": line.n, "at": line.at, "seat": line.seat, "from": speaker(table, line.seat),
                           "to": line.to, "kind": line.kind, **line.body}
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


def free_draws(table: Table) -> int:
    """How many free dice the table has drawn (the index of the next free draw)."""
    return sum(len(as_list(as_object(line.body["roll"])["dice"])) for line in table.chat if line.kind == ROLL)


def free_roll(table: Table, notation: str) -> JsonObject:
    """The body of a free roll of ``notation``: its roll from the free stream and the index of its first draw."""
    try:
        expr = parse(notation)
    except NotationError as exc:
        raise Refusal("bad_notation", str(exc), UNPROCESSABLE) from None
    dice = sum(g.count for g in expr.groups) + expr.bonus + expr.penalty
    if dice > MAX_FREE_DICE:
        raise Refusal("too_many_dice", f"A free roll throws at most {MAX_FREE_DICE} dice.", UNPROCESSABLE)
    first = free_draws(table)
    rng = VerifiableRNG(bytes.fromhex(table.seed_hex), first, salts=table.match.salts, stream=FREE_STREAM)
    roll = roll_expr(rng, expr)
    return {"notation": roll.notation, "roll": roll.to_dict(), "first": first}


def free_rolls(table: Table, seat: SeatInfo) -> list[JsonObject]:
    """The free rolls ``seat`` may read (the public ones and its whispers), for its full log after the end:
    ``affray verify`` re-derives their dice from the seed's free stream."""
    return [{"n": line.n, "seat": line.seat, "notation": line.body["notation"], "roll": line.body["roll"]}
            for line in table.chat if line.kind == ROLL and may_read(line, seat.name)]


def post(service: TableService, table: Table, seat: SeatInfo, to: str | None, *, text: str | None = None,
         notation: str | None = None) -> JsonObject:
    """Add a chat line (``text``) or a free roll (``notation``) from ``seat`` to ``to``; the answer is the line as
    the sender reads it. Every seat that may read it hears it (a push)."""
    with table.lock:
        target = addressee(table, seat, to)
        said = checked_text(text) if text is not None else None
        for _ in range(RETRIES):
            if said is not None:
                line = ChatLine(len(table.chat), seat.name, target, CHAT, {"text": said}, time.time())
            else:
                line = ChatLine(len(table.chat), seat.name, target, ROLL, free_roll(table, notation or ""),
                                time.time())
            if service._guard(lambda: service.store.add_chat(table.id, line)):  # noqa: B023
                table.chat.append(line)
                break
            catch_up(service.store, table)  # another process numbered a line first: number anew
        else:
            raise Refusal("busy", "The chat is busy; send it again.", UNAVAILABLE)
        answer = line_json(table, line)
    service.announce(table)
    return answer


def catch_up(store: Store, table: Table) -> None:
    """Add the lines other processes stored since the table's last one (under ``table.lock``)."""
    table.chat.extend(store.chat(table.id, since_n=len(table.chat)))


RETRIES = 5
