"""Races (two clients at one version: one wins) and several servers on one database.

Two servers (each its own Store and TableService, as two processes would have) hold the same table; two clients
submit at the same version through different servers at the same moment: the database's unique (table, seq) lets
exactly one in, on SQLite and on PostgreSQL. On PostgreSQL an action taken through one server is pushed to a seat
connected to the other (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.store import Store
from affray.table import TableService
from affray.table.feed import Follower, Push
from affray.table.state import Table
from affray.web.app import create_app
from affray.web.limits import RateLimiter
from tests.waiting import until
from tests.web.conftest import create
from tests.web.helpers import auth, make_app, race


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'affray.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def two_servers(db_url: str) -> Iterator[list[tuple[TableService, TestClient]]]:
    yield from _servers(db_url)


@pytest.fixture
def two_pg_servers(pg_url: str) -> Iterator[list[tuple[TableService, TestClient]]]:
    yield from _servers(pg_url)


def _servers(db_url: str) -> Iterator[list[tuple[TableService, TestClient]]]:
    stores = [Store(db_url), Store(db_url)]
    servers = [make_app(store) for store in stores]
    clients = [TestClient(app) for _, app in servers]
    for client in clients:
        client.__enter__()
    yield [(service, client) for (service, _), client in zip(servers, clients, strict=True)]
    for client in clients:
        client.__exit__(None, None, None)
    for (service, _), store in zip(servers, stores, strict=True):
        service.close()
        store.close()


def _plan(client: TestClient, table: str, token: str, pick: int = 0) -> tuple[TestClient, str, dict[str, Any]]:
    state = client.get(f"/api/tables/{table}", headers=auth(token)).json()  # loads the table from the store
    actor, specs = next(iter(state["legal"].items()))
    return client, token, {"actor": actor, "action": specs[pick]["action"], "version": state["version"]}


def test_one_player_acting_twice_at_one_version_through_two_servers_gets_exactly_one_in(
    two_servers: list[tuple[TableService, TestClient]],
) -> None:
    """A real conflict: the same seat (two devices, each on another server) acts twice at version 0. The database's
    unique (table, seq) lets one in; the other is 409 ``stale_version``, reason ``acted_since``."""
    (_, a), (_, b) = two_servers
    created = create(a, seed=3)
    table, ilse = created["table"], created["seats"]["ilse"]["token"]
    answers = race(table, [_plan(a, table, ilse, 0), _plan(b, table, ilse, 1)])
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    loser = next(answer for answer in answers if answer.status_code == 409)
    assert (loser.json()["code"], loser.json()["reason"]) == ("stale_version", "acted_since")
    for client in (a, b):
        state = client.get(f"/api/tables/{table}", params={"since": 0, "timeout": 5}, headers=auth(ilse)).json()
        assert [entry["actor"] for entry in state["log"][:1]] == ["ilse"]
        assert sum(entry["actor"] == "ilse" for entry in state["log"]) == 1


def test_two_players_planning_at_one_version_through_two_servers_are_both_taken(
    two_servers: list[tuple[TableService, TestClient]],
) -> None:
    """Rule: WH-03. Two players plan at once through two servers: the loser of the database's race submits again on
    the table as the winner left it, and its move still stands (``chosen_at`` 0)."""
    (_, a), (_, b) = two_servers
    created = create(a, seed=3)
    table = created["table"]
    ilse, tomas = created["seats"]["ilse"]["token"], created["seats"]["tomas"]["token"]
    answers = race(table, [_plan(a, table, ilse), _plan(b, table, tomas)])
    assert [answer.status_code for answer in answers] == [200, 200], [answer.text for answer in answers]
    assert sorted(answer.json()["seq"] for answer in answers) == [0, 1]
    assert [answer.json().get("chosen_at") for answer in answers if answer.json()["seq"] == 1] == [0]


def test_an_action_through_one_server_reaches_a_seat_connected_to_another(
    two_pg_servers: list[tuple[TableService, TestClient]],
) -> None:
    (_, a), (_, b) = two_pg_servers
    created = create(a, seed=3)
    table = created["table"]
    ilse, tomas = created["seats"]["ilse"]["token"], created["seats"]["tomas"]["token"]
    with b.websocket_connect(f"/api/tables/{table}/ws?token={tomas}") as ws:
        assert ws.receive_json()["version"] == 0
        state = a.get(f"/api/tables/{table}", headers=auth(ilse)).json()
        actor, specs = next(iter(state["legal"].items()))
        assert (
            a.post(
                f"/api/tables/{table}/actions",
                headers=auth(ilse),
                json={"actor": actor, "action": specs[0]["action"], "version": 0},
            ).status_code
            == 200
        )
        pushed = ws.receive_json()
        assert pushed["version"] == 1 and pushed["seat"] == "tomas" and pushed["log"][0]["actor"] == actor


EVERYONE_HUMAN = {actor: "human" for actor in ("ilse", "tomas", "hob", "wat", "dick")}  # the mill's villagers: the GM's


def _act_through(client: TestClient, table: str, tokens: list[str]) -> int:
    """The first due seat's first legal action through ``client``; the new version."""
    token = next(t for t in tokens if client.get(f"/api/tables/{table}", headers=auth(t)).json()["legal"])
    _, _, body = _plan(client, table, token)
    answer = client.post(f"/api/tables/{table}/actions", headers=auth(token), json=body)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["version"])


def _created_on(service: TableService, client: TestClient) -> tuple[str, list[str], Table]:
    """A table of people only, created through ``client`` (so ``service`` holds it, and nobody hears it there): its
    id, the GM's and two players' tokens, and ``service``'s copy."""
    created = create(client, seed=3, controllers=EVERYONE_HUMAN)
    table = created["table"]
    tokens = [created["gm"]["token"], *(created["seats"][seat]["token"] for seat in ("ilse", "tomas"))]
    return table, tokens, next(t for t in service.held() if t.id == table)


def test_a_server_nobody_hears_a_table_on_catches_it_up_at_its_next_use_not_at_every_change(
    two_pg_servers: list[tuple[TableService, TestClient]],
) -> None:
    """docs/table.md, "Several processes": behind a proxy that routes each table to one process, the process that
    created a table keeps it in memory while the other serves it. It reads none of the other's records as they come
    (nobody hears the table there); its next request catches up and answers exactly what the other one does."""
    (service_a, a), (_, b) = two_pg_servers
    table, tokens, held = _created_on(service_a, a)  # A created it: A holds it, and nobody hears it on A
    versions = [_act_through(b, table, tokens) for _ in range(3)]
    assert versions[0] == 1 and versions == sorted(set(versions))
    # changes that append no record, which A must read from the table's row: a chat line and the GM's pause
    assert (
        b.post(f"/api/tables/{table}/chat", headers=auth(tokens[1]), json={"text": "Hold the door!"}).status_code == 200
    )
    assert b.post(f"/api/tables/{table}/gm/pause", headers=auth(tokens[0])).status_code == 200
    assert until(lambda: held.behind_store, 30), "server A never heard server B's notices"
    assert held.version == 0 and not held.chat and not held.paused  # nothing read for nobody
    assert [a.get(f"/api/tables/{table}", headers=auth(token)).json() for token in tokens] == [
        b.get(f"/api/tables/{table}", headers=auth(token)).json() for token in tokens
    ]
    assert held.version == versions[-1] and not held.behind_store
    assert held.paused and [line.body["text"] for line in held.chat] == ["Hold the door!"]


def test_a_seat_that_connects_to_a_server_a_table_is_behind_on_is_sent_the_table_as_it_is(
    two_pg_servers: list[tuple[TableService, TestClient]],
) -> None:
    """The same, through a WebSocket: its first message is the current one, and the actions after it (taken through
    the other server) are pushed to it, since the table is now heard there."""
    (service_a, a), (_, b) = two_pg_servers
    table, tokens, held = _created_on(service_a, a)
    _act_through(b, table, tokens)
    assert until(lambda: held.behind_store, 30)
    with a.websocket_connect(f"/api/tables/{table}/ws?token={tokens[2]}") as ws:
        assert ws.receive_json()["version"] == 1
        version = _act_through(b, table, tokens)
        assert ws.receive_json()["version"] == version


def test_a_policy_move_due_on_a_table_behind_is_made_when_it_catches_up(pg_url: str) -> None:
    """A process that appended a human's action and stopped before its policy move (B here never makes one): A,
    behind on that table, schedules the move due when it catches up at its next use, and makes it."""
    stores = [Store(pg_url), Store(pg_url)]
    service_a, app_a = make_app(stores[0])
    service_b = TableService(stores[1], policy_pause=3600)  # its policy moves never come within the test
    try:
        with TestClient(app_a) as a, TestClient(create_app(service_b, limiter=RateLimiter(1e6, 1e6))) as b:
            created = create(a, seed=3)  # the villagers are the policy's
            table = created["table"]
            tokens = [created["seats"][seat]["token"] for seat in ("ilse", "tomas")]
            held = next(t for t in service_a.held() if t.id == table)
            version = 0
            for _ in range(20):  # humans act through B until a villager is due, whom B will not move
                if not any(b.get(f"/api/tables/{table}", headers=auth(t)).json()["legal"] for t in tokens):
                    break
                version = _act_through(b, table, tokens)
            assert version > 0 and until(lambda: held.behind_store, 30)
            assert held.version < version
            a.get(f"/api/tables/{table}", headers=auth(tokens[0]))  # its next use
            assert until(lambda: held.version > version, 30), "A never made the villagers' due move"
    finally:
        for service in (service_a, service_b):
            service.close()
        for store in stores:
            store.close()


def test_following_a_table_that_is_behind_first_sends_it_as_the_store_has_it(
    two_pg_servers: list[tuple[TableService, TestClient]],
) -> None:
    """:meth:`TableService.follow` catches up under the table's lock: a notice that came after the seat's token was
    checked (the table then current) and before its follow (nobody hearing yet) left the table behind; the first
    push is still the table at the store's version."""
    (service_a, a), (_, b) = two_pg_servers
    table_id, tokens, _ = _created_on(service_a, a)
    table, seat = service_a.authenticate(table_id, tokens[2])  # checked while current (version 0)
    version = _act_through(b, table_id, tokens)  # then the other server's change, heard by nobody here
    assert until(lambda: table.behind_store, 30)
    pushes: list[Push] = []
    service_a.follow(table, Follower(seat, seat.token_hash or "", pushes.append))
    assert json.loads(pushes[0].text)["version"] == version
