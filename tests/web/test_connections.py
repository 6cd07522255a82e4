"""Bounded connections (docs/table.md, "Limits"), against a real ``affray serve`` started with short bounds (the same
code as the defaults, which are checked apart, so the suite does not wait half a minute): a client that has not
sent its request headers within the header bound, or its declared body within the body bound, is answered 408 and
disconnected; a WebSocket with no token within 10 s is closed with 4401; headers past 64 KiB are answered 431; at
most the per-address number of connections from one client address are open at once (loopback has many addresses:
127.0.0.2, .3, ...), the next is answered 429 while another address is still served, and a closed connection frees
its place."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvloop
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from affray.web.bounds import MAX_HEADER_BYTES, ConnectionLimits
from affray.web.connections import drop_unacknowledged
from tests.table.test_kill9 import Server
from tests.web.helpers import one_move, tokens_of

MARGIN = 20.0  # seconds past a bound before the test gives up on the server closing the connection
# the served bounds (the defaults: 10 s, 30 s, 64, 10 s)
HEADER_TIMEOUT, BODY_TIMEOUT, PER_ADDRESS, FIRST_MESSAGE = 2.0, 3.0, 8, 2.5
PING = 1.0  # seconds between the server's WebSocket pings (the default: 30 s)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("connections")
    served = Server(
        f"sqlite:///{folder / 'affray.db'}",
        log=folder / "server.log",
        options=(
            "--header-timeout",
            str(HEADER_TIMEOUT),
            "--body-timeout",
            str(BODY_TIMEOUT),
            "--max-connections-per-address",
            str(PER_ADDRESS),
            "--first-message-timeout",
            str(FIRST_MESSAGE),
            "--ws-ping",
            str(PING),
        ),
    )
    served.start()
    yield served
    served.kill()
    assert "Traceback" not in (served.log or Path()).read_text()


def open_socket(server: Server, source: str = "127.0.0.1", timeout: float = 30.0) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def answer_then_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a socket timeout fails the test)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    sock.close()
    return received


def refusal(raw: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def slow_headers(server: Server) -> bytes:
    """The request line and one header, then a byte every second: never the end of the headers."""
    sock = open_socket(server, timeout=HEADER_TIMEOUT + MARGIN)
    sock.sendall(b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    try:
        for _ in range(int(HEADER_TIMEOUT + MARGIN)):
            sock.sendall(b"X")
            time.sleep(1.0)  # a trickle, the attack itself; the server's close ends the loop
    except OSError:
        pass  # the server closed the connection under the trickle
    return answer_then_close(sock)


def silent(server: Server) -> bytes:
    return answer_then_close(open_socket(server, timeout=HEADER_TIMEOUT + MARGIN))


def slow_body(server: Server) -> bytes:
    sock = open_socket(server, timeout=BODY_TIMEOUT + MARGIN)
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"scenario": '
    )
    return answer_then_close(sock)


def tokenless_websocket(server: Server) -> tuple[int, dict[str, Any]]:
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/nosuchtable/ws", open_timeout=30) as ws:
        frame = json.loads(ws.recv(timeout=FIRST_MESSAGE + MARGIN))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=MARGIN)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, frame


def test_the_default_bounds_are_the_documented_ones() -> None:
    """What a server started without options applies (docs/table.md, "Limits")."""
    assert ConnectionLimits() == ConnectionLimits(
        header_timeout=10.0,
        body_timeout=30.0,
        per_address=32,
        pending_per_address=16,
        max_header_bytes=64 * 1024,
        first_message=10.0,
        ping_interval=30.0,
    )


def test_the_server_pings_its_websockets_at_the_interval_it_was_given(server: Server) -> None:
    """``--ws-ping``: a raw WebSocket (no library answering for it) is sent a ping frame (opcode 9) once the
    interval has passed, not before, and before anything else (it has sent no token: its refusal comes at 2.5 s)."""
    sock = open_socket(server, timeout=MARGIN)
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    sock.sendall(
        (
            f"GET /api/tables/nosuchtable/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(4096)
    head, _, rest = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    opened = time.monotonic()
    while len(rest) < 2:
        rest += sock.recv(4096)
    sock.close()
    waited = time.monotonic() - opened
    assert rest[0] & 0x0F == 9, f"the first frame was not a ping but opcode {rest[0] & 0x0F}"
    assert waited >= PING * 0.9, f"pinged after {waited:.2f} s, before the interval of {PING} s"


def frames(sock: socket.socket, until: float) -> Iterator[tuple[float, int]]:
    """``(when it was read, opcode)`` of each frame the server sends on a raw WebSocket (unmasked) until ``until``
    (monotonic time); its reads block, so each frame is stamped as it arrives."""
    buffer = b""
    while True:
        while True:  # one whole frame in the buffer, or read more
            if len(buffer) >= 2:
                size, at = buffer[1] & 0x7F, 2
                if size >= 126:
                    width = 2 if size == 126 else 8
                    size, at = (
                        (int.from_bytes(buffer[2 : 2 + width], "big"), 2 + width)
                        if len(buffer) >= 2 + width
                        else (1 << 62, 0)
                    )
                if len(buffer) >= at + size:
                    break
            left = until - time.monotonic()
            if left <= 0:
                return
            sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                return
            if not chunk:
                return
            buffer += chunk
        yield time.monotonic(), buffer[0] & 0x0F
        buffer = buffer[at + size :]


def test_a_websocket_sent_pushes_is_not_pinged_and_one_idle_for_the_interval_is(server: Server) -> None:
    """A seat's socket sent a push within the ping interval needs no ping (a proxy's idle clock restarts at any
    frame): while its table changes every 0.3 s (interval 1 s) no ping comes less than the interval after the frame
    before it; once the table is still, a ping comes, the interval after the last push."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        created = client.post(
            "/api/tables",
            json={"scenario": "spellchrome/ford_duel", "seed": 3, "controllers": {"tamsin": "human", "vell": "human"}},
        )
        assert created.status_code == 201, created.text
        tokens = tokens_of(created.json())
        table = created.json()["table"]
        sock = open_socket(server, timeout=MARGIN)
        sock.sendall(
            (
                f"GET /api/tables/{table}/ws?token={tokens['tamsin']}&protocol=2 HTTP/1.1\r\n"
                "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        received = b""
        while b"\r\n\r\n" not in received:
            received += sock.recv(4096)
        assert received.startswith(b"HTTP/1.1 101")
        seen: list[tuple[float, int]] = []
        busy_until = time.monotonic() + 2 * PING
        with ThreadPoolExecutor(1) as pool:
            reading = pool.submit(seen.extend, frames(sock, busy_until + PING + MARGIN))
            rng, moves = random.Random(4), 0
            while time.monotonic() < busy_until:
                assert one_move(client, table, tokens, rng), "the fight ended before the busy part did"
                moves += 1
                time.sleep(0.3)  # the pace of the table: a push every 0.3 s, under the interval
            still = time.monotonic()
            while not any(op == 9 and when > still for when, op in seen) and not reading.done():
                time.sleep(0.05)  # until the idle socket's ping, or the reader's bound
            sock.shutdown(socket.SHUT_RDWR)  # wakes the reader's blocked recv (a close from this thread would not)
        sock.close()
    assert moves >= 5
    pushes = [when for when, op in seen if op in (1, 2)]
    pings = [when for when, op in seen if op == 9]
    assert len(pushes) >= moves, seen
    for ping in pings:  # every ping came the interval after the frame before it
        before = max(when for when, _op in seen if when < ping)
        assert ping - before >= PING * 0.9, f"a ping {ping - before:.2f} s after a frame, under the interval"
    idle = [ping for ping in pings if ping > still]
    assert idle, "a socket idle past the interval was not pinged"
    assert idle[0] - max(pushes) >= PING * 0.9


def test_slow_clients_are_disconnected_within_their_bounds(server: Server) -> None:
    """All four at once, so the test lasts about the longest bound (the body's 3 s) rather than their sum."""
    jobs: dict[str, Callable[[Server], Any]] = {
        "trickle": slow_headers,
        "silent": silent,
        "body": slow_body,
        "websocket": tokenless_websocket,
    }
    with ThreadPoolExecutor(len(jobs)) as pool:
        done = {name: pool.submit(job, server) for name, job in jobs.items()}
        results = {name: future.result() for name, future in done.items()}
    assert refusal(results["trickle"]) == (
        408,
        {"code": "slow_headers", "message": "The request's headers did not arrive in time."},
    )
    assert refusal(results["silent"])[1]["code"] == "slow_headers"
    assert refusal(results["body"]) == (
        408,
        {"code": "slow_body", "message": "The request's body did not arrive in time."},
    )
    code, frame = results["websocket"]
    assert code == 4401 and frame == {
        "code": "no_token",
        "message": "Send {'token': TOKEN} as the first message, within 2.5 seconds.",
    }


def test_headers_past_their_limit_are_answered_431(server: Server) -> None:
    sock = open_socket(server)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Junk: " + b"x" * (MAX_HEADER_BYTES + 1024))
    status, body = refusal(answer_then_close(sock))
    assert status == 431 and body["code"] == "headers_too_large"


def test_one_address_has_at_most_its_cap_of_connections_and_others_are_still_served(server: Server) -> None:
    created = httpx.post(
        f"{server.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/yard_duel", "controllers": {"bruna": "human", "tomas": "human"}},
    ).json()
    tokens = [created["gm"]["token"], *(seat["token"] for seat in created["seats"].values())]
    url = f"ws://127.0.0.1:{server.port}/api/tables/{created['table']}/ws?token="
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(
                connect(url + tokens[i % len(tokens)], open_timeout=30, source_address=("127.0.0.3", 0))
            )
            for i in range(PER_ADDRESS)
        ]
        for ws in sockets:
            assert json.loads(ws.recv(timeout=30))["version"] == 0
        status, body = refusal(answer_then_close(open_socket(server, "127.0.0.3")))
        assert status == 429 and body["code"] == "too_many_connections", body
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"), timeout=30) as other:
            assert other.get(f"{server.url}/api/examples").status_code == 200
        sockets[0].close()
        assert served_again(server, "127.0.0.3")


def served_again(server: Server, source: str) -> bool:
    """Whether a new connection from ``source`` is served, within a bounded wait for the server to see a close."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sock = open_socket(server, source)
        sock.sendall(b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        if answer_then_close(sock).startswith(b"HTTP/1.1 200"):
            return True
        time.sleep(0.1)  # polling a condition with a deadline
    return False


def test_a_body_still_arriving_after_its_early_answer_is_no_header_bytes(server: Server) -> None:
    """A body refused early (413: the declared length is over the limit) keeps arriving after its answer: those
    bytes are the old request's body, not the next request's headers (they used to count as such: 431)."""
    sock = open_socket(server)
    size = 300 * 1024
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(size).encode() + b"\r\n\r\n" + b"x" * (100 * 1024)
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413")
    sock.sendall(b"x" * (size - 100 * 1024))
    sock.sendall(b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    rest = answer_then_close(sock)
    assert b"HTTP/1.1 431" not in rest


def test_a_websocket_s_connection_is_dropped_by_the_kernel_once_its_data_stays_unacknowledged() -> None:
    """With pings only for idle sockets, a peer gone while pushes flow is found by the kernel: the server's
    connections carry ``TCP_USER_TIMEOUT`` of the ping interval and the pong's timeout (set here on a real loopback
    connection of uvloop, the server's loop, and read back from its socket)."""
    if not hasattr(socket, "TCP_USER_TIMEOUT"):
        pytest.skip("TCP_USER_TIMEOUT is Linux's")
    found: list[tuple[bool, int]] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            done = drop_unacknowledged(transport, 50.0)
            found.append(
                (done, transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT))
            )
            transport.close()

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Probe, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(500):  # bounded: the server side has seen the connection
            if found:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    uvloop.run(main())
    assert found == [(True, 50_000)]
