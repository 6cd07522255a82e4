"""Slow clients cannot fill the server (docs/table.md, "Limits: a server on a public address"), the
attack as it was made, on a small scale: a real ``affray serve`` on 127.0.0.1 with small bounds set by its flags
(48 connections in all, 12 per address, 4 incomplete requests per address, and header and body bounds longer than
the test, so the flood is never cleared by a timeout), flooded from many loopback addresses (127.0.0.2, .3, ...) with
connections that send their headers, or their declared body, a line every 0.2 s and open again as soon as the
server closes one, while a real client on 127.0.0.1 sends its 50 requests, each on a new connection.

Once, 36 addresses × 60 such connections held all 2,048 places of a server and 93 % of a real client's requests
were answered 503. Here the attempts (up to 288 connections) are several times the server's 48 places, and 95 % of
the real client's requests must be served: a few addresses cannot reach the limit (each holds 4 incomplete requests
at most: one more sheds its oldest), and many addresses that could are shed, oldest first, as new connections come.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from affray.web.connections import reserve
from tests.table.test_kill9 import Server

MAX_CONNECTIONS, PER_ADDRESS, PENDING = 48, 12, 4
TRICKLE = 0.2  # seconds between two lines of a slow request
REOPEN = 0.1  # seconds after the server closed one before the flood opens the next
REQUESTS, SERVED = 50, 0.95  # the real client's requests, and the share of them that must be answered 200
WARM_UP = 1.5  # seconds the flood runs (bounded wait for it to be in force) before the real client starts


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("slow")
    served = Server(
        f"sqlite:///{folder / 'affray.db'}",
        log=folder / "server.log",
        options=(
            "--max-connections",
            str(MAX_CONNECTIONS),
            "--max-connections-per-address",
            str(PER_ADDRESS),
            "--max-pending-per-address",
            str(PENDING),
            "--header-timeout",
            "60",
            "--body-timeout",
            "60",
        ),
    )
    served.start()
    yield served
    served.kill()
    assert "Traceback" not in (served.log or Path()).read_text()


class Flood:
    """``per_address`` slow connections from each of ``addresses`` loopback addresses, each opened again
    ``REOPEN`` s after the server closes it, on an event loop of its own thread while the ``with`` block runs;
    ``opened`` counts them."""

    def __init__(self, port: int, addresses: int, per_address: int, body: bool) -> None:
        self.port, self.body = port, body
        self.sources = [f"127.0.0.{2 + i}" for i in range(addresses)]
        self.per_address = per_address
        self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def __enter__(self) -> Flood:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        assert not self._thread.is_alive()

    async def _run(self) -> None:
        await asyncio.gather(*(self._keep(source) for source in self.sources for _ in range(self.per_address)))

    async def _keep(self, source: str) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                await self._one(source)
            await asyncio.sleep(REOPEN)  # then open the next one

    async def _one(self, source: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0))
        self.opened += 1
        try:
            if self.body:
                writer.write(
                    b"POST /api/scenarios/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
                )
            else:
                writer.write(b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while not self._stop.is_set():
                await writer.drain()
                try:  # anything from the server (an answer, the close) ends this connection
                    if await asyncio.wait_for(reader.read(65536), TRICKLE) is not None:
                        return
                except TimeoutError:
                    writer.write(b" " if self.body else b"X-Slow: 1\r\n")
        finally:
            writer.close()


def served_requests(port: int) -> list[int]:
    """The real client: ``REQUESTS`` requests from 127.0.0.1 one after the other, each on a new connection; the status
    of each (0: the connection was closed without an answer)."""
    statuses = []
    for _ in range(REQUESTS):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        statuses.append(int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else 0)
    return statuses


def in_force(flood: Flood, connections: int) -> None:
    """Wait (bounded) until the flood has opened ``connections`` connections and ran ``WARM_UP`` seconds."""
    deadline = time.monotonic() + 30
    started = time.monotonic()
    while flood.opened < connections or time.monotonic() - started < WARM_UP:
        assert time.monotonic() < deadline, f"the flood opened only {flood.opened} connections"
        time.sleep(0.05)  # polling the flood's progress, with a deadline


@pytest.mark.parametrize("body", [False, True], ids=["slow-headers", "slow-body"])
def test_a_few_addresses_cannot_fill_the_server(server: Server, body: bool) -> None:
    """8 addresses × 12 slow connections (96, twice the server's 48): each address holds at most 4 incomplete
    requests at once (its fifth sheds its oldest), 32 in all, so the real client is served."""
    with Flood(server.port, addresses=8, per_address=PER_ADDRESS, body=body) as flood:
        in_force(flood, 8 * PER_ADDRESS)
        held = open_connections(server)
        statuses = served_requests(server.port)
    assert statuses.count(200) >= SERVED * REQUESTS, Counter(statuses)
    assert held <= 8 * PENDING + 1, held  # the flood's, and the scrape's own
    assert flood.opened > 2 * 8 * PER_ADDRESS  # the flood's connections were shed and opened again, many times


def open_connections(server: Server) -> int:
    """The server's count of open connections (``/metrics``, ``affray_connections_open``)."""
    text = httpx.get(f"{server.url}/metrics", timeout=30).text
    return int(
        float(next(line.split()[1] for line in text.splitlines() if line.startswith("affray_connections_open ")))
    )


@pytest.mark.parametrize("body", [False, True], ids=["slow-headers", "slow-body"])
def test_many_addresses_are_shed_oldest_first_and_the_real_client_is_served(server: Server, body: bool) -> None:
    """24 addresses × 12 slow connections (288; 4 each held at once would be 96, twice the 48 places): from the
    45th open connection on (48 less the 3 kept free), each new one sheds the oldest waiting one, so the real
    client's connections find a place."""
    assert MAX_CONNECTIONS - reserve(MAX_CONNECTIONS) == 45
    with Flood(server.port, addresses=24, per_address=PER_ADDRESS, body=body) as flood:
        in_force(flood, 24 * PER_ADDRESS)
        statuses = served_requests(server.port)
    assert statuses.count(200) >= SERVED * REQUESTS, Counter(statuses)
