"""The in-world protocol's routes (docs/table.md, "The in-world protocol"; the answer: :mod:`affray.table.inworld`;
the claim codes: :mod:`affray.table.inworld_codes`):

- ``POST /api/tables/ID/gm/seats/SEAT/code``: the GM's code for a seat (new or renewed);
- ``POST /api/inworld/claim`` ``{"code"}``: the seat's new token, its table and actors;
- ``GET /api/inworld/ID?l=&c=&at=&wait=``: the compact answer, after waiting up to ``wait`` seconds (at most 25)
  for a new record or chat line past the cursors;
- ``POST /api/inworld/ID/act`` ``{"choice", "version", "id", "text"}``: take a choice, idempotent by ``id``.

The last three answer under :data:`PREFIXES` alike, one handler each: ``/api/inworld/`` (the generic name) and
``/api/hud/`` (the name the Second Life script speaks, ``POST /api/hud/claim``: there the word names the display a
player wears, not a ruleset; tests/test_layers.py lets this prefix, and no other use of the word, through).

Second Life sends a body as ``text/plain`` unless told otherwise: these routes read their body as JSON whatever its
type. Every display of a region reaches the server from that region's one address, so claim failures are counted
per owner key (``X-SecondLife-Owner-Key``, an ordinary header that authenticates nothing) with a far larger bucket
per address behind it: one avatar's typos never lock out the region's other displays, and a guesser changing the
header is still slowed by its address. Acting and reading are limited per seat, as every seat's requests are.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field, ValidationError

from affray.core.json import JsonObject
from affray.table import Refusal, SeatInfo, Table, inworld, inworld_codes
from affray.table.errors import CONFLICT
from affray.table.messages import read_before
from affray.web.limits import RateLimiter
from affray.web.logins import address_keys, client_address
from affray.web.models import SUBMISSION_ID, Body
from affray.web.text import JsonRoute

if TYPE_CHECKING:
    from affray.web.app import Api

#: A route's handler, as the router takes it (FastAPI reads its signature).
Handler = Callable[..., Awaitable[JsonObject]]

WAIT_MAX = 25.0  # seconds: well before Second Life's 60 s (status 499)
OWNER_FAILURES = (5.0, 5 / 60)  # wrong codes per owner key: 5 at once, then 5 a minute
ADDRESS_FAILURES = (100.0, 1.0)  # per address (a region's displays share one): 100 at once, then one a second
OWNER_HEADER = "x-secondlife-owner-key"
#: Where the display's routes answer: the generic name, and the heads-up display's own (see the module docstring).
PREFIXES = ("/api/inworld/", "/api/hud/")


class ClaimBody(Body):
    code: str = Field(min_length=1, max_length=32)


class ActBody(Body):
    choice: str = Field(min_length=1, max_length=32, pattern=r"^[0-9.]+$")
    version: int = Field(ge=0)
    id: str = Field(pattern=SUBMISSION_ID)
    text: str | None = Field(default=None, max_length=2000)


class ClaimFailures:
    """Wrong claim codes, counted per owner key and, far more loosely, per address (see the module docstring)."""

    def __init__(self) -> None:
        self.per_owner = RateLimiter(rate=OWNER_FAILURES[1], burst=OWNER_FAILURES[0])
        self.per_address = RateLimiter(rate=ADDRESS_FAILURES[1], burst=ADDRESS_FAILURES[0])

    def keys(self, request: Request) -> tuple[str, str]:
        host = address_keys(client_address())[0]
        owner = request.headers.get(OWNER_HEADER, "").strip()[:64]
        return (f"owner:{owner}" if owner else f"owner-of:{host}"), host

    def check(self, request: Request) -> None:
        owner, host = self.keys(request)
        if not self.per_owner.peek(owner) or not self.per_address.peek(host):
            raise Refusal("too_many_failures", "Too many wrong codes; wait a minute, then type the code again.", 429)

    def failed(self, request: Request) -> None:
        owner, host = self.keys(request)
        self.per_owner.allow(owner)
        self.per_address.allow(host)


async def read_body(request: Request, model: type[Body]) -> Any:
    """The body as ``model``, whatever its content type (Second Life's default is ``text/plain``)."""
    raw = await request.body()
    try:
        data = json.loads(raw.decode("utf-8") or "null")
        return model.model_validate(data)
    except (ValueError, ValidationError) as exc:
        fields = ", ".join(str(f) for f in model.model_fields)
        detail = exc.errors()[0].get("msg", "") if isinstance(exc, ValidationError) else "not JSON"
        raise Refusal("bad_request", f"The body must be a JSON object with {fields} ({detail}).", 422) from None


def inworld_router(api: Api) -> APIRouter:
    router = APIRouter(tags=["in-world"], route_class=JsonRoute)
    failures = ClaimFailures()

    def under_each_prefix(method: str, tail: str) -> Callable[[Handler], Handler]:
        """Register the handler under every one of :data:`PREFIXES` + ``tail``: one handler, aliased routes."""

        def register(handler: Handler) -> Handler:
            for prefix in PREFIXES:
                router.add_api_route(prefix + tail, handler, methods=[method], response_model=None)
            return handler

        return register

    @router.post("/api/tables/{table_id}/gm/seats/{seat_name}/code", response_model=None)
    def new_code(table_id: str, seat_name: str, request: Request) -> JsonObject:
        """The GM's code for a player's seat: 8 signs, once, for 15 minutes; a new one replaces the older."""
        table, seat = api.seat(table_id, _bearer(request))
        return inworld_codes.issue(api.service.ledger, table, seat, seat_name)

    @under_each_prefix("POST", "claim")
    async def claim(request: Request) -> JsonObject:
        """Spend a seat's code: the seat's new token (its older link stops working), the table and the actors."""
        body: ClaimBody = await read_body(request, ClaimBody)
        failures.check(request)
        try:
            code = inworld_codes.normalise(body.code)
            return await run_in_threadpool(_claim, api, code)
        except Refusal as exc:
            if exc.code in ("bad_code", "code_expired"):
                failures.failed(request)
            raise

    @under_each_prefix("GET", "{table_id}")
    async def read(
        request: Request,
        table_id: str,
        l: Annotated[int, Query(ge=0, description="the log's next record (the last answer's l)")] = 0,  # noqa: E741
        c: Annotated[int, Query(ge=0, description="the next chat line in the seat's count (the last answer's c)")] = 0,
        at: Annotated[str, Query(max_length=40, pattern=r"^@?[0-9.]*(/[0-9]+)?$")] = "",
        wait: Annotated[float, Query(ge=0, le=WAIT_MAX)] = 0.0,
    ) -> JsonObject:
        """The compact answer (:mod:`affray.table.inworld`): at most 2,048 bytes of UTF-8."""
        table, seat = await run_in_threadpool(api.seat, table_id, _bearer(request))
        if wait > 0:
            await _wait(api, table, seat, l, c, wait)
        return await run_in_threadpool(_answer, table, seat, l, c, at.lstrip("@"))

    @under_each_prefix("POST", "{table_id}/act")
    async def act(table_id: str, request: Request) -> JsonObject:
        """Take choice ``choice`` of the answer read at ``version``: ``{"v"}`` the new version. A retried ``id``
        answers as the first time; 409 when the table moved on (read again and choose anew)."""
        body: ActBody = await read_body(request, ActBody)
        table, seat = await run_in_threadpool(api.seat, table_id, _bearer(request))
        return await run_in_threadpool(_act, api, table, seat, body)

    return router


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _claim(api: Api, code: str) -> JsonObject:
    found = inworld_codes.find(api.service.ledger, api.service.registry, code)
    if found is None:
        raise Refusal("bad_code", "No seat waits for this code; check it, or ask the GM for a new one.", 404)
    table = api.service.table(found[0])
    return inworld_codes.claim(api.service.ledger, table, found[1], code)


def _answer(table: Table, seat: SeatInfo, log_since: int, chat_since: int, at: str) -> JsonObject:
    with table.lock:
        return inworld.answer(table, seat, log_since, chat_since, at)


def _act(api: Api, table: Table, seat: SeatInfo, body: ActBody) -> JsonObject:
    with table.lock:
        done = table.by_submission.get(f"{seat.name}/{body.id}")
        if done is not None:  # a retry: the first answer again (its record's seq, the version it made)
            return {"v": done + 1, "seq": done}
        if body.version != table.version:
            raise Refusal("stale_version", "The fight moved on; look again and choose anew.", CONFLICT)
        if table.outcome() is not None or table.paused:
            api.service.ledger.check_open(table)
        actor, action = inworld.resolve(table, seat, body.choice, body.text)
    answer = api.service.submit(table, seat, actor, action, body.version, body.id)
    return {"v": answer["version"], "seq": answer["seq"]}


async def _wait(api: Api, table: Table, seat: SeatInfo, log_since: int, chat_since: int, timeout: float) -> None:
    """Wait (bounded) until a record past ``log_since`` or a chat line the seat reads past ``chat_since`` is there,
    or the fight is over."""
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()

    def news() -> bool:
        with table.lock:
            return (
                len(table.match.records) > log_since
                or table.over
                or read_before(table, seat.name, len(table.chat)) > chat_since
            )

    unsubscribe = api.service.audience.subscribe(table.id, lambda: loop.call_soon_threadsafe(woken.set))
    try:
        if table.behind_store:
            await run_in_threadpool(api.service.keep_up, table)
        deadline = loop.time() + timeout
        while not news() and (left := deadline - loop.time()) > 0:
            woken.clear()
            try:
                await asyncio.wait_for(woken.wait(), left)
            except TimeoutError:
                break
    finally:
        unsubscribe()
