"""``WS /api/tables/ID/ws``: every change pushed to one seat (issue 14, item 3).

The token comes as ``?token=`` or as the first message ``{"token": "..."}``. The server then sends the seat's whole
message (as ``GET /api/tables/ID``) and, after every change, the seat's message with the log entries since the last
one it sent. A replaced token closes the connection (code 4401); a refused token closes it with 4401 after a
``{"code", "message"}`` frame. Client frames other than the token are ignored (actions go through HTTP).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from affray.table import Refusal, SeatInfo, Table, token_hash

if TYPE_CHECKING:
    from affray.web.app import Api

FIRST_MESSAGE_TIMEOUT = 10.0
CLOSE_UNAUTHORIZED = 4401


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
    try:
        await websocket.send_json(refusal)
        await websocket.close(CLOSE_UNAUTHORIZED)
    except (WebSocketDisconnect, RuntimeError):
        pass


async def _serve(api: Api, websocket: WebSocket, table: Table, seat: SeatInfo, hashed: str) -> None:
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()
    unsubscribe = api.service.subscribe(table.id, lambda: loop.call_soon_threadsafe(woken.set))
    reader = asyncio.ensure_future(_drain(websocket))
    sent = 0
    try:
        message = await run_in_threadpool(api.service.state, table, seat, 0)
        await websocket.send_json(message)
        sent = message["version"]
        while not reader.done():
            waiter = asyncio.ensure_future(woken.wait())
            await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if reader.done():
                break
            woken.clear()
            if not api.service.still_valid(table, seat, hashed):
                await _refuse(websocket, {"code": "token_replaced", "message": "This seat's token was replaced."})
                break
            message = await run_in_threadpool(api.service.state, table, seat, sent)
            await websocket.send_json(message)
            sent = message["version"]
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unsubscribe()
        reader.cancel()


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) the client's frames until it goes away."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
