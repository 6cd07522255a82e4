"""The HTTP API of the table server (docs/table.md, 'The API'): ``create_app(service)`` builds the FastAPI app.

Routes (OpenAPI at ``/docs``; the pages and the lobby's endpoints: :mod:`affray.web.pages`):
``POST /api/tables``; ``GET /api/tables/ID`` (``?since=V`` long-polls,
``?compact=1`` answers short text); ``POST .../actions``; ``POST .../take_back``; ``POST .../chat`` and
``POST .../roll`` (chat lines and free rolls); GM tools under ``.../gm/`` (rulings: ``POST .../gm/adjust``);
``GET .../log``; ``WS .../ws`` (:mod:`affray.web.ws`). The token travels as ``Authorization: Bearer TOKEN``.
Every refusal is ``{"code", "message"}`` with a 4xx status (:mod:`affray.web.errors`).
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse

from affray.core.json import JsonObject
from affray.table import Refusal, SeatInfo, Table, TableService, budget, compact_text, gm, token_hash
from affray.table.budget import CpuBudget
from affray.table.chat import post as post_line
from affray.table.messages import Answer
from affray.table.opening import Created
from affray.web import errors
from affray.web.bounds import FIRST_MESSAGE
from affray.web.headers import SecurityHeaders
from affray.web.limits import DEFAULT_BODY_LIMIT, ASGIApp, BodyLimit, RateLimiter, Receive, Scope, Send
from affray.web.logins import ClientAddress, FailedLogins, address_keys, client_address, well_formed
from affray.web.metrics import Metrics, metrics_router
from affray.web.models import (
    ActionBody,
    AdjustBody,
    ChatBody,
    NewTableBody,
    RewindBody,
    RollBody,
    TakeBackBody,
    TimerBody,
)
from affray.web.text import JsonRoute, SafeJSONResponse, TextCheck

LONG_POLL_MAX = 30.0
CHAT_RATE, CHAT_BURST = 0.5, 6.0  # chat lines and free rolls per second per seat, and at once
CHECK_RATE, CHECK_BURST = 5.0, 20.0  # scenario checks per second per address, and at once (a page checks as one types)
#: Headers a proxy adds: a request that carries one came from elsewhere, whatever the socket's peer.
FORWARDING = (b"x-forwarded-for", b"forwarded", b"x-real-ip")
KEY_NEEDED = (
    "This server opens tables without a creation key only for its own machine; this request came through a "
    "proxy. Start the server with --create-key (or --open-creation) to open tables from elsewhere."
)


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class Api:
    """What the routes share: the service, the limits and the creation key."""

    def __init__(
        self,
        service: TableService,
        create_key: str | None,
        limiter: RateLimiter,
        logins: FailedLogins | None = None,
        chat_limiter: RateLimiter | None = None,
        first_message: float = FIRST_MESSAGE,
        open_creation: bool = False,
        check_limiter: RateLimiter | None = None,
    ) -> None:
        self.service, self.create_key, self.limiter = service, create_key, limiter
        self.open_creation = open_creation  # no key, and anyone may create (affray serve --open-creation)
        self.first_message = first_message  # seconds a WebSocket has to send its token (web/ws.py)
        self.logins = logins or FailedLogins()
        self.chat_limiter = chat_limiter or RateLimiter(rate=CHAT_RATE, burst=CHAT_BURST)
        self.check_limiter = check_limiter or RateLimiter(rate=CHECK_RATE, burst=CHECK_BURST)

    def creating(self, request: Request, limiter: RateLimiter | None = None) -> None:
        """The gate of every endpoint that costs the server CPU or storage for someone without a seat: opening a
        table, checking a scenario (and any such endpoint to come: a builder's odds, uploaded images, saved fights).
        Rate-limited per address (``limiter``: the table opening's by default); then the creation key (header
        ``X-Create-Key``), a wrong one counted as a failed login of the caller (:mod:`affray.web.logins`); a server
        without a key, unless it runs with ``--open-creation``, serves only its own machine: a request a proxy
        forwarded (it carries ``X-Forwarded-For``, ``Forwarded`` or ``X-Real-IP``) is 403 ``create_key_needed``."""
        address = client_address()
        if limiter is None:
            self.limit(f"create:{address}")
        elif not limiter.allow(address_keys(address)[0]):
            raise Refusal("rate_limited", "Too many requests; slow down a little.", 429)
        if self.create_key is not None:
            try:
                self.logins.check(address)
            except Refusal:
                raise Refusal(
                    "too_many_failures", "Too many wrong creation keys from your address; wait a minute.", 429
                ) from None
            given = request.headers.get("x-create-key", "")
            if not hmac.compare_digest(given.encode(), self.create_key.encode()):
                self.logins.failed(address)
                raise Refusal(
                    "bad_create_key",
                    "This server opens tables only with its creation key (header "
                    "X-Create-Key; the lobby asks for it once).",
                    401,
                )
        elif not self.open_creation and any(name in FORWARDING for name, _ in request.scope["headers"]):
            raise Refusal("create_key_needed", KEY_NEEDED, 403)

    def limit(self, key: str) -> None:
        if not self.limiter.allow(key):
            raise Refusal("rate_limited", "Too many requests; slow down a little.", 429)

    def limit_chat(self, seat: SeatInfo) -> None:
        """Chat and free rolls: a few lines at once, then one every two seconds per seat."""
        if not self.chat_limiter.allow(f"{seat.token_hash}:{seat.name}"):
            raise Refusal("rate_limited", "You are sending chat faster than the table can read it; wait a moment.", 429)

    def seat(self, table_id: str, token: str | None) -> tuple[Table, SeatInfo]:
        """Authenticate, rate-limited per token. A token of a seat of a table this process holds goes straight
        through, checked in memory; any other is first held to the failed-login limits of the caller's address and
        network, and a 401 counts against them, never against the table (:mod:`affray.web.logins`)."""
        held = self.service.seat_in_memory(table_id, token) if token and well_formed(token) else None
        if held is not None and token is not None:
            self.limit(token_hash(token))
            return held
        address = client_address()
        self.logins.check(address)
        try:
            if token is not None and not well_formed(token):
                raise Refusal("bad_token", "This token does not open a seat at this table.", 401)
            self.limit(token_hash(token) if token else f"anonymous:{table_id}")
            return self.service.authenticate(table_id, token)
        except Refusal as exc:
            if exc.status == 401:
                self.logins.failed(address)
            raise


def create_app(
    service: TableService,
    *,
    create_key: str | None = None,
    body_limit: int = DEFAULT_BODY_LIMIT,
    limiter: RateLimiter | None = None,
    logins: FailedLogins | None = None,
    connections: Callable[[], int] | None = None,
    chat_limiter: RateLimiter | None = None,
    first_message: float = FIRST_MESSAGE,
    open_creation: bool = False,
    cpu_budget: CpuBudget | None = None,
    check_limiter: RateLimiter | None = None,
) -> FastAPI:
    """The API over ``service``. ``create_key``: required (header ``X-Create-Key``) to open tables and check
    scenarios; without one, ``open_creation`` lets a request through a proxy open them too (:meth:`Api.creating`);
    ``logins``: the failed-login limits (:mod:`affray.web.logins`); ``connections``: how many are open, for
    ``/metrics`` (:mod:`affray.web.metrics`, which becomes the service's hooks); ``chat_limiter``: chat lines and free
    rolls per seat; ``first_message``: seconds a WebSocket has to send its token when its address carries none;
    ``cpu_budget``: the CPU the server's policies may spend, per address and in all (:mod:`affray.table.budget`);
    ``check_limiter``: scenario checks per address."""
    app = FastAPI(
        title="affray table server",
        version="1",
        description="Live tables: seats, views, actions.",
        default_response_class=SafeJSONResponse,
    )
    api = Api(
        service, create_key, limiter or RateLimiter(), logins, chat_limiter, first_message, open_creation, check_limiter
    )
    errors.install(app)
    app.include_router(_tables(api))
    app.include_router(_gm(api))
    from affray.web.building import building_router

    app.include_router(building_router(api))  # the content library, the odds, the map image
    from affray.web.ws import ws_router

    app.include_router(ws_router(api))
    # -- the in-world protocol's routes, claim codes among them (docs/table.md, "The in-world protocol") --
    from affray.web.inworld import inworld_router

    app.include_router(inworld_router(api))
    metrics = Metrics(service, connections)
    service.hooks = metrics
    app.include_router(metrics_router(metrics))
    app.add_middleware(TextCheck)  # inside BodyLimit (the last added runs first), which bounds what it reads
    app.add_middleware(BodyLimit, limit=body_limit)
    app.add_middleware(Paying, budget=cpu_budget or CpuBudget())  # inside ClientAddress, whose address it reads
    app.add_middleware(ClientAddress)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, the middlewares' own refusals included

    from affray.web import pages

    pages.install(app, service.examples_dir)
    app.state.api, app.state.metrics = api, metrics
    return app


class Paying:
    """Tables opened or rebuilt while a request or WebSocket is served are charged to its client's address (an IPv6
    host: its /64) in the server's CPU budget (:mod:`affray.table.budget`)."""

    def __init__(self, app: ASGIApp, budget: CpuBudget) -> None:
        self.app, self.budget = app, budget

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        marker = budget.paying(self.budget, address_keys(client_address())[0])
        try:
            await self.app(scope, receive, send)
        finally:
            budget.reset(marker)


def _tables(api: Api) -> APIRouter:
    router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=JsonRoute)

    @router.post("", status_code=201, response_model=None)
    def new_table(body: NewTableBody, request: Request) -> Created:
        """Open a table; the answer holds the GM's and every seat's token and link (shown only once). Needs the
        server's creation key (:meth:`Api.creating`); a table whose combatants the server plays counts against the
        CPU budget of the caller's address (429 ``cpu_budget_spent``: :mod:`affray.table.budget`)."""
        api.creating(request)
        return api.service.create(body.scenario, body.options, body.controllers, body.seed, body.spectator, body.seats)

    @router.get("/{table_id}", response_model=None)
    async def table_state(
        request: Request,
        table_id: str,
        since: Annotated[int | None, Query(ge=0, description="wait until the version passes it")] = None,
        timeout: Annotated[float, Query(gt=0, le=LONG_POLL_MAX)] = 25.0,
        compact: Annotated[int, Query(ge=0, le=1)] = 0,
    ) -> JsonObject | PlainTextResponse:
        """The caller's seat: version, view, legal actions (when due), redacted log, commitment, chain, outcome,
        seed (null until the end). ``since`` waits up to ``timeout`` seconds for a newer version and then sends
        the log from ``since`` on."""
        table, seat = await run_in_threadpool(api.seat, table_id, bearer(request))
        if since is not None and table.version <= since:
            await _wait(api.service, table, since, timeout)
        if compact:
            text = await run_in_threadpool(_compact, table, seat)
            return PlainTextResponse(text)
        return await run_in_threadpool(api.service.state, table, seat, since or 0)

    @router.post("/{table_id}/actions", response_model=None)
    def act(table_id: str, body: ActionBody, request: Request) -> Answer:
        """Take an action chosen at ``version``: 200 with the seat's events, 409 ``stale_version``, or 422 with
        the ruleset's code and sentence."""
        table, seat = api.seat(table_id, bearer(request))
        return api.service.submit(table, seat, body.actor, body.action, body.version, body.id)

    @router.post("/{table_id}/take_back", response_model=None)
    def take_back(table_id: str, body: TakeBackBody, request: Request) -> JsonObject:
        """Take back your own last action (refused once a die was rolled or a card turned since)."""
        table, seat = api.seat(table_id, bearer(request))
        return api.service.take_back(table, seat, body.version)

    @router.post("/{table_id}/chat", response_model=None)
    def chat(table_id: str, body: ChatBody, request: Request) -> JsonObject:
        """A chat line to everyone, the GM or one seat (a whisper: only its sender and addressee read it)."""
        table, seat = api.seat(table_id, bearer(request))
        api.limit_chat(seat)
        return post_line(api.service.ledger, table, seat, body.to, text=body.text)

    @router.post("/{table_id}/roll", response_model=None)
    def roll(table_id: str, body: RollBody, request: Request) -> JsonObject:
        """A free roll (``3d6+1``), from the table's seed on its own stream: checkable at the end, and never a die
        of the fight."""
        table, seat = api.seat(table_id, bearer(request))
        api.limit_chat(seat)
        return post_line(api.service.ledger, table, seat, body.to, notation=body.notation)

    @router.get("/{table_id}/log", response_model=None)
    def table_log(table_id: str, request: Request) -> JsonObject:
        """After the end: the full log (``affray verify`` reads it). Before: the caller's redacted log."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.exported(table, seat)

    return router


def _compact(table: Table, seat: SeatInfo) -> str:
    with table.lock:
        return compact_text(table, seat)


async def _wait(service: TableService, table: Table, since: int, timeout: float) -> None:
    """Wait (bounded) until the table's version passes ``since`` or the fight is over."""
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()
    unsubscribe = service.audience.subscribe(table.id, lambda: loop.call_soon_threadsafe(woken.set))
    try:
        if table.behind_store:  # a notice before the subscription found nobody hearing: catch up now
            await run_in_threadpool(service.keep_up, table)
        deadline = loop.time() + timeout
        while table.version <= since and not table.over and (left := deadline - loop.time()) > 0:
            woken.clear()
            try:
                await asyncio.wait_for(woken.wait(), left)
            except TimeoutError:
                break
    finally:
        unsubscribe()


def _gm(api: Api) -> APIRouter:
    router = APIRouter(prefix="/api/tables/{table_id}/gm", tags=["gm"], route_class=JsonRoute)

    @router.post("/take_back", response_model=None)
    def rewind(table_id: str, body: RewindBody, request: Request) -> JsonObject:
        """Take the fight back to version ``to`` (needs ``"confirm": true``); audited."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.take_back(api.service.ledger, table, seat, body.to, body.version, body.confirm)

    @router.post("/adjust", response_model=None)
    def adjust(table_id: str, body: AdjustBody, request: Request) -> Answer:
        """A GM ruling: change a bar, a status, a position, or take a combatant out (or back in), with a reason.
        Checked by the ruleset (422 with its code), recorded in the log and the chain, read by every seat."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.adjust(api.service.ledger, table, seat, body.version, body.id, body.reason, body.changes)

    @router.get("/adjust", response_model=None)
    def adjustable(table_id: str, request: Request) -> JsonObject:
        """What the GM may change now: each combatant's bars (with bounds), statuses, position kind and whether
        it is out."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.adjustable(table, seat)

    @router.post("/pause", response_model=None)
    def pause(table_id: str, request: Request) -> JsonObject:
        table, seat = api.seat(table_id, bearer(request))
        return gm.set_paused(api.service.ledger, table, seat, True)

    @router.post("/resume", response_model=None)
    def resume(table_id: str, request: Request) -> JsonObject:
        table, seat = api.seat(table_id, bearer(request))
        return gm.set_paused(api.service.ledger, table, seat, False)

    @router.post("/timer", response_model=None)
    def timer(table_id: str, body: TimerBody, request: Request) -> JsonObject:
        """Start the countdown the ruleset declares (a Drama Timer, ...) for ``seconds``; null stops it."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.start_timer(api.service.ledger, api.service.worker, table, seat, body.seconds)

    @router.get("/seats", response_model=None)
    def seats(table_id: str, request: Request) -> list[JsonObject]:
        """Every seat: name, role, actors, controller and whether it has a link (never a token: make a new one)."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.seat_list(table, seat)

    @router.post("/seats/{seat_name}/token", response_model=None)
    def new_token(table_id: str, seat_name: str, request: Request) -> JsonObject:
        """A new token and link for a seat; the old token stops working at once."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.replace_token(api.service.ledger, table, seat, seat_name)

    @router.post("/end", response_model=None)
    def end(table_id: str, request: Request) -> JsonObject:
        """End the fight now; the seed is revealed."""
        table, seat = api.seat(table_id, bearer(request))
        return gm.end(api.service.ledger, table, seat)

    @router.get("/export", response_model=None)
    def export(table_id: str, request: Request) -> JsonObject:
        table, seat = api.seat(table_id, bearer(request))
        return gm.export(api.service.ledger, table, seat)

    @router.get("/audit", response_model=None)
    def audit(table_id: str, request: Request) -> list[JsonObject]:
        table, seat = api.seat(table_id, bearer(request))
        return gm.audit_trail(api.service.ledger, table, seat)

    return router
