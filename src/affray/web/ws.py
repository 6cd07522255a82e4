"""``WS /api/tables/ID/ws``: every change pushed to one seat (docs/table.md, 'The API').

The token comes as ``?token=`` or as the first message ``{"token": "..."}``. The server then sends the seat's whole
message (as ``GET /api/tables/ID``) and, after every change, the seat's message with the log entries since the last
one it sent (built once per change for every connection, :mod:`affray.table.feed`). A replaced token closes the
connection (code 4401) after a ``{"code": "token_replaced", ...}`` frame; a refused token, or none within
:data:`~affray.web.bounds.FIRST_MESSAGE` seconds (``affray serve --first-message-timeout``), closes it with 4401
after a ``{"code", "message"}`` frame; a client more than :data:`MAX_BACKLOG` messages behind is closed with 1013;
a seat whose message could not be built (a server bug) is closed with 1011 and no frame. Client frames other than
the token are ignored (actions go through HTTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from affray.table import Refusal, SeatInfo, Table, token_hash
from affray.table.feed import Follower, Push

if TYPE_CHECKING:
    from affray.web.app import Api

CLOSE_UNAUTHORIZED = 4401
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": the client fell too far behind; it reconnects
MAX_BACKLOG = 256  # pushes waiting for one slow client before it is closed (each holds a whole message)
CLOSE_WAIT = 1.0  # seconds to write the 1013 close to a client that stopped reading, before leaving it to the server
T = TypeVar("T")


def ws_router(api: Api) -> APIRouter:
    router = APIRouter()

    @router.websocket("/api/tables/{table_id}/ws")
    async def seat_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            token = websocket.query_params.get("token") or await _first_token(websocket, api.first_message)
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await _refuse(websocket, {"code": "no_token", "message": "Send {'token': TOKEN} as the first message, "
                                                                    f"within {api.first_message:g} seconds."})
            return
        opened = await run_in_threadpool(_open, api, table_id, token)
        if isinstance(opened, Refusal):
            await _refuse(websocket, opened.to_dict())
            return
        await _serve(api, websocket, *opened, token_hash(token or ""))

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


async def _first_token(websocket: WebSocket, timeout: float) -> str | None:
    """The token of the first message ``{"token": "..."}`` (None for anything else: a binary frame, other JSON),
    waited for at most ``timeout`` seconds (``affray serve --first-message-timeout``)."""
    message = await asyncio.wait_for(websocket.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        data: object = json.loads(message.get("text") or "")
    except (ValueError, RecursionError):
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) else None


async def _refuse(websocket: WebSocket, refusal: Mapping[str, object]) -> None:
    await _close(websocket, json.dumps(refusal), CLOSE_UNAUTHORIZED)


async def _serve(api: Api, websocket: WebSocket, table: Table, seat: SeatInfo, hashed: str) -> None:
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

    follower = Follower(seat, hashed, deliver)
    reader = asyncio.ensure_future(_drain(websocket))
    stop = asyncio.ensure_future(behind.wait())
    try:
        await run_in_threadpool(api.service.audience.follow, table, follower)
        while True:
            _, push = await _first(queue.get(), reader, stop)
            if push is None:
                break
            if push.close is not None:
                await _close(websocket, push.text, push.close)
                break
            sent, _ = await _first(websocket.send_text(push.text), reader, stop)
            if not sent:
                break
        if stop.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_close(websocket, "", CLOSE_TRY_AGAIN), CLOSE_WAIT)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        api.service.audience.unfollow(table, follower)
        reader.cancel()
        stop.cancel()


async def _first(work: Coroutine[Any, Any, T], *stoppers: asyncio.Future[Any]) -> tuple[bool, T | None]:
    """Run ``work`` unless one of ``stoppers`` is done first, in which case ``work`` is cancelled: ``(True, its
    result)`` or ``(False, None)``. Its exceptions propagate."""
    task = asyncio.ensure_future(work)
    await asyncio.wait({task, *stoppers}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        return True, task.result()
    task.cancel()
    return False, None


async def _close(websocket: WebSocket, text: str, code: int) -> None:
    try:
        if text:
            await websocket.send_text(text)
        await websocket.close(code)
    except (WebSocketDisconnect, RuntimeError):
        pass


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) the client's frames until it goes away."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
