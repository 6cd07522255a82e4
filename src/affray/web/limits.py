"""Request limits of the API: a body size cap (an ASGI middleware, so a huge body is never read whole) and a token
bucket per caller (docs/table.md, 'Limits')."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_BODY_LIMIT = 256 * 1024

#: The routes whose body may be larger than the default: method, path, their limit and the sentence past it. The map
#: image's upload (web/building.py, table/map_image.py: 4 MiB).
LARGER_BODIES: tuple[tuple[str, re.Pattern[str], int, str], ...] = (
    ("POST", re.compile(r"^/api/tables/[^/]{1,64}/gm/map$"), 4 * 1024 * 1024, "A map may be at most 4 MB."),
)


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 ``{"code": "too_large", ...}``."""

    def __init__(self, app: ASGIApp, limit: int = DEFAULT_BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, sentence = self.limit, f"A request body may hold at most {self.limit} bytes."
        for method, path, larger, said in LARGER_BODIES:
            if scope.get("method") == method and path.match(str(scope.get("path", ""))):
                limit, sentence = larger, said
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await send_refusal(send, 413, "too_large", sentence)
            return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge()
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except BodyTooLarge:
            if not started:
                await send_refusal(send, 413, "too_large", sentence)


async def send_refusal(send: Send, status: int, code: str, message: str) -> None:
    """Answer ``{"code", "message"}`` with ``status`` from an ASGI middleware (before any route runs)."""
    body = json.dumps({"code": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """Token buckets by key: ``burst`` requests at once, refilled at ``rate`` per second. Thread-safe."""

    def __init__(self, rate: float = 20.0, burst: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def peek(self, key: str) -> bool:
        """Whether :meth:`allow` would let ``key`` through now; takes nothing from its bucket."""
        now = self._clock()
        with self._lock:
            level, last = self._buckets.get(key, (self.burst, now))
            return min(self.burst, level + (now - last) * self.rate) >= 1

    def allow(self, key: str) -> bool:
        now = self._clock()
        with self._lock:
            level, last = self._buckets.get(key, (self.burst, now))
            level = min(self.burst, level + (now - last) * self.rate)
            if level < 1:
                self._buckets[key] = (level, now)
                return False
            self._buckets[key] = (level - 1, now)
            if len(self._buckets) > 100_000:  # forget idle callers rather than grow without bound
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
            return True
