"""Failed logins, counted against whoever fails: the caller's address and its network (docs/table.md, "Limits").

A wrong or unknown token costs the server a database lookup and tells a guesser nothing, so guessing must be slow:
every ``401`` (no token, a token that opens no seat here) takes one from two token buckets, the caller's address's
and its network's (:func:`address_keys`: an IPv4 address and its /24, an IPv6 /64, a host's own, and its /48). While
either bucket is empty, a request whose token opens no seat of the table as this process holds it is refused at once
with ``429 too_many_failures``, before any lookup.

Failures are never counted against a table or its seats: guessing at a table, from any number of addresses, never
slows the people who hold its tokens (a table's own budget once let a guesser rotating its address lock the real
seats out). A seat's valid token is always accepted: it is checked first against the seats of the table this
process holds in memory (:meth:`affray.table.TableService.seat_in_memory`, no database), whatever its address's
failures (people behind one router share an address with whoever is guessing). A table not in memory (after a
restart, or idle) is looked up in the database for a caller with failures left and loaded by its first valid token;
only a caller whose own address or network is out of failures waits for that (or for a minute) there.

The caller's address is the ASGI ``client`` of the request (uvicorn puts a trusted proxy's ``X-Forwarded-For``
there: ``--forwarded-allow-ips``); :class:`ClientAddress` keeps it for the request, so every route that
authenticates through :meth:`affray.web.app.Api.seat` is counted, without passing it along.
"""

from __future__ import annotations

import contextvars
import ipaddress
import re

from affray.table import Refusal
from affray.web.limits import ASGIApp, RateLimiter, Receive, Scope, Send

#: The shape of a seat token (``secrets.token_urlsafe``): anything else opens no seat and needs no lookup.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
ADDRESS_FAILURES = (20.0, 10 / 60)  # burst, then per second: 20 wrong tokens at once, then 10 a minute
NETWORK_FAILURES = (100.0, 0.5)  # per network (IPv4 /24, IPv6 /48), from all its addresses: 100, then 30 a minute
IPV4_NETWORK, IPV6_HOST, IPV6_NETWORK = 24, 64, 48  # prefix lengths
TOO_MANY = "Too many wrong tokens from your address; wait a minute, then use your seat's link."

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


def address_keys(address: str) -> tuple[str, str]:
    """The keys a failure from ``address`` counts against: the host and its network. An IPv6 host is its /64 (a
    host picks new addresses inside it at will: privacy addresses), its network the /48; an IPv4 host is its address,
    its network the /24. Anything else (a Unix socket's "", a test client's name) is its own host and network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return f"host:{address}", f"net:{address}"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return f"host:{ip}", f"net:{ipaddress.ip_network(f'{ip}/{IPV4_NETWORK}', strict=False)}"
    host = ipaddress.ip_network(f"{ip}/{IPV6_HOST}", strict=False)
    return f"host:{host}", f"net:{ipaddress.ip_network(f'{ip}/{IPV6_NETWORK}', strict=False)}"


class FailedLogins:
    """The two buckets of failed authentications (see the module docstring). Thread-safe."""

    def __init__(self, per_address: RateLimiter | None = None, per_network: RateLimiter | None = None) -> None:
        self.per_address = per_address or RateLimiter(rate=ADDRESS_FAILURES[1], burst=ADDRESS_FAILURES[0])
        self.per_network = per_network or RateLimiter(rate=NETWORK_FAILURES[1], burst=NETWORK_FAILURES[0])

    def check(self, address: str) -> None:
        """Refuse (429) a caller whose address or network has no failures left."""
        host, network = address_keys(address)
        if not self.per_address.peek(host) or not self.per_network.peek(network):
            raise Refusal("too_many_failures", TOO_MANY, 429)

    def failed(self, address: str) -> None:
        host, network = address_keys(address)
        self.per_address.allow(host)
        self.per_network.allow(network)
