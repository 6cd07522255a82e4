"""Security headers on every answer (docs/table.md, "Security headers"), from a real ``affray serve``: every route of
its OpenAPI document and every page, refusals included (404, 413, the connection guard's 429), carry the
Content-Security-Policy that allows only the server's own scripts, styles, images and WebSocket, ``nosniff``,
``no-referrer``, ``DENY`` framing, and ``Cache-Control: no-store`` (the static files alone may be cached)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest

from affray.web.headers import DOCS_CSP
from tests.table.test_kill9 import Server
from tests.web.helpers import auth

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self' "
    "ws://127.0.0.1:{port} wss://127.0.0.1:{port}; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    server = Server(f"sqlite:///{tmp_path_factory.mktemp('headers') / 'affray.db'}")
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "witchhammer/yard_duel", "controllers": {"bruna": "human", "tomas": "human"}},
        )
        assert created.status_code == 201
        yield server, created.json()
    finally:
        server.kill()


def check(answer: httpx.Response, port: int) -> None:
    where = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
    expected = DOCS_CSP if answer.request.url.path in ("/docs", "/redoc") else CSP.format(port=port)
    assert answer.headers.get("content-security-policy") == expected, where
    assert answer.headers.get("x-content-type-options") == "nosniff", where
    assert answer.headers.get("referrer-policy") == "no-referrer", where
    assert answer.headers.get("x-frame-options") == "DENY", where
    cache = answer.headers.get("cache-control")
    assert cache == "no-store" or (answer.request.url.path.startswith("/static/") and cache is None), where


def test_every_route_and_page_carries_the_security_headers(served: tuple[Server, dict[str, Any]]) -> None:
    server, created = served
    answers = []
    with httpx.Client(base_url=server.url, timeout=30, headers=auth(created["gm"]["token"])) as http:
        spec = http.get("/openapi.json").json()
        values = {
            "table_id": created["table"],
            "seat_name": "tomas",
            "ruleset": "hud",
            "item_id": "drowner",
            "fight_id": "nosuchfight",
        }
        for path, methods in spec["paths"].items():
            url = re.sub(r"\{(\w+)\}", lambda m: values[m[1]], path)
            for method in methods:
                answers.append(http.request(method.upper(), url, json={} if method != "get" else None))
        for page in (
            "/",
            f"/t/{created['table']}",
            "/static/style.css",
            "/static/table.js",
            "/docs",
            "/redoc",
            "/nosuchpage",
            "/api/tables/nosuchtable",
        ):
            answers.append(http.get(page))
        answers.append(http.post("/api/tables", json={"scenario": "witchhammer/yard_duel"}))  # 201: new tokens
        answers.append(http.post("/api/tables", content=b"x" * (300 * 1024)))  # 413, from the body limit
        answers.append(http.post("/api/tables", content=b'{"scenario": "\\udc00"}'))  # 400, from the text check
    assert len(answers) > 25
    for answer in answers:
        check(answer, server.port)
    assert {a.status_code for a in answers} >= {200, 201, 400, 404, 413, 422}


def test_the_connection_guards_own_refusals_carry_them_too(served: tuple[Server, dict[str, Any]]) -> None:
    server, _ = served
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * (70 * 1024))
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head = raw.partition(b"\r\n\r\n")[0].decode().lower()
    assert head.startswith("http/1.1 431")
    for line in (
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
        "x-frame-options: deny",
        "cache-control: no-store",
    ):
        assert line in head
