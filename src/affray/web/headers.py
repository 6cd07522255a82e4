"""Security headers on every answer of the table server (docs/table.md, "Security headers").

The pages load only the server's own scripts, styles and images and speak only to the server (HTTP and its
WebSocket): the Content-Security-Policy says exactly that, so an injected script or style, or a page framing the
table to trick a click, does nothing. ``Cache-Control: no-store`` keeps a seat's state, its tokens and its log out of
every cache (the browser's, a proxy's); the static files alone may be cached. FastAPI's own API pages (``/docs``,
``/redoc``) load Swagger UI and ReDoc from a CDN with an inline start-up script, so they get a policy of their own
that allows that CDN and nothing else.

:data:`REFUSAL_HEADERS` (:data:`BASE_HEADERS` and the policy) is what the connection guard
(:mod:`affray.web.connections`) sends with the answers it writes itself, before any request reaches the app: its own
refusals and the ones it answers for uvicorn (a request that is not HTTP, 400; the server at its connection limit,
503).

A redirect (the router's, from ``/api/tables/`` to ``/api/tables``) never names a host: uvicorn and Starlette build
its ``Location`` from the request's ``Host`` header, which the client chooses, so :class:`SecurityHeaders` cuts it to
the path (:func:`same_origin`), and a path that starts with ``//`` (a scheme-relative URL, another host to a
browser) to one slash. The server never redirects anywhere else.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from affray.web.limits import ASGIApp, Message, Receive, Scope, Send

#: The policy of every page and answer. ``connect-src`` adds the WebSocket of the host the page was served from
#: (older browsers do not count ``ws:``/``wss:`` as ``'self'``). ``img-src blob:``: the GM's map image, which a page
#: fetches with its seat's token and draws from a blob URL it made (only the page's own scripts can make one).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'{ws}; "
    "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: FastAPI's /docs and /redoc: their scripts, styles and images come from the CDN FastAPI names, started by an
#: inline script. No seat's state is on them, but they share the origin, so nothing else is allowed there either.
DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_CSP = (
    f"default-src 'none'; script-src 'self' 'unsafe-inline' {DOCS_CDN}; style-src 'self' 'unsafe-inline' "
    f"{DOCS_CDN} https://fonts.googleapis.com; font-src https://fonts.gstatic.com; img-src 'self' data: "
    f"https://fastapi.tiangolo.com {DOCS_CDN}; worker-src blob:; connect-src 'self'; base-uri 'none'; "
    f"form-action 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")
BASE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
)
#: The answers the connection guard writes itself: every header of an API answer (no WebSocket: no page reads them).
REFUSAL_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.format(ws="").encode()),
    *BASE_HEADERS,
)
CACHEABLE = ("/static/",)  # the pages' own scripts and styles: no seat's state in them
HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def policy(path: str, host: str) -> str:
    """The Content-Security-Policy for an answer to ``path`` asked of ``host`` (the request's Host header: used
    only when it is a plain host name or address, so it cannot add directives)."""
    if path.startswith(DOCS_PATHS):
        return DOCS_CSP
    ws = f" ws://{host} wss://{host}" if HOST.fullmatch(host) else ""
    return CSP.format(ws=ws)


def same_origin(location: bytes) -> bytes:
    """A redirect's ``Location`` as a path on this server: no scheme, no host, no ``//`` at its start."""
    parts = urlsplit(location.decode("latin-1"))
    path = "/" + parts.path.lstrip("/")
    return (
        path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    ).encode("latin-1")


def headers_for(path: str, host: str) -> list[tuple[bytes, bytes]]:
    """Every security header for one answer (see the module docstring)."""
    out = [(b"content-security-policy", policy(path, host).encode())]
    out += [h for h in BASE_HEADERS if not (h[0] == b"cache-control" and path.startswith(CACHEABLE))]
    return out


class SecurityHeaders:
    """Add :func:`headers_for` to every HTTP answer (a header the route set itself is kept as it is)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        extra = headers_for(scope.get("path", ""), host)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, same_origin(value) if name.lower() == b"location" else value)
                    for name, value in message.get("headers", [])
                ]
                present = {name.lower() for name, _ in headers}
                message["headers"] = [*headers, *(h for h in extra if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)
