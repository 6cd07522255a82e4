"""The table API end to end, in process (docs/table.md, 'The API'): create, play, retry, refuse, GM tools, log."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi.testclient import TestClient

from affray.core.chain import chain_problems
from affray.core.log import verify
from affray.core.rng import seed_from_int
from affray.store import Store
from affray.table import TableService
from tests.web.conftest import create
from tests.web.helpers import auth, play_to_end, tokens_of


def state(client: TestClient, table: str, token: str, **params: Any) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", headers=auth(token), params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def due(client: TestClient, table: str, token: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    s = state(client, table, token)
    actor, specs = next(iter(s["legal"].items()))
    return s, actor, specs[0]["action"]


def test_create_answers_links_seats_and_the_commitment(client: TestClient) -> None:
    created = create(client, seed=7)
    assert set(created["seats"]) == {"ilse", "tomas", "spectator"}
    assert created["seats"]["ilse"]["actors"] == ["ilse"]
    token = created["seats"]["ilse"]["token"]
    assert len(token) >= 32 and created["seats"]["ilse"]["link"] == f"/t/{created['table']}#{token}"
    assert created["commitment"] == hashlib.sha256(seed_from_int(7)).hexdigest()
    s = state(client, created["table"], created["gm"]["token"])
    assert s["version"] == 0 and s["seed"] is None and s["chain"] == created["commitment"]
    assert s["seat"] == "gm" and s["outcome"] is None


def test_tokens_are_stored_only_as_hashes(client: TestClient, store: Store) -> None:
    created = create(client)
    seats = {s.seat: s for s in store.seats(created["table"])}
    token = created["seats"]["ilse"]["token"]
    assert seats["ilse"].token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert set(seats) == {"gm", "ilse", "tomas", "spectator"}  # hob, wat and dick sit at the GM's seat
    assert token not in json.dumps([store.table(created["table"]).config])  # type: ignore[union-attr]


def test_an_action_moves_the_version_and_a_retry_returns_the_first_answer(client: TestClient) -> None:
    created = create(client, seed=3)
    table, token = created["table"], created["seats"]["ilse"]["token"]
    s, actor, action = due(client, table, token)
    body = {"actor": actor, "action": action, "version": s["version"], "id": "first-try"}
    first = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
    assert first.status_code == 200 and first.json()["version"] == s["version"] + 1
    again = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
    assert again.status_code == 200 and again.json() == first.json()
    assert state(client, table, token)["version"] == s["version"] + 1


def test_a_move_chosen_at_an_earlier_version_stands_behind_another_players_and_a_real_conflict_is_409(
    client: TestClient,
) -> None:
    """Rule: WH-03 (every combatant plans at once). Two players who click at version 0 in Planning are both
    accepted, the second answered with ``chosen_at``; the same player acting again at version 0 is a real conflict:
    409 ``stale_version`` with the reason, and nothing changes. (The GM plays the villagers, so nothing moves in
    the background between the test's reads.)"""
    created = create(
        client, seed=3, controllers={"ilse": "human", "tomas": "human", "hob": "gm", "wat": "gm", "dick": "gm"}
    )
    table, token = created["table"], created["seats"]["ilse"]["token"]
    _, actor, action = due(client, table, token)
    assert (
        client.post(
            f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(token)
        ).status_code
        == 200
    )
    tomas = created["seats"]["tomas"]["token"]
    _, actor2, action2 = due(client, table, tomas)
    second = client.post(
        f"/api/tables/{table}/actions", json={"actor": actor2, "action": action2, "version": 0}, headers=auth(tomas)
    )
    assert second.status_code == 200, second.text
    assert (second.json()["version"], second.json()["seq"], second.json()["chosen_at"]) == (2, 1, 0)
    log = state(client, table, tomas)["log"]
    assert [entry.get("chosen_at") for entry in log] == [None, 0]  # the pushed log says which, too
    again = client.post(
        f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(token)
    )
    assert again.status_code == 409 and again.json()["code"] == "stale_version"
    assert again.json()["reason"] == "acted_since"
    assert len(state(client, table, tomas)["log"]) == len(log)


def test_a_ruleset_refusal_is_422_with_its_code(client: TestClient) -> None:
    created = create(client, seed=3)
    table, token = created["table"], created["seats"]["ilse"]["token"]
    answer = client.post(
        f"/api/tables/{table}/actions",
        headers=auth(token),
        json={"actor": "ilse", "action": {"type": "place", "card": "no_such_card"}, "version": 0},
    )
    assert answer.status_code == 422 and set(answer.json()) == {"code", "message"}
    assert answer.json()["code"] not in ("bad_request", "internal")


def test_a_whole_fight_ends_reveals_the_seed_and_its_log_verifies(client: TestClient) -> None:
    created = create(client, seed=11)
    table, tokens = created["table"], tokens_of(created)
    end = play_to_end(client, table, tokens, seed=1)
    assert end["seed"] == seed_from_int(11).hex()
    for token in tokens.values():
        assert state(client, table, token)["seed"] == end["seed"]
    log = client.get(f"/api/tables/{table}/log", headers=auth(tokens["ilse"])).json()
    assert verify(log).ok and log["chain"] == end["chain"]
    assert chain_problems(log, log["records"], head=end["chain"]) == []
    log["records"][0]["action"] = {"type": "ready"}  # a rewritten history no longer reaches the head seen
    assert chain_problems(log, log["records"], head=end["chain"]) != []


def test_gm_take_back_needs_confirmation_and_is_audited(client: TestClient) -> None:
    created = create(client, seed=3)
    table, gm, ilse = created["table"], created["gm"]["token"], created["seats"]["ilse"]["token"]
    s, actor, action = due(client, table, ilse)
    client.post(
        f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(ilse)
    )
    unconfirmed = client.post(f"/api/tables/{table}/gm/take_back", json={"to": 0, "version": 1}, headers=auth(gm))
    assert unconfirmed.status_code == 400 and unconfirmed.json()["code"] == "confirm_required"
    done = client.post(
        f"/api/tables/{table}/gm/take_back", json={"to": 0, "version": 1, "confirm": True}, headers=auth(gm)
    )
    assert done.status_code == 200 and done.json() == {"version": 2}
    s = state(client, table, ilse)
    assert s["version"] == 2 and s["log"][-1]["kind"] == "undo"
    audit = client.get(f"/api/tables/{table}/gm/audit", headers=auth(gm)).json()
    assert [(a["kind"], a["detail"]) for a in audit] == [("undo", {"to": 0, "from": 1})]


def test_pause_refuses_actions_until_resume(client: TestClient) -> None:
    created = create(client, seed=3)
    table, gm, ilse = created["table"], created["gm"]["token"], created["seats"]["ilse"]["token"]
    assert client.post(f"/api/tables/{table}/gm/pause", headers=auth(gm)).json()["paused"] is True
    s = state(client, table, ilse)
    assert s["paused"] is True and s["legal"] == {}
    answer = client.post(
        f"/api/tables/{table}/actions",
        headers=auth(ilse),
        json={"actor": "ilse", "action": {"type": "ready"}, "version": 0},
    )
    assert answer.status_code == 409 and answer.json()["code"] == "paused"
    client.post(f"/api/tables/{table}/gm/resume", headers=auth(gm))
    assert state(client, table, ilse)["legal"] != {}


def test_end_reveals_the_seed_and_stops_actions(client: TestClient) -> None:
    created = create(client, seed=5)
    table, gm, ilse = created["table"], created["gm"]["token"], created["seats"]["ilse"]["token"]
    ended = client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).json()
    assert ended == {"outcome": {"winner": None, "reason": "ended by the GM"}, "seed": seed_from_int(5).hex()}
    assert state(client, table, ilse)["seed"] == seed_from_int(5).hex()
    answer = client.post(
        f"/api/tables/{table}/actions",
        headers=auth(ilse),
        json={"actor": "ilse", "action": {"type": "ready"}, "version": 0},
    )
    assert answer.status_code == 409 and answer.json()["code"] == "table_ended"
    assert verify(client.get(f"/api/tables/{table}/gm/export", headers=auth(gm)).json()).ok


def test_compact_state_fits_in_2_kb(client: TestClient) -> None:
    created = create(client, "witchhammer/frost_and_wolves", controllers={"gm": "human"})
    for token in tokens_of(created).values():
        answer = client.get(f"/api/tables/{created['table']}", params={"compact": 1}, headers=auth(token))
        assert answer.status_code == 200 and len(answer.content) <= 2048
        assert answer.text.startswith(created["table"])


def test_long_poll_returns_at_once_when_the_version_passed_and_waits_otherwise(
    served: tuple[TableService, TestClient],
) -> None:
    _, client = served
    created = create(client, seed=3)
    table, ilse = created["table"], created["seats"]["ilse"]["token"]
    s = state(client, table, ilse, since=0, timeout=0.2)
    assert s["version"] == 0  # timed out (bounded) with nothing new
    _, actor, action = due(client, table, ilse)
    client.post(
        f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(ilse)
    )
    s = state(client, table, ilse, since=0, timeout=5)
    assert s["version"] == 1 and [e["seq"] for e in s["log"]] == [0]


def test_the_websocket_pushes_each_change_to_the_seat(client: TestClient) -> None:
    created = create(client, seed=3)
    table, ilse, tomas = created["table"], created["seats"]["ilse"]["token"], created["seats"]["tomas"]["token"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"token": tomas})
        first = ws.receive_json()
        assert first["version"] == 0 and first["seat"] == "tomas"
        _, actor, action = due(client, table, ilse)
        client.post(
            f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(ilse)
        )
        pushed = ws.receive_json()
        assert pushed["version"] == 1 and pushed["seat"] == "tomas" and [e["seq"] for e in pushed["log"]] == [0]


def test_a_replaced_token_closes_its_websocket_and_stops_working(client: TestClient) -> None:
    created = create(client, seed=3)
    table, gm, ilse = created["table"], created["gm"]["token"], created["seats"]["ilse"]["token"]
    with client.websocket_connect(f"/api/tables/{table}/ws?token={ilse}") as ws:
        assert ws.receive_json()["seat"] == "ilse"
        new = client.post(f"/api/tables/{table}/gm/seats/ilse/token", headers=auth(gm)).json()
        assert ws.receive_json()["code"] == "token_replaced"
    assert client.get(f"/api/tables/{table}", headers=auth(ilse)).status_code == 401
    assert state(client, table, new["token"])["seat"] == "ilse"


def test_the_gm_lists_every_seat_without_any_token(client: TestClient) -> None:
    """The GM's page in any browser lists the seats (from the server), never a token, so a lost link
    is made anew; a player's seat may not list them."""
    created = create(client, seed=3)
    table, gm, ilse = created["table"], created["gm"]["token"], created["seats"]["ilse"]["token"]
    answer = client.get(f"/api/tables/{table}/gm/seats", headers=auth(gm))
    assert answer.status_code == 200
    listed = {s["seat"]: s for s in answer.json()}
    people = {name for name, s in listed.items() if s["link"] and s["role"] == "player"}
    assert people == set(created["seats"]) - {"spectator"} and listed["gm"]["role"] == "gm"
    assert listed["ilse"]["actors"] == created["seats"]["ilse"]["actors"]
    text = answer.text
    assert all(s["token"] not in text for s in created["seats"].values()) and gm not in text
    refused = client.get(f"/api/tables/{table}/gm/seats", headers=auth(ilse))
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"


def test_a_restarted_service_rebuilds_the_table_from_the_store(store: Store) -> None:
    from tests.web.helpers import make_app

    service, app = make_app(store)
    with TestClient(app) as client:
        created = create(client, seed=3)
        table, ilse = created["table"], created["seats"]["ilse"]["token"]
        _, actor, action = due(client, table, ilse)
        client.post(
            f"/api/tables/{table}/actions", json={"actor": actor, "action": action, "version": 0}, headers=auth(ilse)
        )
        before = state(client, table, ilse)
    service.close()
    service, app = make_app(store)
    assert service.loaded() == []  # the server serves at once and loads a table on first use
    with TestClient(app) as client:
        after = state(client, table, ilse)
    assert service.loaded() == [table]
    service.close()
    assert after == before


def test_the_drama_timer_calls_time_on_the_server(client: TestClient, store: Store) -> None:
    """WH-B20: when the GM's countdown runs out the server submits the GM's timeout (bounded wait)."""
    created = create(client, options={"drama_timer": True}, seed=3)
    table, gm = created["table"], created["gm"]["token"]
    players = [created["seats"]["ilse"]["token"], created["seats"]["tomas"]["token"]]
    for _ in range(20):  # the psych phase first; the clock runs in the Planning phase
        if "gm" in state(client, table, gm)["legal"]:
            break
        for token in players:
            s = state(client, table, token)
            for actor, specs in s["legal"].items():
                client.post(
                    f"/api/tables/{table}/actions",
                    headers=auth(token),
                    json={"actor": actor, "action": specs[-1]["action"], "version": s["version"]},
                )
    assert state(client, table, gm)["legal"]["gm"] == [
        {"action": {"type": "timeout"}, "label": "call time: the Drama Timer ran out", "notes": [], "hint": ""}
    ]
    started = client.post(f"/api/tables/{table}/gm/timer", json={"seconds": 0.05}, headers=auth(gm))
    assert started.status_code == 200 and started.json()["timer"]["seconds"] == 0.05
    called: list[dict[str, Any]] = []
    for _ in range(50):  # bounded; the GM's policies may move first, so look for the timeout record itself
        s = state(client, table, gm)
        called = [e for e in s["log"] if e["action"] == {"type": "timeout"}]
        if called:
            break
        state(client, table, gm, since=s["version"], timeout=0.5)
    assert [(e["seat"], e["actor"]) for e in called] == [("gm", "gm")]
    assert [a.kind for a in store.audit_trail(table)] == ["timer", "timer"]


def test_the_spectator_link_can_be_turned_off(client: TestClient) -> None:
    created = create(client, spectator=False)
    assert set(created["seats"]) == {"ilse", "tomas"}


def test_free_form_posts_travel_as_text(client: TestClient) -> None:
    """HuD Free Form (the seed's narrative mode): a post is a text action that every seat reads in the log."""
    created = create(client, "hud/free_form_tavern", controllers={"bors": "human", "hald": "human"})
    table, bors, hald = created["table"], created["seats"]["bors"]["token"], created["seats"]["hald"]["token"]
    s = state(client, table, bors)
    assert s["legal"]["bors"][0]["action"] == {"type": "post", "text": "..."}
    text = "Bors slams his tankard down: 'Say that again, ferryman.'"
    answer = client.post(
        f"/api/tables/{table}/actions",
        headers=auth(bors),
        json={"actor": "bors", "action": {"type": "post", "text": text}, "version": s["version"]},
    )
    assert answer.status_code == 200, answer.text
    assert state(client, table, hald)["log"][-1]["action"] == {"type": "post", "text": text}
