"""Failed logins, limited per client address and per table (docs/table.md, "Limits").

A wrong or unknown token costs the server a database lookup and tells a guesser nothing, so guessing must be slow:
every ``401`` (no token, a token that opens no seat here) takes one from two token buckets, the caller's address's
and the table's. While either bucket is empty, a request with a token this server does not know for that table is
refused at once with ``429 too_many_failures``, before any lookup. A seat that holds a valid token is never slowed:
its token is checked first against the seats of the tables this process holds in memory
(:meth:`affray.table.TableService.holds_token`, no database), and a token found there goes through, whatever its
address's count of failures (people behind one router share an address with whoever is guessing).

The caller's address is the ASGI ``client`` of the request (uvicorn puts a trusted proxy's ``X-Forwarded-For``
there: ``--forwarded-allow-ips``); :class:`ClientAddress` keeps it for the request, so every route that
authenticates through :meth:`affray.web.app.Api.seat` is counted, without passing it along.
"""

from __future__ import annotations

import contextvars
import re

from affray.table import Refusal
from affray.web.limits import ASGIApp, RateLimiter, Receive, Scope, Send

#: The shape of a seat token (``secrets.token_urlsafe``): anything else opens no seat and needs no lookup.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
ADDRESS_FAILURES = (20.0, 10 / 60)  # burst, then per second: 20 wrong tokens at once, then 10 a minute
TABLE_FAILURES = (100.0, 1.0)  # per table, from every address together
TOO_MANY = "Too many wrong tokens from your address or at this table; wait a minute, then use your seat's link."

_client: contextvars.ContextVar[str] = contextvars.ContextVar("affray_client", default="")


def client_address() -> str:
    """The address of the client of the request being served ("" outside a request)."""
    return _client.get()


class ClientAddress:
    """Remember the client's address (:func:`client_address`) while a request or WebSocket is served."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        marker = _client.set(str(client[0]) if client else "")
        try:
            await self.app(scope, receive, send)
        finally:
            _client.reset(marker)


def well_formed(token: str) -> bool:
    return TOKEN_SHAPE.fullmatch(token) is not None


class FailedLogins:
    """The two buckets of failed authentications (see the module docstring). Thread-safe."""

    def __init__(self, per_address: RateLimiter | None = None, per_table: RateLimiter | None = None) -> None:
        self.per_address = per_address or RateLimiter(rate=ADDRESS_FAILURES[1], burst=ADDRESS_FAILURES[0])
        self.per_table = per_table or RateLimiter(rate=TABLE_FAILURES[1], burst=TABLE_FAILURES[0])

    def check(self, address: str, table_id: str) -> None:
        """Refuse (429) a caller whose address or table has no failures left."""
        if not self.per_address.peek(address) or not self.per_table.peek(table_id):
            raise Refusal("too_many_failures", TOO_MANY, 429)

    def failed(self, address: str, table_id: str) -> None:
        self.per_address.allow(address)
        self.per_table.allow(table_id)
