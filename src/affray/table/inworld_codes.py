"""Claim codes: how an in-world display (a Second Life heads-up display, docs/secondlife.md) takes a seat without a
link nobody types in a viewer (docs/table.md, "The in-world protocol").

The GM asks for a seat's code (:func:`issue`): 8 characters from an alphabet with no look-alikes (no 0/O, 1/I/L),
good for :data:`CODE_TTL` seconds and once; asking again renews it (the older code stops working). A code is kept
only as its SHA-256 in the table's config (``inworld_codes``: seat -> hash and expiry), so it survives a restart and
is never shown twice. Claiming it (:func:`claim`) gives the seat a new token, the display's (the seat's older link
stops working, as when the GM makes a new link), marks the seat as played in-world (``inworld_seats``) and spends
the code. Failures are bounded by the caller (the web layer: per owner key, never per address alone).
"""

from __future__ import annotations

import hashlib
import secrets
import time

from affray.core.json import Json, JsonObject
from affray.table.errors import NOT_FOUND, UNPROCESSABLE, Refusal
from affray.table.gm import require_gm
from affray.table.ledger import Ledger
from affray.table.registry import Registry
from affray.table.seats import SeatInfo
from affray.table.state import Table
from affray.table.tokens import new_token, token_hash

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 signs, none read as another (0/O, 1/I/L are out)
CODE_LENGTH = 8  # 31**8: about 8.5e11 codes, against a few failures a minute per owner
CODE_TTL = 900.0  # seconds a code stays good: time to walk to the viewer and type it
CODES, SEATS = "inworld_codes", "inworld_seats"  # the table config's keys


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def normalise(text: str) -> str:
    """A typed code as it was issued: upper case, spaces and dashes dropped; 422 ``bad_code`` for anything else."""
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(sign not in ALPHABET for sign in code):
        raise Refusal("bad_code", f"A seat's code is {CODE_LENGTH} letters and digits, as the GM's page shows it.")
    return code


def issue(ledger: Ledger, table: Table, seat: SeatInfo, target: str, now: float | None = None) -> JsonObject:
    """A new code for seat ``target`` (the GM's tool): ``{"seat", "code", "expires_at"}``; the seat's older code
    stops working. 422 ``policy_seat`` for a seat the server plays, 404 ``unknown_seat`` for no such seat."""
    require_gm(seat)
    now = time.time() if now is None else now
    with table.lock:
        victim = table.seats.get(target)
        if victim is None:
            raise Refusal("unknown_seat", f"This table has no seat '{target}'.", NOT_FOUND)
        if victim.token_hash is None or victim.role != "player":
            raise Refusal("policy_seat", f"Seat '{target}' is not a player's seat; it takes no code.", UNPROCESSABLE)
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        expires = round(now + CODE_TTL, 3)
        codes = _codes(table)
        codes[target] = {"hash": code_hash(code), "expires_at": expires}
        _set(ledger, table, {CODES: codes})
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "inworld_code", {"seat": target}))
    return {"seat": target, "code": code, "expires_at": expires}


def find(ledger: Ledger, registry: Registry, code: str) -> tuple[str, str] | None:
    """(table id, seat) of the open table whose config holds ``code`` (expired or not): the tables in memory first,
    then the store's open tables (a code issued before a restart, or by another process)."""
    hashed = code_hash(code)
    for table in registry.held():
        for seat, entry in _codes(table).items():
            if isinstance(entry, dict) and entry.get("hash") == hashed:
                return table.id, seat
    for row in ledger.guard(ledger.store.open_tables):
        codes = row.config.get(CODES)
        for seat, entry in (codes if isinstance(codes, dict) else {}).items():
            if isinstance(entry, dict) and entry.get("hash") == hashed:
                return row.id, seat
    return None


def claim(ledger: Ledger, table: Table, target: str, code: str, now: float | None = None) -> JsonObject:
    """Spend ``code`` for seat ``target`` of ``table``: ``{"table", "seat", "token", "actors"}`` with the seat's new
    token. 404 ``bad_code`` for a code spent, renewed or never issued; 410 ``code_expired`` past its time."""
    now = time.time() if now is None else now
    with table.lock:
        codes = _codes(table)
        entry = codes.get(target)
        victim = table.seats.get(target)
        if not isinstance(entry, dict) or entry.get("hash") != code_hash(code) or victim is None:
            raise _no_such_code()
        expires = entry.get("expires_at")
        if not isinstance(expires, int | float) or expires < now:
            raise Refusal("code_expired", "This code has expired; ask the GM for a new one.", 410)
        del codes[target]
        token = new_token()
        ledger.guard(lambda: ledger.store.replace_token(table.id, target, token_hash(token)))
        victim.token_hash = token_hash(token)
        played = sorted({*_seats(table), target})
        _set(ledger, table, {CODES: codes, SEATS: list[Json](played)})
        ledger.guard(lambda: ledger.store.audit(table.id, None, "inworld_claim", {"seat": target}))
    ledger.announce(table)
    return {"table": table.id, "seat": target, "token": token, "actors": list(victim.actors)}


def played_inworld(table: Table) -> list[str]:
    """The seats an in-world display claimed (sorted): the first of them says the lines no such seat made."""
    return _seats(table)


def _no_such_code() -> Refusal:
    return Refusal("bad_code", "No seat waits for this code; check it, or ask the GM for a new one.", NOT_FOUND)


def _codes(table: Table) -> dict[str, Json]:
    codes = table.config.get(CODES)
    return dict(codes) if isinstance(codes, dict) else {}


def _seats(table: Table) -> list[str]:
    seats = table.config.get(SEATS)
    return sorted(s for s in seats if isinstance(s, str)) if isinstance(seats, list) else []


def _set(ledger: Ledger, table: Table, changes: JsonObject) -> None:
    config = ledger.guard(lambda: ledger.store.set_config(table.id, changes))
    table.config = dict(config or table.config)
