"""``GET /metrics`` (docs/table.md, "Metrics") on a real ``affray serve``: its values move as a fight is played, by
exactly what was done (tables, WebSockets and connections open, actions accepted and refused by code, one
action-to-push latency per accepted action, no store errors), and it answers only this host."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from affray.store import StoreError
from affray.table import TableService
from tests.table.test_kill9 import Server
from tests.waiting import wait_for
from tests.web.conftest import create
from tests.web.helpers import auth, play_to_end, tokens_of


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def scrape(server: Server) -> dict[str, float]:
    """Every sample as ``name{label=value,...}`` -> value."""
    answer = httpx.get(f"{server.url}/metrics", timeout=30)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


class Counting(httpx.Client):
    """A client that counts the answers to action submissions by status."""

    accepted = 0

    def post(self, url: Any, **kwargs: Any) -> httpx.Response:
        answer = super().post(url, **kwargs)
        if str(url).endswith("/actions") and answer.status_code == 200:
            self.accepted += 1
        return answer


def test_metrics_move_as_a_fight_is_played(server: Server) -> None:
    before = scrape(server)
    assert before["affray_tables_live"] == 0 and before["affray_websockets_open"] == 0
    assert before.get("affray_actions_total{code=,result=accepted}", 0) == 0
    created = httpx.post(
        f"{server.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/yard_duel", "seed": 11, "controllers": {"bruna": "human", "tomas": "human"}},
    ).json()
    table, tokens = created["table"], tokens_of(created)
    # max_queue=None: the client's reader keeps reading the pushes nobody reads here; with its default bound (16
    # messages) it stops reading, and the close at the end waits out close_timeout (10 s) for the server's reply.
    with connect(
        f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws?token={tokens['spectator']}",
        open_timeout=30,
        max_queue=None,
    ) as ws:
        ws.recv(timeout=30)
        opened = scrape(server)
        assert opened["affray_tables_live"] == 1 and opened["affray_websockets_open"] == 1
        assert opened["affray_connections_open"] >= 2  # the WebSocket and this scrape
        stale = httpx.post(
            f"{server.url}/api/tables/{table}/actions",
            headers=auth(tokens["bruna"]),
            timeout=30,
            json={"actor": "bruna", "action": {"type": "ready"}, "version": 99},
        )
        other = httpx.post(
            f"{server.url}/api/tables/{table}/actions",
            headers=auth(tokens["bruna"]),
            timeout=30,
            json={"actor": "tomas", "action": {"type": "ready"}, "version": 0},
        )
        assert (stale.json()["code"], other.json()["code"]) == ("stale_version", "not_your_seat")
        with Counting(base_url=server.url, timeout=30) as client:
            final = play_to_end(client, table, tokens, seed=4)
        assert final["outcome"] is not None
        played = scrape(server)
    assert played["affray_tables_live"] == 0
    assert played["affray_actions_total{code=,result=accepted}"] == client.accepted > 0
    assert played["affray_actions_total{code=stale_version,result=refused}"] >= 1
    assert played["affray_actions_total{code=not_your_seat,result=refused}"] == 1
    assert played["affray_action_push_seconds_count"] == client.accepted
    assert played["affray_action_push_seconds_sum"] > 0
    assert played["affray_store_errors_total"] == 0
    # the socket's close reaches the server a moment after the client's
    wait_for(lambda: scrape(server)["affray_websockets_open"] == 0, 30, "the closed WebSocket to be uncounted")


def test_metrics_answer_only_this_host(server: Server) -> None:
    """A request that a trusted proxy (loopback) forwards for a client elsewhere is refused."""
    answer = httpx.get(f"{server.url}/metrics", headers={"X-Forwarded-For": "203.0.113.5"}, timeout=30)
    assert answer.status_code == 403 and answer.json()["code"] == "metrics_local_only"


def test_a_store_that_fails_is_counted(
    served: tuple[TableService, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process: the store's append fails (a full disk, a lost server), the caller gets 503 store_unavailable,
    and the metrics count the failure."""
    service, client = served
    created = create(client)
    token = created["seats"]["ilse"]["token"]
    state = client.get(f"/api/tables/{created['table']}", headers=auth(token)).json()
    actor, specs = next((a, s) for a, s in state["legal"].items() if s)

    def failing(*_: object) -> bool:
        raise StoreError("the disk is full")

    monkeypatch.setattr(service.store, "append", failing)
    answer = client.post(
        f"/api/tables/{created['table']}/actions",
        headers=auth(token),
        json={"actor": actor, "action": specs[0]["action"], "version": state["version"]},
    )
    assert answer.status_code == 503 and answer.json()["code"] == "store_unavailable"
    text = cast(FastAPI, client.app).state.metrics.text().decode()
    assert "affray_store_errors_total 1.0" in text
    assert 'affray_actions_total{code="store_unavailable",result="refused"} 1.0' in text
