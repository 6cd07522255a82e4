"""The group table through the API: who plays whom as chosen (shared player seats, the GM's seat, policies), GM
rulings (a record of the log, read by every seat as a sentence, refused for players, taken back), chat with
whispers and free rolls (never a third seat's, checkable at the end, kept across a restart)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.log import verify
from affray.core.rng import FREE_STREAM, derive_die
from affray.store import Store
from affray.table import TableService
from affray.web.limits import RateLimiter
from tests.web.conftest import create
from tests.web.helpers import auth, make_app, tokens_of


def get(client: TestClient, table: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_the_creator_seats_two_combatants_at_one_player_the_gm_plays_one_and_a_policy_another(
    served: tuple[TableService, TestClient],
) -> None:
    service, client = served
    created = create(
        client,
        "witchhammer/mill_ambush",
        seed=2,
        controllers={"ilse": "human", "tomas": "human", "hob": "gm", "wat": "random", "dick": "gm"},
        seats={"ilse": "hunters", "tomas": "hunters"},
    )
    assert set(created["seats"]) == {"hunters", "spectator"}
    assert created["seats"]["hunters"]["actors"] == ["ilse", "tomas"]
    table = created["table"]
    seats = client.get(f"/api/tables/{table}/gm/seats", headers=auth(created["gm"]["token"])).json()
    by_name = {s["seat"]: s for s in seats}
    assert by_name["gm"]["actors"] == ["dick", "gm", "hob", "wat"]  # wat stays among the GM's, played by a policy
    assert by_name["hunters"]["link"] is True
    live = service.table(table)
    assert sorted(live.policies) == ["wat"] and live.policies["wat"].name == "random"
    hunters = get(client, table, created["seats"]["hunters"]["token"])
    assert sorted(hunters["legal"]) == ["ilse", "tomas"]  # one person plans for both


def test_seat_names_and_controllers_are_checked(client: TestClient) -> None:
    cases = [
        ({"controllers": {"nobody": "human"}}, "unknown_actor"),
        ({"controllers": {"ilse": "wizard"}}, "unknown_policy"),
        ({"controllers": {"ilse": "human"}, "seats": {"ilse": "Bad Name!"}}, "bad_seat"),
        ({"controllers": {"ilse": "human"}, "seats": {"ilse": "spectator"}}, "bad_seat"),
    ]
    for body, code in cases:
        answer = client.post("/api/tables", json={"scenario": "witchhammer/mill_ambush", **body})
        assert answer.status_code == 422 and answer.json()["code"] == code, answer.text


def test_a_gm_ruling_reaches_every_seat_as_a_sentence_and_a_player_is_refused(client: TestClient) -> None:
    """Rules: WH-13 (Poise), WH-14 (Health)."""
    created = create(client, "witchhammer/yard_duel", seed=4, controllers={"bruna": "human", "tomas": "human"})
    table, tokens = created["table"], tokens_of(created)
    gm = tokens["gm"]
    forms = client.get(f"/api/tables/{table}/gm/adjust", headers=auth(gm)).json()["combatants"]
    assert {b["name"] for b in forms["tomas"]["bars"]} >= {"Poise", "Health"}
    body = {
        "version": 0,
        "id": "rule-1",
        "reason": "a cracked rib from last week",
        "changes": [{"combatant": "tomas", "bar": "Poise", "value": 20}],
    }
    refused = client.post(f"/api/tables/{table}/gm/adjust", json=body, headers=auth(tokens["bruna"]))
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"
    unknown = client.post(
        f"/api/tables/{table}/gm/adjust",
        headers=auth(gm),
        json={**body, "changes": [{"combatant": "zed", "bar": "Poise", "value": 20}]},
    )
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_combatant"
    bad_bar = client.post(
        f"/api/tables/{table}/gm/adjust",
        headers=auth(gm),
        json={**body, "changes": [{"combatant": "tomas", "bar": "Mana", "value": 20}]},
    )
    assert bad_bar.status_code == 422 and bad_bar.json()["code"] == "unknown_bar"
    assert get(client, table, gm)["version"] == 0
    done = client.post(f"/api/tables/{table}/gm/adjust", json=body, headers=auth(gm))
    assert done.status_code == 200, done.text
    assert client.post(f"/api/tables/{table}/gm/adjust", json=body, headers=auth(gm)).json() == done.json()
    for seat, token in tokens.items():
        state = get(client, table, token)
        [entry] = [e for e in state["log"] if e["kind"] == "gm"]
        assert [e["text"] for e in entry["events"]] == [
            "GM ruling (a cracked rib from last week): Tomas Reedwater's Poise 20 (was 24)."
        ], seat
        poise = next(
            b for c in state["view"]["combatants"] if c["id"] == "tomas" for b in c["bars"] if b["name"] == "Poise"
        )
        assert poise["value"] == 20, seat
    back = client.post(
        f"/api/tables/{table}/gm/take_back", headers=auth(gm), json={"to": 0, "version": 1, "confirm": True}
    )
    assert back.status_code == 200, back.text
    state = get(client, table, gm)
    poise = next(
        b for c in state["view"]["combatants"] if c["id"] == "tomas" for b in c["bars"] if b["name"] == "Poise"
    )
    assert poise["value"] == 24 and [e["kind"] for e in state["log"]] == ["gm", "undo"]


def test_a_ruling_survives_a_restart_and_the_ended_log_verifies(store: Store) -> None:
    service, app = make_app(store)
    with TestClient(app) as client:
        created = create(client, "witchhammer/yard_duel", seed=4, controllers={"bruna": "human", "tomas": "human"})
        table, gm = created["table"], created["gm"]["token"]
        assert (
            client.post(
                f"/api/tables/{table}/gm/adjust",
                headers=auth(gm),
                json={"version": 0, "reason": "", "changes": [{"combatant": "bruna", "bar": "Health", "value": 9}]},
            ).status_code
            == 200
        )
    service.close()
    again, app = make_app(store)
    with TestClient(app) as client:
        state = get(client, table, gm)
        assert [e["kind"] for e in state["log"]] == ["gm"]
        assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
        log = client.get(f"/api/tables/{table}/log", headers=auth(gm)).json()
        report = verify(log)
        assert report.ok, report.problems
    again.close()


def heard(ws: Any, last: str = "Onward!", most: int = 50) -> list[str]:
    """The chat texts a WebSocket is pushed, up to the line ``last`` (a bounded number of pushes)."""
    texts: list[str] = []
    for _ in range(most):
        texts += [line["text"] for line in ws.receive_json()["chat"]]
        if last in texts:
            return texts
    raise AssertionError(f"no line {last!r} in {most} pushes: {texts}")


@pytest.fixture
def chatty(store: Store) -> Iterator[tuple[TableService, TestClient]]:
    service, app = make_app(store, chat_limiter=RateLimiter(rate=0.001, burst=8))
    with TestClient(app) as client:
        yield service, client
    service.close()


def test_a_whisper_reaches_only_its_sender_and_addressee_in_answers_and_pushes(
    chatty: tuple[TableService, TestClient],
) -> None:
    _, client = chatty
    created = create(client, "witchhammer/mill_ambush", seed=2)
    table, tokens = created["table"], tokens_of(created)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['tomas']}") as tomas_ws,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['gm']}") as gm_ws,
    ):
        tomas_ws.receive_json()
        gm_ws.receive_json()
        whisper = client.post(
            f"/api/tables/{table}/chat",
            headers=auth(tokens["ilse"]),
            json={"text": "<b>I'll flank</b> the miller", "to": "gm"},
        )
        assert whisper.status_code == 200, whisper.text
        public = client.post(f"/api/tables/{table}/chat", headers=auth(tokens["ilse"]), json={"text": "Onward!"})
        assert public.status_code == 200
        assert heard(gm_ws) == ["<b>I'll flank</b> the miller", "Onward!"]
        assert heard(tomas_ws) == ["Onward!"]
    for seat, token in tokens.items():
        lines = [(line["from"], line["to"], line["text"]) for line in get(client, table, token)["chat"]]
        expected = [("Ilse Marrow", "gm", "<b>I'll flank</b> the miller")] if seat in ("ilse", "gm") else []
        assert lines == [*expected, ("Ilse Marrow", None, "Onward!")], seat


def test_chat_is_bounded_in_length_and_rate_and_refuses_a_bad_addressee(
    chatty: tuple[TableService, TestClient],
) -> None:
    _, client = chatty
    created = create(client, "witchhammer/mill_ambush", seed=2)
    table, tokens = created["table"], tokens_of(created)
    url = f"/api/tables/{table}/chat"
    long = client.post(url, headers=auth(tokens["ilse"]), json={"text": "x" * 501})
    assert long.status_code == 422 and long.json()["code"] == "text_too_long"
    for body, code in (
        ({"text": "   "}, "empty_text"),
        ({"text": "hi", "to": "nobody"}, "bad_addressee"),
        ({"text": "hi", "to": "ilse"}, "bad_addressee"),
        ({"text": "a\x1b[2Jb"}, "bad_text"),
    ):
        answer = client.post(url, headers=auth(tokens["ilse"]), json=body)
        assert answer.status_code == 422 and answer.json()["code"] == code, answer.text
    spectator = client.post(url, headers=auth(tokens["spectator"]), json={"text": "psst", "to": "ilse"})
    assert spectator.status_code == 422 and spectator.json()["code"] == "bad_addressee"
    codes = [client.post(url, headers=auth(tokens["tomas"]), json={"text": f"line {i}"}).status_code for i in range(10)]
    assert codes[:8] == [200] * 8 and codes[8:] == [429, 429]


def test_free_rolls_come_from_their_own_stream_never_move_the_fight_and_verify_at_the_end(
    chatty: tuple[TableService, TestClient],
) -> None:
    service, client = chatty
    created = create(client, "witchhammer/yard_duel", seed=11, controllers={"bruna": "human", "tomas": "human"})
    table, tokens = created["table"], tokens_of(created)
    live = service.table(table)
    draws_before = live.match.rng.index
    first = client.post(f"/api/tables/{table}/roll", headers=auth(tokens["bruna"]), json={"notation": "3d6+1"})
    secret = client.post(
        f"/api/tables/{table}/roll", headers=auth(tokens["gm"]), json={"notation": "1d20", "to": "bruna"}
    )
    assert first.status_code == secret.status_code == 200, first.text
    roll, hidden = first.json(), secret.json()
    # the whisper draws from its pair's own stream, not on from the public one (docs/table.md, the security model)
    assert (roll["kind"], roll["notation"], roll["first"], hidden["first"]) == ("roll", "3d6+1", 0, 0)
    seed = bytes.fromhex(live.seed_hex)
    assert [d["value"] for d in roll["roll"]["dice"]] == [derive_die(seed, i, 6, FREE_STREAM) for i in range(3)]
    assert roll["roll"]["total"] == sum(d["value"] for d in roll["roll"]["dice"]) + 1
    assert live.match.rng.index == draws_before
    bad = client.post(f"/api/tables/{table}/roll", headers=auth(tokens["bruna"]), json={"notation": "3d"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_notation"
    many = client.post(f"/api/tables/{table}/roll", headers=auth(tokens["bruna"]), json={"notation": "101d6"})
    assert many.status_code == 422 and many.json()["code"] == "too_many_dice"
    assert [c["n"] for c in get(client, table, tokens["tomas"])["chat"]] == [0]
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(tokens["gm"])).status_code == 200
    for seat in ("bruna", "tomas"):
        log = client.get(f"/api/tables/{table}/log", headers=auth(tokens[seat])).json()
        assert len(log["free_rolls"]) == (2 if seat == "bruna" else 1)
        report = verify(log)
        assert report.ok and report.free_rolls_checked == len(log["free_rolls"]), report.problems
    forged = client.get(f"/api/tables/{table}/log", headers=auth(tokens["bruna"])).json()
    forged["free_rolls"][0]["roll"]["dice"][0]["value"] = forged["free_rolls"][0]["roll"]["dice"][0]["value"] % 6 + 1
    report = verify(forged)
    assert not report.ok and "free roll #0" in report.problems[0]


def test_the_chat_survives_a_restart(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service, app = make_app(store)
        with TestClient(app) as client:
            created = create(client, "witchhammer/mill_ambush", seed=2)
            table, tokens = created["table"], tokens_of(created)
            client.post(f"/api/tables/{table}/chat", headers=auth(tokens["ilse"]), json={"text": "first"})
            client.post(f"/api/tables/{table}/roll", headers=auth(tokens["tomas"]), json={"notation": "2d6"})
        service.close()
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service, app = make_app(store)
        with TestClient(app) as client:
            chat = get(client, table, tokens["gm"])["chat"]
            assert [(c["n"], c["kind"]) for c in chat] == [(0, "chat"), (1, "roll")]
            assert chat[0]["text"] == "first" and chat[1]["first"] == 0
            nxt = client.post(f"/api/tables/{table}/roll", headers=auth(tokens["tomas"]), json={"notation": "1d6"})
            assert nxt.json()["n"] == 2 and nxt.json()["first"] == 2  # the free stream goes on where it was
        service.close()


def test_the_gm_hears_which_seats_are_connected(client: TestClient) -> None:
    """The GM's pushes say which seats have a connection open now; a seat's coming and going is pushed to the GM."""
    created = create(client, "witchhammer/mill_ambush", seed=2)
    table, tokens = created["table"], tokens_of(created)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['gm']}") as gm_ws:
        assert gm_ws.receive_json()["connected"] == {"gm": 1}
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ilse']}") as ilse_ws:
            assert "connected" not in ilse_ws.receive_json()  # only the GM's message says it
            assert heard_connected(gm_ws, lambda c: c.get("ilse") == 1) == {"gm": 1, "ilse": 1}
        assert heard_connected(gm_ws, lambda c: "ilse" not in c) == {"gm": 1}


def heard_connected(ws: Any, until: Any, most: int = 50) -> dict[str, int]:
    for _ in range(most):
        connected: dict[str, int] = ws.receive_json()["connected"]
        if until(connected):
            return connected
    raise AssertionError(f"the GM never heard the change in {most} pushes")
