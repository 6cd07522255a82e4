"""``WS /api/tables/ID/ws``: every change pushed to one seat, and (protocol 2) the seat's actions taken over the same
connection (docs/table.md, 'The API').

The token comes as ``?token=`` or as the first message ``{"token": "..."}``; the protocol as ``?protocol=2`` or in
that first message (``{"token": "...", "protocol": 2}``); without either it is 1. The server then sends the seat's
whole message (as ``GET /api/tables/ID``) and, after every change:

- protocol 1: the seat's message with the log entries since the last one it sent;
- protocol 2: ``{"patch": [...]}``, the JSON Patch that turns the message before into that one
  (:mod:`affray.table.patch`), and nothing when nothing the seat may see changed.

Both are built once per change for every connection (:mod:`affray.table.feed`). Under protocol 2 the client may send
``{"act": {"actor", "action", "version", "id"}, "ref": R}`` (the body of ``POST .../actions``; ``ref`` an integer or a
string of at most 64 characters, of its choosing) and is answered ``{"reply": R, "answer": {...}}`` (as the POST's 200)
or ``{"reply": R, "refused": {"code", "message"}}`` (as its 4xx), with the same checks and limits; anything else it
sends is answered ``refused`` with ``bad_frame``. Under protocol 1 the client's frames other than the token are ignored
(actions go through HTTP).

A replaced token closes the connection (code 4401) after a ``{"code": "token_replaced", ...}`` frame; a refused
token, or none within :data:`~affray.web.bounds.FIRST_MESSAGE` seconds (``affray serve --first-message-timeout``),
closes it with 4401 after a ``{"code", "message"}`` frame; a client more than :data:`MAX_BACKLOG` messages behind is
closed with 1013; a seat whose message could not be built (a server bug) is closed with 1011 and no frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from affray.core.json import JsonObject
from affray.table import Refusal, SeatInfo, Table, token_hash
from affray.table.feed import Follower, Push, encode, opened
from affray.web.errors import validation_message
from affray.web.models import ActionBody

if TYPE_CHECKING:
    from affray.web.app import Api

CLOSE_UNAUTHORIZED = 4401
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": the client fell too far behind; it reconnects
MAX_BACKLOG = 256  # pushes waiting for one slow client before it is closed (each holds a whole message)
CLOSE_WAIT = 1.0  # seconds to write the 1013 close to a client that stopped reading, before leaving it to the server
PROTOCOLS = (1, 2)
MAX_REF = 64  # characters of a frame's "ref" echoed in its reply (a longer one is answered with null)
MAX_SAFE_INTEGER = 2**53 - 1  # a numeric "ref" echoed: one JavaScript reads back exactly
log = logging.getLogger(__name__)


def ws_router(api: Api) -> APIRouter:
    router = APIRouter()

    @router.websocket("/api/tables/{table_id}/ws")
    async def seat_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        token = websocket.query_params.get("token")
        protocol: object = websocket.query_params.get("protocol")
        try:
            if not token:
                token, given = await _first_token(websocket, api.first_message)
                protocol = given if given is not None else protocol  # ?protocol=2 holds with a token sent after
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await _refuse(
                websocket,
                {
                    "code": "no_token",
                    "message": f"Send {{'token': TOKEN}} as the first message, within {api.first_message:g} seconds.",
                },
            )
            return
        version = _protocol(protocol)
        if version is None:
            await _refuse(
                websocket, {"code": "bad_protocol", "message": "This server speaks protocol 1 or 2 (?protocol=2)."}
            )
            return
        opened = await run_in_threadpool(_open, api, table_id, token)
        if isinstance(opened, Refusal):
            await _refuse(websocket, opened.to_dict())
            return
        await _serve(api, websocket, *opened, token or "", version)

    return router


def _open(api: Api, table_id: str, token: str | None) -> tuple[Table, SeatInfo] | Refusal:
    """``api.seat``, a refusal returned rather than raised: an exception raised in a worker thread is kept by the
    thread's future, the future by the exception's traceback, and with them the whole connection (its deflate
    state included) until a full garbage collection, which the server makes rare (docs/performance.md)."""
    try:
        return api.seat(table_id, token)
    except Refusal as exc:
        exc.__traceback__ = None
        return exc


async def _first_token(websocket: WebSocket, timeout: float) -> tuple[str | None, object]:
    """The token and protocol of the first message ``{"token": "...", "protocol": 2}`` (token None for anything
    else: a binary frame, other JSON), waited for at most ``timeout`` seconds (``affray serve
    --first-message-timeout``)."""
    message = await asyncio.wait_for(websocket.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        data: object = json.loads(message.get("text") or "")
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    token = data.get("token")
    return (token if isinstance(token, str) else None), data.get("protocol")


def _protocol(given: object) -> int | None:
    """The protocol asked for (1 when none is), or None for one this server does not speak."""
    if given is None:
        return 1
    try:
        version = int(str(given))
    except ValueError:
        return None
    return version if version in PROTOCOLS else None


async def _refuse(websocket: WebSocket, refusal: Mapping[str, object]) -> None:
    await _close(websocket, json.dumps(refusal), CLOSE_UNAUTHORIZED)


async def _serve(api: Api, websocket: WebSocket, table: Table, seat: SeatInfo, token: str, protocol: int) -> None:
    """Send the seat's pushes (:mod:`affray.table.feed`) until the client goes, a final push comes (a replaced token,
    a failed build), or the client falls :data:`MAX_BACKLOG` pushes behind. The backlog is counted as pushes arrive,
    not between sends: a client that stops reading blocks the send itself (the socket's buffer is full), and the
    send is then abandoned and the connection closed with 1013 (or, if even the close cannot be written within
    :data:`CLOSE_WAIT`, left to the server to drop). A client reconnects to the whole state."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Push] = asyncio.Queue()
    behind = asyncio.Event()

    def enqueue(push: Push) -> None:  # on the event loop
        queue.put_nowait(push)
        if queue.qsize() > MAX_BACKLOG:
            behind.set()

    def deliver(push: Push) -> None:  # from the thread that made the change known, under the table's lock
        loop.call_soon_threadsafe(enqueue, push)

    async def answer(text: str) -> None:  # a protocol-2 frame: answered in the order of the frames, among the pushes
        enqueue(Push(await run_in_threadpool(_frame, api, table, follower, text)))

    async def send_all() -> None:  # each push as it comes: no task or wait of its own (most of a push's cost was)
        while True:
            push = await queue.get()
            if push.close is not None:  # bounded: a client that stopped reading is left to the server to drop
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(_close(websocket, push.text, push.close), CLOSE_WAIT)
                return
            await websocket.send_text(push.text)

    follower = Follower(seat, token_hash(token), deliver, patches=protocol == 2)
    reader = asyncio.ensure_future(_read(websocket, answer if protocol == 2 else None))
    stop = asyncio.ensure_future(behind.wait())
    sender: asyncio.Future[None] | None = None
    try:
        await run_in_threadpool(api.service.follow, table, follower)
        # The sender runs until the client goes (the reader ends), a final push, or the backlog's limit: whichever
        # comes first cancels the others, a send stuck on a client that stopped reading included.
        sender = asyncio.ensure_future(send_all())
        await asyncio.wait({sender, reader, stop}, return_when=asyncio.FIRST_COMPLETED)
        if stop.done():
            sender.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_close(websocket, "", CLOSE_TRY_AGAIN), CLOSE_WAIT)
        elif sender.done():
            sender.result()  # a failed send (the client went): raised here, caught below
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        api.service.audience.unfollow(table, follower)
        for task in (reader, stop, sender):
            if task is None:
                continue
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: a failed send or read ends the connection, nothing more to say
            task.cancel()


async def _close(websocket: WebSocket, text: str, code: int) -> None:
    try:
        if text:
            await websocket.send_text(text)
        await websocket.close(code)
    except (WebSocketDisconnect, RuntimeError):
        pass


async def _read(websocket: WebSocket, answer: Callable[[str], Awaitable[None]] | None) -> None:
    """Read the client's frames until it goes away: each given to ``answer`` in turn (protocol 2: a seat's actions
    are taken in the order it sent them), or ignored (protocol 1)."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if answer is not None:
                await answer(message.get("text") or "")
    except (WebSocketDisconnect, RuntimeError):
        return


def _frame(api: Api, table: Table, follower: Follower, text: str) -> str:
    """The reply to a protocol-2 client frame ``{"act": {...}, "ref": R}``: the action taken as ``POST .../actions``
    takes it (the body validated the same way, rate-limited per token), as ``{"reply": R, "answer": ...}`` or
    ``{"reply": R, "refused": {"code", "message"}}``. Never raises.

    The seat is the connection's, as its pushes read it (:func:`affray.table.feed.opened`): checked again for every
    frame against the table's seat records, without the database lookup of a token an HTTP request needs (12% of a
    busy server's time). A token the GM replaced stops at once in the process that replaced it; another process
    learns of it with the change's notice (milliseconds; docs/table.md, "Several processes"), and until then a socket
    it holds open may still act, as its pushes still reach it."""
    ref: object = None
    try:
        api.limit(follower.token_hash)  # every frame counts, a refused one too, before any work on it
        try:
            data: object = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            given = data.get("ref")
            number = type(given) is int and abs(given) <= MAX_SAFE_INTEGER  # not a bool, not past a JS number
            if number or (type(given) is str and len(given) <= MAX_REF):
                ref = given
        if not isinstance(data, dict) or not isinstance(data.get("act"), dict):
            raise Refusal("bad_frame", 'A frame is {"act": {"actor", "action", "version", "id"}, "ref": R}.', 422)
        try:
            body = ActionBody.model_validate(data["act"])
        except ValidationError as exc:
            raise Refusal("bad_request", validation_message(RequestValidationError(exc.errors())), 422) from None
        with table.lock:
            seat = opened(table, follower)
        if seat is None:
            raise Refusal("bad_token", "This token does not open a seat at this table.", 401)
        return encode(
            {
                "reply": ref,
                "answer": dict(api.service.submit(table, seat, body.actor, body.action, body.version, body.id)),
            }
        )
    except Refusal as exc:
        exc.__traceback__ = None  # see _open
        return encode({"reply": ref, "refused": exc.to_dict()})
    except Exception:  # a bug: the seat is told, the details stay in the server's log, the connection goes on
        log.exception("table %s: a WebSocket frame failed", table.id)
        refused: JsonObject = {"code": "internal", "message": "The server failed; the operator can see why in its log."}
        return encode({"reply": ref, "refused": refused})
