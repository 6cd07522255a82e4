"""``WS /api/tables/ID/ws``: every change pushed to one seat (issue 14, item 3).

The token comes as ``?token=`` or as the first message ``{"token": "..."}``. The server then sends the seat's whole
message (as ``GET /api/tables/ID``) and, after every change, the seat's message with the log entries since the last
one it sent (built once per change for every connection, :mod:`affray.table.feed`). A replaced token closes the
connection (code 4401) after a ``{"code": "token_replaced", ...}`` frame; a refused token closes it with 4401 after a
``{"code", "message"}`` frame; a client more than :data:`MAX_BACKLOG` messages behind is closed with 1013. Client
frames other than the token are ignored (actions go through HTTP).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from affray.table import Refusal, SeatInfo, Table, token_hash
from affray.table.feed import Push

if TYPE_CHECKING:
    from affray.web.app import Api

FIRST_MESSAGE_TIMEOUT = 10.0
CLOSE_UNAUTHORIZED = 4401
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": the client fell too far behind; it reconnects
MAX_BACKLOG = 256  # pushes waiting for one slow client before it is closed (each holds a whole message)


def ws_router(api: Api) -> APIRouter:
    router = APIRouter()

    @router.websocket("/api/tables/{table_id}/ws")
    async def seat_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            token = websocket.query_params.get("token") or await _first_token(websocket)
            table, seat = await run_in_threadpool(api.seat, table_id, token)
        except Refusal as exc:
            await _refuse(websocket, exc.to_dict())
            return
        except (WebSocketDisconnect, TimeoutError):
            return
        await _serve(api, websocket, table, seat, token_hash(token or ""))

    return router


async def _first_token(websocket: WebSocket) -> str | None:
    text = await asyncio.wait_for(websocket.receive_text(), FIRST_MESSAGE_TIMEOUT)
    try:
        data: Any = json.loads(text)
    except ValueError:
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) else None


async def _refuse(websocket: WebSocket, refusal: dict[str, Any]) -> None:
    await _close(websocket, json.dumps(refusal), CLOSE_UNAUTHORIZED)


async def _serve(api: Api, websocket: WebSocket, table: Table, seat: SeatInfo, hashed: str) -> None:
    """Send the seat's pushes (:mod:`affray.table.feed`) until the client goes, the token is replaced, or the client
    falls :data:`MAX_BACKLOG` pushes behind (it is closed with 1013 and reconnects to the whole state)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Push] = asyncio.Queue()

    def deliver(push: Push) -> None:  # from the thread that made the change known, under the table's lock
        loop.call_soon_threadsafe(queue.put_nowait, push)

    unfollow = await run_in_threadpool(api.service.follow, table, seat, hashed, deliver)
    reader = asyncio.ensure_future(_drain(websocket))
    try:
        while not reader.done():
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                break
            push = getter.result()
            if push.close is not None:
                await _close(websocket, push.text, push.close)
                break
            if queue.qsize() > MAX_BACKLOG:
                await _close(websocket, "", CLOSE_TRY_AGAIN)
                break
            await websocket.send_text(push.text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unfollow()
        reader.cancel()


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
