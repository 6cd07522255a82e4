"""The API tests' in-process client: Starlette's ``TestClient`` whose HTTP requests run the app on this thread's
own event loop.

``TestClient`` hands every request to an event loop in a portal thread and waits for its answer there; that hop
cost about 40% of the CPU of a seat's state request (6.3 ms against 3.7 ms, docs/performance.md), and the secrets
sweep alone makes about 14,000 of them. Here a request is ``loop.run_until_complete`` of httpx's ``ASGITransport``
on a loop this client owns. The app's own threads (its thread pool, the table service's AI and timers) reach that
loop with ``call_soon_threadsafe`` as they reach uvicorn's, and their callbacks run while a request is in progress,
as a long poll needs. A WebSocket stays on ``TestClient``'s portal thread, which keeps it served while the test
does other things; both drive the same app, so a socket sees the changes the requests make.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx2 as httpx
from fastapi.testclient import TestClient

# The address TestClient gives its requests, kept so that the app sees the same client either way.
CLIENT_ADDRESS = ("testclient", 50000)


class InProcessClient(TestClient):
    """A ``TestClient`` (its ``with`` runs the app's lifespan; ``websocket_connect`` is its own) whose HTTP requests
    run on the event loop of the thread that made it (the requests of other threads, as in a race, go through the
    portal as before): the same answers (an ``httpx.Response``; an exception in the app a 500 answer,
    as with ``raise_server_exceptions=False``; redirects followed), without the portal thread's hop."""

    def __init__(self, app: Any) -> None:
        super().__init__(app, raise_server_exceptions=False)
        self._owner = threading.get_ident()
        self._loop = asyncio.new_event_loop()
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False, client=CLIENT_ADDRESS)
        self._http = httpx.AsyncClient(transport=transport, base_url="http://testserver", follow_redirects=True)

    def request(self, method: str, url: Any, **kwargs: Any) -> httpx.Response:
        if threading.get_ident() != self._owner:  # a race's other threads: the portal serves them side by side
            return super().request(method, url, **kwargs)
        return self._loop.run_until_complete(self._http.request(method, url, **kwargs))

    def __exit__(self, *args: Any) -> None:
        try:
            self._loop.run_until_complete(self._http.aclose())
            self._loop.close()
        finally:
            super().__exit__(*args)
