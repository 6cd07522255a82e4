"""The bounds of the table server's connections, with their defaults (docs/table.md, "Limits"). Apart from the
modules that apply them (:mod:`affray.web.connections`, :mod:`affray.web.server`) so that the command line can
name them without importing the server."""

from __future__ import annotations

from dataclasses import dataclass

HEADER_TIMEOUT = 10.0  # seconds for a request's headers, from the connection's opening or the request's first byte
BODY_TIMEOUT = 30.0  # seconds for a request's declared body, from its headers
# Open connections from one client address (the TCP peer; an IPv6 /64): filling the whole server (2,048) takes 64
# addresses each holding 32 connections the server is serving (WebSockets of valid seats, requests under way)
PER_ADDRESS = 32
# Incomplete requests of one client address (a connection that has sent nothing yet, or headers or a body still
# arriving); one more sheds that address's oldest (web/connections.py): 36 addresses hold 576 at most, never 2,048
PENDING_PER_ADDRESS = 16
FIRST_MESSAGE = 10.0  # seconds for a WebSocket's first message (its token) when its address carries none
MAX_HEADER_BYTES = 64 * 1024
MAX_CONNECTIONS = 2048  # uvicorn's limit_concurrency: connections and tasks of the whole server (503 beyond)
# Seconds a WebSocket is sent nothing before it is pinged (without a pong 20 s after one, it is closed): how soon a
# peer that is gone without closing (a phone asleep, a pulled cable) frees its connection, and what keeps proxies
# from closing a seat's socket while nothing changes at its table (nginx and most load balancers close one idle for
# 60 s). A socket sent pushes more often is not pinged (web/connections.py). Each ping and pong cost the server
# about 0.2 ms: pinging every socket every 20 s (uvicorn's way) was 300 a second at 6,000 sockets, 8% of the CPU
# of 1,000 tables in play (docs/performance.md, "Garbage collection and pings").
PING_INTERVAL = 30.0
KEEP_ALIVE = 40  # seconds an idle connection is kept: past the long-poll's 30 s, so none is closed under a request


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The bounds of each connection (``per_address`` 0: no cap, of connections or of incomplete requests per
    address; ``pending_per_address`` 0: no cap of incomplete requests; ``ping_interval`` None: WebSockets are not
    pinged)."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    per_address: int = PER_ADDRESS
    pending_per_address: int = PENDING_PER_ADDRESS
    max_header_bytes: int = MAX_HEADER_BYTES
    first_message: float = FIRST_MESSAGE
    ping_interval: float | None = PING_INTERVAL  # None: no pings
