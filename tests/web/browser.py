"""The browser tests' parts: a live table server in this process (uvicorn in a thread, on a free
127.0.0.1 port, stopped by the fixture) and Debian's Chromium driven by Playwright, never a downloaded browser.

Which Chromium: Debian's *headless shell* (package ``chromium-headless-shell``, ``/usr/bin/chromium-headless-shell``)
when it is installed, else Debian's ``chromium``; ``AFFRAY_BROWSER=/path/to/chromium`` chooses one. Both are built
from Debian's one ``chromium`` source at one version (the shell depends on ``chromium-common`` of its own version):
the same Blink and V8, the same pages, clicks and screenshots, but the shell is Chromium's own build for automation,
without the desktop browser's layer around the engine, and it drew the 19 browser tests with half the CPU
(64 s against 124 s, docs/performance.md, "The sixth pass"), which is what keeps ``make test`` under three minutes
on two cores. This departs from "launch Debian's ``chromium``" in the letter only: a Debian package, launched by its
path, never a download. ``make test`` installs both when it runs as root.

Every wait is bounded: Playwright's own expectations (``expect(...).to_have_text(..., timeout=...)``) or
:func:`wait_for` over a condition.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn

from affray.store import Store
from affray.table import TableService
from affray.web.app import create_app
from affray.web.limits import RateLimiter
from tests.waiting import wait_for

#: Debian's Chromium builds, in the order the tests prefer them (the module docstring says why).
BROWSERS = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The screenshots the browser tests take: into a temporary folder, or into the docs' images when
# AFFRAY_CAPTURE_DOCS=1 (so an ordinary test run never rewrites files of the source tree).
_DOCS = Path(__file__).parents[2] / "docs" / "img"
DOCS_IMG = _DOCS if os.environ.get("AFFRAY_CAPTURE_DOCS") == "1" else Path(tempfile.gettempdir()) / "affray-shots"
DOCS_IMG.mkdir(parents=True, exist_ok=True)
STARTUP = 15.0


def require_chromium() -> Path:
    """The browser (``AFFRAY_BROWSER``, else the first of :data:`BROWSERS` installed, else ``chromium`` on the
    PATH), or a failure (never a skip) that says what to install."""
    chosen = os.environ.get("AFFRAY_BROWSER")
    if chosen:
        if not Path(chosen).exists():
            pytest.fail(f"AFFRAY_BROWSER names {chosen}, which does not exist.")
        return Path(chosen)
    found = next((path for path in BROWSERS if path.exists()), None) or shutil.which("chromium")
    if found is None:
        pytest.fail(
            "The browser tests need Debian's Chromium: run 'apt-get install -y chromium-headless-shell "
            "chromium' as root (make test does it when it runs as root)."
        )
    return Path(found)


@dataclass
class LiveServer:
    """A table server listening on ``url`` (127.0.0.1 only)."""

    url: str
    service: TableService
    store: Store


@contextmanager
def live_server(db: Path | str, policy_pause: float = 0.05) -> Iterator[LiveServer]:
    """Serve a fresh table service over ``db`` (an SQLite file, or a database URL) until the block ends."""
    store = Store(db if isinstance(db, str) else f"sqlite:///{db}")
    service = TableService(store, policy_pause=policy_pause)
    app = create_app(service, limiter=RateLimiter(rate=1e6, burst=1e6))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, STARTUP, "the table server to start")
        yield LiveServer(f"http://127.0.0.1:{port}", service, store)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        service.close()
        store.close()


class Relay:
    """A TCP relay on 127.0.0.1 in front of a server: the network between a browser and the server, which
    :meth:`cut` breaks (every connection through it closes at once, as when a phone's network blips); new
    connections go through again at once, to the server :meth:`to` names last. Open pages at :attr:`url`; close
    the relay with :meth:`close`."""

    def __init__(self, server_url: str) -> None:
        self.upstream = ("", 0)
        self.to(server_url)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.links: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def to(self, server_url: str) -> None:
        """Relay new connections to ``server_url`` (another process of the table server, as a balancer would)."""
        parts = urlsplit(server_url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                far = socket.create_connection(self.upstream, timeout=STARTUP)
            except OSError:
                near.close()
                continue
            far.settimeout(None)
            with self.lock:
                self.links |= {near, far}
            threading.Thread(target=self._pump, args=(near, far), daemon=True).start()
            threading.Thread(target=self._pump, args=(far, near), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass  # cut, or closed by the other side
        finally:
            self._drop(source, sink)

    def _drop(self, *ends: socket.socket) -> None:
        with self.lock:
            for end in ends:
                self.links.discard(end)
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)  # wakes the pump blocked on it
                end.close()

    def cut(self) -> None:
        """Close every connection through the relay now."""
        with self.lock:
            links = list(self.links)
        self._drop(*links)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (closing alone does not)
        self.listener.close()
        self.cut()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's) under Playwright, for one test: every page it opens is in a context of its own
    (:func:`open_seat`), and every context is closed when the block ends.

    One Chromium serves every test of a test process: started by the first block, stopped when the process ends
    (:func:`_stop_chromium`, at exit). Starting Playwright and Chromium took about a second of each browser test;
    contexts keep the tests apart as separate browser profiles would (own cookies, storage and cache)."""
    browser = _shared_browser()
    try:
        yield browser
    finally:
        for context in list(browser.contexts):
            context.close()


_running: list[Any] = []  # [playwright, browser] once started in this process


def _shared_browser() -> Any:
    if _running and _running[1].is_connected():
        return _running[1]
    _stop_chromium()
    from playwright.sync_api import sync_playwright

    path = require_chromium()
    playwright = sync_playwright().start()
    _running[:] = [playwright, playwright.chromium.launch(executable_path=str(path), args=CHROMIUM_ARGS)]
    return _running[1]


@atexit.register
def _stop_chromium() -> None:
    if _running:
        playwright, browser = _running
        _running.clear()
        with contextlib.suppress(Exception):  # a browser that already went away has nothing to close
            browser.close()
        playwright.stop()


def record_frames(page: Any, into: list[str], sent: list[str] | None = None) -> None:
    """Keep every WebSocket frame ``page`` receives (to search them for secrets), and those it sends in ``sent``."""

    def text(payload: str | bytes) -> str:
        return payload if isinstance(payload, str) else payload.decode(errors="replace")

    def heard(ws: Any) -> None:
        ws.on("framereceived", lambda payload: into.append(text(payload)))
        if sent is not None:
            ws.on("framesent", lambda payload: sent.append(text(payload)))

    page.on("websocket", heard)


@dataclass
class Seat:
    """One person's browser at the table: the page, every WebSocket frame it received and sent, the addresses of
    the API requests it made (``METHOD /path``), and its script errors."""

    page: Any
    frames: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def open_seat(browser: Any, url: str, width: int = 1200) -> Seat:
    """A page in a fresh browser context (its own storage, as another person's browser) opened at ``url``."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    seat = Seat(context.new_page())
    record_frames(seat.page, seat.frames, seat.sent)
    seat.page.on(
        "request",
        lambda request: (
            seat.requests.append(f"{request.method} {urlsplit(request.url).path}") if "/api/" in request.url else None
        ),
    )
    seat.page.on("pageerror", lambda exc: seat.errors.append(str(exc)))
    seat.page.goto(url)
    return seat


def synced(seats: dict[str, Seat], version: int, timeout: float = 15_000) -> None:
    """Wait until every page shows ``version`` or a later one (its last WebSocket message: changes that come close
    together may reach a page as one message)."""
    for seat in seats.values():
        # Polled on a timer: a page in the background gets no animation frames to poll on.
        seat.page.wait_for_function(
            "v => window.affray && window.affray.msg && window.affray.msg.version >= v",
            arg=version,
            timeout=timeout,
            polling=10,
        )


def due(page: Any) -> int:
    """How many actors of the page's seat are due to act."""
    count: int = page.evaluate("Object.keys(window.affray.msg.legal || {}).length")
    return count


def create_from_lobby(page: Any, example: str, controllers: dict[str, str], seed: int) -> str:
    """The GM opens a table from the lobby (the example, who plays whom: a player letter "player:A", "gm" or
    "policy:NAME", a public seed); returns the table id."""
    page.goto(page.url.split("/t/")[0].rstrip("/") + f"/?example={example}")
    page.wait_for_selector("[data-controller]")
    for actor, controller in controllers.items():
        page.select_option(f'[data-controller="{actor}"]', controller)
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("[data-link]")
    table: str = page.url.split("/t/")[1].split("#")[0]
    return table
