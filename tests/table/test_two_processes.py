"""Several server processes on one PostgreSQL (docs/table.md): two real ``affray serve`` processes share a
database; a table opened on one is played through both, a seat connected by WebSocket to the second hears every
action accepted by the first (LISTEN/NOTIFY), and the fight ends with a log that verifies."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from affray.core.log import verify
from tests.table.test_kill9 import Server


@pytest.fixture
def servers(pg_url: str) -> Iterator[list[Server]]:
    both = [Server(pg_url), Server(pg_url)]
    for server in both:
        server.start()
    yield both
    for server in both:
        server.kill()


def test_two_processes_serve_one_table_and_push_to_each_other(servers: list[Server]) -> None:
    a, b = servers
    created = httpx.post(
        f"{a.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/yard_duel", "seed": 5, "controllers": {"bruna": "human", "tomas": "human"}},
    ).json()
    table = created["table"]
    tokens = {seat: created["seats"][seat]["token"] for seat in ("bruna", "tomas")}
    rng = random.Random(5)
    with connect(f"ws://127.0.0.1:{b.port}/api/tables/{table}/ws?token={tokens['tomas']}", open_timeout=30) as ws:
        seen = json.loads(ws.recv(timeout=30))["version"]
        for move in range(400):
            server = (a, b)[move % 2]  # each request through the other process
            state = _get(server, table, tokens["bruna"])
            if state["outcome"] is not None:
                break
            acted = _act(server, table, tokens, rng)
            if acted is not None and server is a:
                while seen < acted:  # the push from the other process (recv is bounded)
                    seen = json.loads(ws.recv(timeout=30))["version"]
        assert _get(a, table, tokens["bruna"])["outcome"] is not None
    log = _get(b, table, tokens["tomas"], "/log")
    assert verify(log).ok and log["chain"] == _get(a, table, tokens["bruna"])["chain"]


def _get(server: Server, table: str, token: str, path: str = "") -> dict[str, Any]:
    answer = httpx.get(
        f"{server.url}/api/tables/{table}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _act(server: Server, table: str, tokens: dict[str, str], rng: random.Random) -> int | None:
    """The first seat with a due actor acts through ``server``; the new version if accepted."""
    for token in tokens.values():
        state = _get(server, table, token)
        for actor, specs in state["legal"].items():
            answer = httpx.post(
                f"{server.url}/api/tables/{table}/actions",
                timeout=30,
                headers={"Authorization": f"Bearer {token}"},
                json={"actor": actor, "action": rng.choice(specs)["action"], "version": state["version"]},
            )
            assert answer.status_code in (200, 409), answer.text
            return int(answer.json()["version"]) if answer.status_code == 200 else None
    return None
