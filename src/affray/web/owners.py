"""What the server keeps for a GM (docs/table.md, "Building a fight"): the fights built on the Build-a-fight page and
the tables the GM opened, listed in the lobby to open again, copy or delete.

Routes: ``GET/POST /api/fights``, ``GET/DELETE /api/fights/ID``; ``GET/POST /api/owned/tables`` and
``DELETE /api/owned/tables/ID``.

The owner is whoever holds a secret: the server's creation key when it has one (header ``X-Create-Key``: everyone
who may open tables there shares one list), else an owner secret the GM's browser makes and keeps (header
``X-Owner-Key``, 22 to 128 characters). The store names an owner by a digest of the secret only, and keeps an owned
table's GM token sealed with a key derived from it (HMAC-SHA256 keystream and tag): the list gives the GM link back
to the secret's holder and to nobody else, and a copy of the database alone opens no GM seat. Every route passes the
gate of the creation endpoints first (:meth:`affray.web.app.Api.creating`: a rate limit per address, the key).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from fastapi import APIRouter, Request
from pydantic import Field

from affray.core.json import JsonObject
from affray.core.plugin import plugin_names
from affray.core.rng import new_secret_seed
from affray.store import new_table_id
from affray.store.owned import MOST_FIGHTS, MOST_TABLES, Fight, OwnedTable, TooMany
from affray.table.errors import CONFLICT, NOT_FOUND, UNAUTHORIZED, UNPROCESSABLE, Refusal
from affray.table.opening import link_for
from affray.web.models import Body
from affray.web.text import JsonRoute

if TYPE_CHECKING:
    from affray.web.app import Api

T = TypeVar("T")

OWNER_HEADER = "x-owner-key"
OWNER_SECRET = re.compile(r"^[A-Za-z0-9_-]{22,128}$")
FIGHT_ID = r"^[A-Za-z0-9_-]{1,32}$"
NONCE = 16
TAG = 16


class FightBody(Body):
    """``POST /api/fights``: a fight to keep (no ``id``: a new one; an ``id``: in place of that one)."""

    id: str | None = Field(default=None, pattern=FIGHT_ID)
    title: str = Field(min_length=1, max_length=200)
    ruleset: str = Field(min_length=1, max_length=32)
    body: dict[str, object] = Field(description="the builder's fight: its scenario YAML and the page's choices")


class OwnTableBody(Body):
    """``POST /api/owned/tables``: keep a table for its owner; ``token`` is the table's GM token."""

    table: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=128)


def owner_secret(request: Request) -> str:
    """The caller's owner secret: the creation key on a server that has one, else the ``X-Owner-Key`` header."""
    api: Api = request.app.state.api
    if api.create_key is not None:
        return str(api.create_key)
    secret = request.headers.get(OWNER_HEADER, "")
    if not OWNER_SECRET.match(secret):
        raise Refusal(
            "no_owner",
            "Saved fights and tables belong to an owner: send the owner secret this browser keeps (header "
            "X-Owner-Key, 22 to 128 letters, digits, '-' or '_').",
            UNAUTHORIZED,
        )
    return secret


def owner_of(secret: str) -> str:
    """The name the store knows an owner by: a digest of the secret, never the secret."""
    return hashlib.sha256(b"affray-owner\0" + secret.encode()).hexdigest()


def _key(secret: str) -> bytes:
    return hashlib.sha256(b"affray-seal\0" + secret.encode()).digest()


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (hmac.new(key, nonce + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(size // 32 + 1))
    return b"".join(blocks)[:size]


def seal(secret: str, token: str) -> str:
    """``token`` sealed with the owner's ``secret``: only :func:`unseal` with the same secret reads it."""
    key, nonce, data = _key(secret), new_secret_seed()[:NONCE], token.encode()
    body = bytes(a ^ b for a, b in zip(data, _stream(key, nonce, len(data)), strict=True))
    tag = hmac.new(key, b"tag" + nonce + body, hashlib.sha256).digest()[:TAG]
    return base64.urlsafe_b64encode(nonce + body + tag).decode()


def unseal(secret: str, sealed: str) -> str | None:
    """The token :func:`seal` sealed with ``secret``; None for another secret or a damaged value."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode())
    except ValueError:
        return None
    key, nonce, body, tag = _key(secret), raw[:NONCE], raw[NONCE:-TAG], raw[-TAG:]
    if len(raw) <= NONCE + TAG or not hmac.compare_digest(
        tag, hmac.new(key, b"tag" + nonce + body, hashlib.sha256).digest()[:TAG]
    ):
        return None
    return bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)), strict=True)).decode(errors="replace")


def _listed(fight: Fight) -> JsonObject:
    return {
        "id": fight.id,
        "title": fight.title,
        "ruleset": fight.ruleset,
        "created_at": fight.created_at,
        "updated_at": fight.updated_at,
    }


def _table(secret: str, table: OwnedTable) -> JsonObject:
    token = unseal(secret, table.sealed)
    return {
        "id": table.table_id,
        "title": table.title,
        "ruleset": table.ruleset,
        "created_at": table.created_at,
        "ended_at": table.ended_at,
        "over": table.ended_at is not None,
        "gm_link": None if token is None else link_for(table.table_id, token),
    }


def owners_router() -> APIRouter:
    """The saved fights' and owned tables' routes (see the module docstring)."""
    router = APIRouter(prefix="/api", tags=["owner"], route_class=JsonRoute)

    def gate(request: Request) -> tuple[Api, str]:
        api: Api = request.app.state.api
        if api.create_key is not None and not request.headers.get("x-create-key"):
            # Asked without a key (a lobby that holds none yet): no failed login is counted for it.
            raise Refusal("key_needed", "Your saved fights and tables are listed once you give the creation key.", 401)
        api.creating(request, api.check_limiter)
        return api, owner_secret(request)

    def guarded(api: Api, call: Callable[[], T]) -> T:
        try:
            return api.service.ledger.guard(call)
        except TooMany as exc:
            raise Refusal("too_many", str(exc), CONFLICT) from None

    @router.get("/fights", response_model=None)
    def list_fights(request: Request) -> JsonObject:
        """The caller's saved fights (id, title, ruleset, times), the most recently saved first, and the bound."""
        api, secret = gate(request)
        found = guarded(api, lambda: api.service.store.fights(owner_of(secret)))
        return {"fights": [_listed(f) for f in found], "most": MOST_FIGHTS}

    @router.get("/fights/{fight_id}", response_model=None)
    def get_fight(fight_id: str, request: Request) -> JsonObject:
        """One of the caller's fights with its body; 404 for any other id (another owner's too)."""
        api, secret = gate(request)
        found = guarded(api, lambda: api.service.store.fight(owner_of(secret), fight_id))
        if found is None:
            raise Refusal("unknown_fight", "You have no saved fight with this id.", NOT_FOUND)
        return {**_listed(found), "body": found.body}

    @router.post("/fights", status_code=201, response_model=None)
    def save_fight(body: FightBody, request: Request) -> JsonObject:
        """Save a fight: a new one, or in place of the caller's fight ``id``; 409 ``too_many`` past the bound."""
        api, secret = gate(request)
        if body.ruleset not in plugin_names():
            raise Refusal(
                "unknown_ruleset",
                f"There is no ruleset '{body.ruleset}' here (there are {', '.join(plugin_names())}).",
                UNPROCESSABLE,
            )
        fight_id, kept = body.id or new_table_id(), cast(JsonObject, body.body)
        saved = guarded(
            api, lambda: api.service.store.put_fight(owner_of(secret), fight_id, body.title, body.ruleset, kept)
        )
        return _listed(saved)

    @router.delete("/fights/{fight_id}", response_model=None)
    def delete_fight(fight_id: str, request: Request) -> JsonObject:
        api, secret = gate(request)
        if not guarded(api, lambda: api.service.store.delete_fight(owner_of(secret), fight_id)):
            raise Refusal("unknown_fight", "You have no saved fight with this id.", NOT_FOUND)
        return {"deleted": fight_id}

    @router.get("/owned/tables", response_model=None)
    def list_tables(request: Request) -> JsonObject:
        """The caller's tables, the newest first, each with its GM link (the caller's only) and whether it ended."""
        api, secret = gate(request)
        found = guarded(api, lambda: api.service.store.owned_tables(owner_of(secret)))
        return {"tables": [_table(secret, t) for t in found], "most": MOST_TABLES}

    @router.post("/owned/tables", status_code=201, response_model=None)
    def own_table(body: OwnTableBody, request: Request) -> JsonObject:
        """Keep a table on the caller's list; ``token`` must be its GM token (401 otherwise)."""
        api, secret = gate(request)
        _, seat = api.seat(body.table, body.token)
        if seat.role != "gm":
            raise Refusal("not_gm", "Only the table's GM link keeps a table on your list.", UNAUTHORIZED)
        sealed = seal(secret, body.token)
        guarded(api, lambda: api.service.store.own_table(owner_of(secret), body.table, sealed))
        return {"kept": body.table}

    @router.delete("/owned/tables/{table_id}", response_model=None)
    def disown_table(table_id: str, request: Request) -> JsonObject:
        """Take a table off the caller's list (the table goes on; its links still work)."""
        api, secret = gate(request)
        if not guarded(api, lambda: api.service.store.disown_table(owner_of(secret), table_id)):
            raise Refusal("unknown_table", "There is no table with this id on your list.", NOT_FOUND)
        return {"removed": table_id}

    return router
