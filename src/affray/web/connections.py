"""Bounded connections: uvicorn's HTTP and WebSocket protocols with the few bounds uvicorn lacks (docs/table.md,
"Limits").

uvicorn closes an idle kept-alive connection (``timeout_keep_alive``) and caps the connections and tasks of the
whole server (``limit_concurrency``, answered 503), and ``affray serve`` uses both. It has no bound on a client that
opens a connection and then sends its request slowly, or never: one byte every few seconds keeps a connection (and
its memory) forever. :class:`GuardedHttp` adds, per connection:

- its request headers within ``header_timeout`` seconds of the connection opening (or, on a kept-alive
  connection, of the request's first byte), at most ``max_header_bytes`` of them (431 beyond), whether they arrive
  a byte at a time or complete in one read (the bytes up to the blank line that ends them are counted before the
  parser sees any);
- its declared body within ``body_timeout`` seconds of its headers;
- at most ``per_address`` open connections from one client address (the TCP peer: behind a proxy, the proxy; an
  IPv6 host is its /64), a WebSocket counted from its HTTP upgrade until it closes; the next one is answered 429 and
  closed.

Slow clients cannot fill the server (:class:`Addresses`). A connection *waits* while its request is incomplete (no
bytes yet, headers or a declared body still arriving) and between the requests of a kept-alive connection (*idle*).
At most ``pending_per_address`` connections of one address may be incomplete at once: one more, and that address's
oldest incomplete one is shed; so a few dozen addresses hold a few hundred incomplete requests at most, never the
whole server's ``max_connections``. And when the open connections reach ``shed_at`` (the last
:func:`reserve` places below ``max_connections``), each new connection sheds the oldest waiting one of any address,
so a real client always finds a place among slow ones. A shed connection whose request was under way is answered
408 ``too_slow``; an idle or silent one is just closed (a browser opens another). A request uvicorn would answer 503
because its own count of connections still holds shed ones is served when this module's count has room.

A request that runs out of time is answered 408 (when nothing was answered yet) and closed; every refusal written
here is ``{"code", "message"}`` JSON with the security headers of :mod:`affray.web.headers`, and so are the two
answers uvicorn writes itself outside the app: 400 ``bad_http`` to bytes that are not HTTP, and 503 ``busy`` when the
whole server is at ``limit_concurrency`` (``affray serve --max-connections``).

Both protocols also let go of what uvicorn and websockets keep in reference cycles once a connection is over, so
that reference counting frees a connection at once instead of the next full garbage collection, which
``affray serve`` makes rare (``web/server.py``): the upgraded HTTP protocol and its parser hold each other (uvicorn
never calls ``connection_lost`` on it), and websockets' parser is a generator that holds its protocol, with the
permessage-deflate state, until it is closed (docs/performance.md, "Memory after WebSocket connections").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections import OrderedDict
from typing import Any, ClassVar

from uvicorn._types import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGISendCallable,
    HTTPResponseStartEvent,
    Scope,
)
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from affray.web.bounds import PENDING_PER_ADDRESS, PER_ADDRESS, ConnectionLimits
from affray.web.headers import REFUSAL_HEADERS
from affray.web.logins import address_keys


def reserve(max_connections: int) -> int:
    """The places kept free for new connections by shedding waiting ones: a sixteenth of the server's connections,
    1 to 64 (2,048: shed from 1,984 open on)."""
    return max(1, min(64, max_connections // 16))


def address_of(transport: asyncio.BaseTransport) -> str:
    """The client address a connection counts against: the TCP peer's; an IPv6 host is its /64 (it may pick new
    addresses inside it at will)."""
    peer = get_remote_addr(transport)  # type: ignore[arg-type]
    return address_keys(peer[0])[0] if peer else ""


class Addresses:
    """The open connections of each client address, one count per TCP connection, and the waiting ones, oldest first
    (the event loop's thread only; see the module docstring). ``open`` counts every connection not yet shed, for the
    metrics and the shedding."""

    def __init__(self, cap: int, pending_cap: int = 0, shed_at: int | None = None) -> None:
        self.cap, self.pending_cap, self.shed_at = cap, pending_cap, shed_at
        self.counts: dict[str, int] = {}
        self._held: dict[int, str] = {}
        self.waiting: OrderedDict[GuardedHttp, bool] = OrderedDict()  # each waiting connection: whether it is idle
        self.incomplete: dict[str, OrderedDict[GuardedHttp, None]] = {}  # per address: the incomplete, oldest first

    @property
    def open(self) -> int:
        return len(self._held)

    def take(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; False (nothing counted) when its address is at the cap. Idempotent."""
        if id(transport) in self._held:
            return True
        address = address_of(transport)
        if self.cap and self.counts.get(address, 0) >= self.cap:
            return False
        self._held[id(transport)] = address
        self.counts[address] = self.counts.get(address, 0) + 1
        return True

    def give_back(self, transport: asyncio.BaseTransport) -> None:
        address = self._held.pop(id(transport), None)
        if address is None:
            return
        left = self.counts[address] - 1
        if left:
            self.counts[address] = left
        else:
            del self.counts[address]

    def wait(self, connection: GuardedHttp, idle: bool) -> list[GuardedHttp]:
        """``connection`` waits from now (``idle``: for its next request; else its request is incomplete); the
        connections to shed for it: its address's oldest incomplete one past ``pending_cap``."""
        self.done(connection)
        self.waiting[connection] = idle
        if idle:
            return []
        mine = self.incomplete.setdefault(connection.address, OrderedDict())
        mine[connection] = None
        if self.pending_cap and len(mine) > self.pending_cap:
            return [next(iter(mine))]
        return []

    def done(self, connection: GuardedHttp) -> None:
        """``connection`` no longer waits: its request is all in (or it became a WebSocket, or it is gone)."""
        if self.waiting.pop(connection, None) is None:
            return
        mine = self.incomplete.get(connection.address)
        if mine is not None:
            mine.pop(connection, None)
            if not mine:
                del self.incomplete[connection.address]

    def crowded(self, newcomer: GuardedHttp) -> list[GuardedHttp]:
        """The oldest waiting connections (never ``newcomer``) to shed so that the open ones fall below
        ``shed_at``."""
        if self.shed_at is None:
            return []
        out: list[GuardedHttp] = []
        for connection in self.waiting:
            if self.open - len(out) < self.shed_at:
                break
            if connection is not newcomer:
                out.append(connection)
        return out


def refusal_parts(code: str, message: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an answer ``{"code", "message"}`` that closes the connection."""
    body = json.dumps({"code": code, "message": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *REFUSAL_HEADERS,
    ]
    return headers, body


def refusal_bytes(status: int, code: str, message: str) -> bytes:
    """A whole HTTP answer ``{"code", "message"}`` that closes the connection."""
    headers, body = refusal_parts(code, message)
    return b"".join([STATUS_LINE[status], *(name + b": " + value + b"\r\n" for name, value in headers), b"\r\n", body])


BUSY = refusal_parts("busy", "The server is serving as many requests as it can; try again in a moment.")
TOO_SLOW = "The server needed this connection for others, and this request was arriving too slowly."


async def busy(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    """uvicorn's ``service_unavailable`` (its answer at ``limit_concurrency``), as this module's refusals."""
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": 503,
        "headers": BUSY[0],
        "trailers": False,
    }
    await send(start)
    await send({"type": "http.response.body", "body": BUSY[1], "more_body": False})


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the bounds of the module docstring."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    addresses: ClassVar[Addresses] = Addresses(PER_ADDRESS, PENDING_PER_ADDRESS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = ""  # the client address it counts against (address_of)
        self._deadline: asyncio.TimerHandle | None = None
        self._header_bytes: int | None = 0  # None: the headers of the current request are complete
        self._in_body = False  # the current request's headers are in, its body still arriving
        self._tail = b""  # the last bytes of the headers read so far: a blank line may straddle two reads

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.addresses.take(transport):
            self._refuse(
                429,
                "too_many_connections",
                f"At most {self.addresses.cap} connections from one address "
                "are served at once; close some and try again.",
            )
            return
        self.address = address_of(transport)
        self._arm(self.limits.header_timeout, "slow_headers", "The request's headers did not arrive in time.")
        self._waiting(idle=False)
        for old in self.addresses.crowded(self):
            old.shed()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.addresses.done(self)
        self.addresses.give_back(self.transport)
        super().connection_lost(exc)

    def _waiting(self, idle: bool) -> None:
        for old in self.addresses.wait(self, idle):
            old.shed()

    def shed(self) -> None:
        """Close this waiting connection to make room (the module docstring): a request under way is answered 408
        ``too_slow``; a connection that has sent nothing of one is just closed."""
        self.addresses.done(self)
        self.addresses.give_back(self.transport)
        if self._in_body or self._header_bytes:
            self._refuse(408, "too_slow", TOO_SLOW, new_request=not self._in_body)
        else:
            self._disarm()
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._header_bytes is not None:
            before = self._header_bytes
            self._header_bytes += len(data)
            if self._header_bytes > self.limits.max_header_bytes and self._headers_past_limit(before, data):
                self._refuse(
                    431,
                    "headers_too_large",
                    f"A request's headers may hold at most {self.limits.max_header_bytes} bytes.",
                    new_request=True,
                )
                return
            self._tail = data[-3:]
        super().data_received(data)
        # Still no end of headers, after more bytes than headers may hold (a chunk that ends them may carry body)
        if self._header_bytes is not None and self._header_bytes > self.limits.max_header_bytes:
            self._refuse(
                431,
                "headers_too_large",
                f"A request's headers may hold at most {self.limits.max_header_bytes} bytes.",
                new_request=True,
            )

    def _headers_past_limit(self, before: int, data: bytes) -> bool:
        """Whether the current request's headers, of which ``before`` bytes came in earlier reads and the rest
        begin ``data``, hold more than the limit: they end at the first blank line (CRLF CRLF, or a bare LF LF, which
        the parser takes too), which may straddle the reads; no blank line yet is more than the limit."""
        seen = self._tail + data
        ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (at := seen.find(mark)) >= 0]
        if not ends:
            return True
        return before - len(self._tail) + min(ends) > self.limits.max_header_bytes

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to bytes that are not HTTP, as this module's refusals (JSON, the security headers)."""
        if self.transport.is_closing():
            return
        self.transport.write(refusal_bytes(400, "bad_http", "The request is not valid HTTP/1.1."))
        self.transport.close()

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        # At limit_concurrency uvicorn runs its own plain-text 503 instead of the app: this module's, with the
        # headers; unless its count still holds connections shed to make room, and this module's has room
        if app is service_unavailable:
            app = self.app if self._room() else busy
        super()._start_asgi_task(cycle, app)

    def _room(self) -> bool:
        """Whether a request uvicorn found no room for may be served: waiting connections shed, if need be, to bring
        the open ones under ``limit_concurrency``, and fewer requests than that under way."""
        for old in self.addresses.crowded(self):
            old.shed()
        limit = self.limit_concurrency or 0
        return self.addresses.open < limit and len(self.tasks) < limit

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a kept-alive connection's next request: its headers are due from now
            self._header_bytes, self._tail = 0, b""
            self._arm(self.limits.header_timeout, "slow_headers", "The request's headers did not arrive in time.")
        if self.waiting_idle():
            self._waiting(idle=False)  # its next request has begun: incomplete until it is all in

    def on_headers_complete(self) -> None:
        self._disarm()
        self._header_bytes = None
        self._in_body = True
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm(self.limits.body_timeout, "slow_body", "The request's body did not arrive in time.")

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_body = False
        super().on_message_complete()
        self.addresses.done(self)  # the request is all in: served, not waiting
        if self.cycle is None or self.cycle.response_complete:
            self._header_bytes, self._tail = 0, b""  # answered before its body was all in (a 413): the next request's
            # headers count
            if not self.transport.is_closing():
                self._waiting(idle=True)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request's headers count from here, unless this request's body is still arriving (answered early,
        # a 413): those bytes are no headers; they count from the end of that body (on_message_complete).
        if not self._in_body:
            self._header_bytes, self._tail = 0, b""
            if not self.transport.is_closing():
                self._waiting(idle=True)  # kept alive for its next request

    def waiting_idle(self) -> bool:
        return self.addresses.waiting.get(self) is True

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self.addresses.done(self)
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # it holds this protocol; nothing parses here any more

    def _arm(self, seconds: float, code: str, message: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expire, code, message)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self, code: str, message: str) -> None:
        self._deadline = None
        self._refuse(408, code, message, new_request=self._header_bytes is not None)

    def _refuse(self, status: int, code: str, message: str, new_request: bool = True) -> None:
        """Answer and close. ``new_request``: the refusal is about a request whose headers are not complete (the
        connection's last answer, if any, is over); otherwise it is answered only if its route began no answer,
        and a route still running hears a disconnect."""
        if self.transport.is_closing():
            return
        if new_request or self.cycle is None or not self.cycle.response_started:
            self.transport.write(refusal_bytes(status, code, message))
        if self.cycle is not None and not new_request:
            self.cycle.disconnected = True
        self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O), counted against its address until it closes, letting go
    of websockets' parser when it does, and pinging only a socket that is idle.

    uvicorn pings every socket every ``ping_interval`` seconds, whatever it sends meanwhile. A ping is there to keep
    proxies from closing an idle socket and to find a peer gone without closing; a seat's socket that was sent a
    push within the interval needs neither, as any frame resets a proxy's idle clock. So the ping waits until the
    interval has passed since the last frame the app sent; and a peer gone while pushes flow is found by the kernel:
    ``TCP_USER_TIMEOUT`` (Linux) drops the connection once data sent stays unacknowledged for the interval and the
    pong's timeout, as long as an unanswered ping would. At 1,000 tables in play every socket is sent a push every
    few seconds: the 200 pings and pongs a second of 6,000 sockets were 6% of the server's CPU (docs/performance.md,
    "Pings only when idle")."""

    addresses: ClassVar[Addresses] = GuardedHttp.addresses
    last_sent = 0.0  # the loop's time of the app's last frame (0: none yet)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.addresses.take(transport)  # counted since the upgrade request: nothing new
        if self.ping_interval:
            drop_unacknowledged(transport, self.ping_interval + (self.ping_timeout or 0.0))

    async def send(self, message: Any) -> None:
        self.last_sent = self.loop.time()
        await super().send(message)

    def send_keepalive_ping(self) -> None:
        idle = self.loop.time() - self.last_sent
        interval = self.ping_interval
        if interval and idle < interval and not self.transport.is_closing():
            self.ping_timer = self.loop.call_later(interval - idle, self.send_keepalive_ping)  # not idle yet
            return
        super().send_keepalive_ping()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.addresses.give_back(self.transport)
        with contextlib.suppress(Exception):  # a parser that already stopped
            self.conn.receive_eof()
        self.conn.parser.close()  # the generator holds the protocol in a cycle


def drop_unacknowledged(transport: asyncio.BaseTransport, seconds: float) -> bool:
    """Have the kernel close the transport's TCP connection once data it sent stays unacknowledged for ``seconds``
    (``TCP_USER_TIMEOUT``, Linux): the peer is gone. False where that cannot be set (another system, no socket)."""
    if not hasattr(socket, "TCP_USER_TIMEOUT"):
        return False
    try:
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(seconds * 1000))
    except (OSError, AttributeError):  # a transport without a TCP socket
        return False
    return True


def guarded_protocols(
    limits: ConnectionLimits,
    max_connections: int | None = None,
) -> tuple[type[GuardedHttp], type[GuardedWebSocket], Addresses]:
    """The HTTP and WebSocket protocol classes for one server (``uvicorn.run(http=..., ws=...)``), sharing one
    count of connections per address (returned too, for the metrics). ``max_connections``: uvicorn's
    ``limit_concurrency`` (None: no bound, and no shedding). With no cap per address (behind a proxy, every connection
    is the proxy's) there is no cap of incomplete requests per address either."""
    addresses = Addresses(
        limits.per_address,
        limits.pending_per_address if limits.per_address else 0,
        None if max_connections is None else max_connections - reserve(max_connections),
    )
    http = type("AffrayHttp", (GuardedHttp,), {"limits": limits, "addresses": addresses})
    ws = type("AffrayWebSocket", (GuardedWebSocket,), {"addresses": addresses})
    return http, ws, addresses
