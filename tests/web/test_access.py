"""Access (docs/table.md, 'The security model'): every endpoint refuses a missing or wrong token; a seat cannot act for
an actor it does not control, read another seat's view or use a GM tool; a replaced token stops working at once."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import create
from tests.web.helpers import auth

ENDPOINTS = [
    ("GET", "", None),
    ("GET", "?compact=1", None),
    ("GET", "/log", None),
    ("POST", "/actions", {"actor": "ilse", "action": {"type": "ready"}, "version": 0}),
    ("POST", "/take_back", {"version": 0}),
    ("POST", "/gm/take_back", {"to": 0, "version": 0, "confirm": True}),
    ("POST", "/gm/pause", None),
    ("POST", "/gm/resume", None),
    ("POST", "/gm/timer", {"seconds": 5}),
    ("POST", "/gm/seats/ilse/token", None),
    ("POST", "/gm/end", None),
    ("GET", "/gm/export", None),
    ("GET", "/gm/audit", None),
]
GM_TOOLS = [e for e in ENDPOINTS if e[1].startswith("/gm/")]


def call(client: TestClient, table: str, endpoint: tuple[str, str, object], headers: dict[str, str]) -> object:
    method, path, body = endpoint
    return client.request(method, f"/api/tables/{table}{path}", json=body, headers=headers)


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: f"{e[0]} {e[1] or '/'}")
def test_every_endpoint_refuses_missing_and_wrong_tokens(client: TestClient, endpoint: tuple[str, str, object]) -> None:
    created = create(client)
    other = create(client)
    for headers in ({}, auth("not-a-token"), {"Authorization": "Basic abc"}, auth(other["gm"]["token"])):
        answer = call(client, created["table"], endpoint, headers)
        assert answer.status_code == 401, (headers, answer.text)  # type: ignore[attr-defined]
        assert set(answer.json()) == {"code", "message"}  # type: ignore[attr-defined]
    assert client.get(f"/api/tables/{created['table']}", headers=auth(created["gm"]["token"])).json()["version"] == 0


@pytest.mark.parametrize("endpoint", GM_TOOLS, ids=lambda e: e[1])
def test_players_and_the_spectator_cannot_use_gm_tools(client: TestClient, endpoint: tuple[str, str, object]) -> None:
    created = create(client)
    for seat in ("ilse", "spectator"):
        answer = call(client, created["table"], endpoint, auth(created["seats"][seat]["token"]))
        assert answer.status_code == 403 and answer.json()["code"] == "gm_only"  # type: ignore[attr-defined]


def test_a_seat_cannot_act_for_an_actor_it_does_not_control(client: TestClient) -> None:
    created = create(client, seed=3)
    table = created["table"]
    for seat, actor in (("ilse", "tomas"), ("ilse", "hob"), ("spectator", "ilse"), ("gm", "ilse"), ("ilse", "nobody")):
        answer = client.post(
            f"/api/tables/{table}/actions",
            headers=auth(created["seats"].get(seat, created["gm"])["token"]),
            json={"actor": actor, "action": {"type": "ready"}, "version": 0},
        )
        assert answer.status_code == 403 and answer.json()["code"] == "not_your_seat", (seat, actor)
    assert client.get(f"/api/tables/{table}", headers=auth(created["gm"]["token"])).json()["version"] == 0


def test_a_token_reads_only_its_own_seat(client: TestClient) -> None:
    created = create(client, seed=3)
    table = created["table"]
    for seat in ("ilse", "tomas", "spectator"):
        state = client.get(f"/api/tables/{table}", headers=auth(created["seats"][seat]["token"])).json()
        assert state["seat"] == seat
    assert client.get(f"/api/tables/{table}", headers=auth(created["gm"]["token"])).json()["seat"] == "gm"


def test_a_replaced_token_stops_working_at_once(client: TestClient) -> None:
    created = create(client, seed=3)
    table, gm, old = created["table"], created["gm"]["token"], created["seats"]["tomas"]["token"]
    new = client.post(f"/api/tables/{table}/gm/seats/tomas/token", headers=auth(gm)).json()
    assert new["link"] == f"/t/{table}#{new['token']}" and new["token"] != old
    assert client.get(f"/api/tables/{table}", headers=auth(old)).status_code == 401
    assert (
        client.post(
            f"/api/tables/{table}/actions",
            headers=auth(old),
            json={"actor": "tomas", "action": {"type": "ready"}, "version": 0},
        ).status_code
        == 401
    )
    assert client.get(f"/api/tables/{table}", headers=auth(new["token"])).json()["seat"] == "tomas"


def test_the_websocket_refuses_a_wrong_token(client: TestClient) -> None:
    created = create(client)
    with client.websocket_connect(f"/api/tables/{created['table']}/ws") as ws:
        ws.send_json({"token": "wrong"})
        assert ws.receive_json()["code"] == "bad_token"


def test_a_creation_key_is_required_when_the_server_has_one(store: object) -> None:
    from affray.store import Store
    from tests.web.helpers import make_app

    assert isinstance(store, Store)
    service, app = make_app(store, create_key="sesame")
    with TestClient(app) as client:
        body = {"scenario": "witchhammer/mill_ambush"}
        assert client.post("/api/tables", json=body).status_code == 401
        assert (
            client.post("/api/tables", json=body, headers={"X-Create-Key": "wrong"}).json()["code"] == "bad_create_key"
        )
        assert client.post("/api/tables", json=body, headers={"X-Create-Key": "sesame"}).status_code == 201
    service.close()


def test_a_token_is_rate_limited(store: object) -> None:
    from affray.store import Store
    from affray.table import TableService
    from affray.web.app import create_app
    from affray.web.limits import RateLimiter

    assert isinstance(store, Store)
    service = TableService(store, policy_pause=0)
    clock = [0.0]
    app = create_app(service, limiter=RateLimiter(rate=1, burst=3, clock=lambda: clock[0]))
    with TestClient(app) as client:
        created = create(client)
        token = created["seats"]["ilse"]["token"]
        codes = [client.get(f"/api/tables/{created['table']}", headers=auth(token)).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        clock[0] += 1.0
        assert client.get(f"/api/tables/{created['table']}", headers=auth(token)).status_code == 200
    service.close()
