"""The in-world protocol on the server's side (docs/table.md, "The in-world protocol"; table/inworld.py,
table/inworld_codes.py, web/inworld.py), in process: claim codes (8 signs of an unambiguous alphabet, single use,
expiring, renewable, kept hashed across a restart, failures bounded per owner key), the compact answer (at most
2,048 bytes of UTF-8, story lines held back and sent later, never dropped; every choice reachable), acting by choice
id (idempotent by submission id, text/plain bodies, free text where a rule wants it). The Sim HuD's modes: WL-B2."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.json import Json, JsonObject
from affray.store import Store
from affray.table import Refusal, TableService, inworld, inworld_codes
from affray.table.inworld_codes import ALPHABET, CODE_TTL
from tests.web.helpers import auth, make_app
from tests.web.inprocess import InProcessClient

TEXT = {"Content-Type": "text/plain;charset=utf-8"}  # Second Life's default body type


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'affray.db'}"


@pytest.fixture
def served(db: str) -> Iterator[tuple[TableService, TestClient]]:
    with Store(db) as store:
        service, app = make_app(store)
        with InProcessClient(app) as client:
            yield service, client
        service.close()


def open_table(client: TestClient, scenario: str, controllers: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"scenario": scenario, "controllers": controllers})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def code(client: TestClient, table: dict[str, Any], seat: str) -> str:
    answer = client.post(f"/api/tables/{table['table']}/gm/seats/{seat}/code", headers=auth(table["gm"]["token"]))
    assert answer.status_code == 200, answer.text
    issued: str = answer.json()["code"]
    return issued


def claim(client: TestClient, text: str, owner: str = "owner-a") -> Any:
    body = json.dumps({"code": text})
    return client.post("/api/inworld/claim", content=body, headers={**TEXT, "X-SecondLife-Owner-Key": owner})


def seat_token(client: TestClient, table: dict[str, Any], seat: str) -> str:
    answer = claim(client, code(client, table, seat), owner=f"owner-{seat}")
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def read(client: TestClient, table: dict[str, Any], token: str, **query: Any) -> dict[str, Any]:
    answer = client.get(f"/api/inworld/{table['table']}", params=query, headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert len(answer.content) <= 2048
    data: dict[str, Any] = answer.json()
    return data


def act(client: TestClient, table: dict[str, Any], token: str, **body: Any) -> Any:
    return client.post(f"/api/inworld/{table['table']}/act", content=json.dumps(body), headers={**auth(token), **TEXT})


def test_a_claim_code_is_8_unambiguous_signs_spent_once_and_the_seat_s_old_link_stops(
    served: tuple[TableService, TestClient],
) -> None:
    """The code: 8 signs of the 31 (no 0/O, 1/I/L), typed in any case with spaces; once claimed it opens nothing,
    the claim's token opens the seat and the seat's older token is refused (401)."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    issued = code(client, table, "ilka")
    assert len(issued) == 8 and set(issued) <= set(ALPHABET) and not set("01OIL") & set(ALPHABET)
    typed = f"{issued[:4].lower()} {issued[4:]}"
    first = claim(client, typed)
    assert first.status_code == 200, first.text
    assert first.json()["table"] == table["table"] and first.json()["seat"] == "ilka"
    assert first.json()["actors"] == ["ilka"]
    again = claim(client, issued)
    assert again.status_code == 404 and again.json()["code"] == "bad_code"
    assert read(client, table, first.json()["token"])["n"] == "Ilka Reedwhistle"
    old = client.get(f"/api/tables/{table['table']}", headers=auth(table["seats"]["ilka"]["token"]))
    assert old.status_code == 401


def test_a_renewed_code_replaces_the_older_and_a_code_expires_after_15_minutes(
    served: tuple[TableService, TestClient],
) -> None:
    service, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    older = code(client, table, "ilka")
    newer = code(client, table, "ilka")
    assert claim(client, older).status_code == 404
    live = service.table(table["table"])
    with pytest.raises(Refusal) as late:
        inworld_codes.claim(service.ledger, live, "ilka", newer, now=time.time() + CODE_TTL + 1)
    assert (late.value.code, late.value.status) == ("code_expired", 410)
    assert claim(client, newer).status_code == 200  # still good within its 15 minutes


def test_only_the_gm_gets_codes_and_only_for_a_player_s_seat(served: tuple[TableService, TestClient]) -> None:
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "heuristic"})
    path = f"/api/tables/{table['table']}/gm/seats"
    assert client.post(f"{path}/ilka/code", headers=auth(table["seats"]["ilka"]["token"])).status_code == 403
    gm = auth(table["gm"]["token"])
    assert client.post(f"{path}/spectator/code", headers=gm).json()["code"] == "policy_seat"
    assert client.post(f"{path}/nobody/code", headers=gm).status_code == 404


def test_a_code_survives_a_restart(db: str) -> None:
    """Codes are kept hashed in the table's stored config: a server started again on the database honours them."""
    with Store(db) as store:
        service, app = make_app(store)
        with InProcessClient(app) as client:
            table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
            issued = code(client, table, "drowner")
        service.close()
    with Store(db) as store:
        row = store.open_tables()[0]
        assert issued not in json.dumps(row.config)  # only its hash is kept
        service, app = make_app(store)
        with InProcessClient(app) as client:
            answer = claim(client, issued)
            assert answer.status_code == 200, answer.text
            assert answer.json()["seat"] == "drowner"
        service.close()


def test_wrong_codes_are_counted_per_owner_key_not_per_region_address(
    served: tuple[TableService, TestClient],
) -> None:
    """Every HuD of a region comes from one address: one avatar's five wrong codes lock out that avatar (429) but
    not another avatar's HuD in the same region, which still claims its seat."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    for _ in range(5):
        assert claim(client, "ABCDEFGH", owner="typo-avatar").status_code == 404
    assert claim(client, "ABCDEFGH", owner="typo-avatar").status_code == 429
    assert claim(client, code(client, table, "ilka"), owner="typo-avatar").status_code == 429
    other = claim(client, code(client, table, "drowner"), owner="careful-avatar")
    assert other.status_code == 200, other.text
    bad = claim(client, "not a code", owner="careful-avatar")
    assert bad.status_code == 400 and "8 letters and digits" in bad.json()["message"]
    junk = client.post("/api/inworld/claim", content=b"code=ABCD", headers=TEXT)
    assert junk.status_code == 422 and junk.json()["code"] == "bad_request"


def test_acting_by_choice_id_is_idempotent_and_a_stale_version_is_409(served: tuple[TableService, TestClient]) -> None:
    """Dice Simplified (WL-B2): the attacker's choices carry the dice their buttons take (Attack, Damage); acting by
    the Attack choice with a text/plain body rolls it once, whatever the retries."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    tokens = {seat: seat_token(client, table, seat) for seat in ("ilka", "drowner")}
    due = next(s for s, t in tokens.items() if "ch" in read(client, table, t))
    answer = read(client, table, tokens[due])
    assert set(answer["d"]) == {"attack", "damage"}
    assert answer["t"].endswith("your move") and len(answer["t"].encode()) <= 254
    first = act(client, table, tokens[due], choice=answer["d"]["attack"], version=answer["v"], id="t-1")
    assert first.status_code == 200, first.text
    assert first.json() == {"v": answer["v"] + 1, "seq": answer["v"]}
    other = next(s for s in tokens if s != due)
    after = read(client, table, tokens[other], l=0)
    assert set(after["d"]) == {"defense", "injury"}
    said = after.get("say", []) + read(client, table, tokens[due], l=0).get("say", [])
    assert len([line for line in said if "rolls Attack" in line]) == 1  # said once, by the roller's HuD
    defended = act(client, table, tokens[other], choice=after["d"]["defense"], version=after["v"], id="t-9")
    assert defended.status_code == 200, defended.text
    retry = act(client, table, tokens[due], choice=answer["d"]["attack"], version=answer["v"], id="t-1")
    assert retry.json() == first.json()  # the first answer again, though the table moved on: no second roll
    stale = act(client, table, tokens[due], choice="1", version=answer["v"], id="t-2")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    log = client.get(f"/api/tables/{table['table']}", headers=auth(tokens[due])).json()["log"]
    assert [entry["action"]["die"] for entry in log] == ["attack", "defense"]


def test_every_choice_is_reachable_through_steps_and_pages(served: tuple[TableService, TestClient]) -> None:
    """Combat Nerdified's declarations (dozens of plans): walking every step and page of the answers reaches every
    legal action once; no dialog holds more than 12 buttons of at most 24 bytes, alike labels or a message of 512
    bytes or more."""
    _, client = served
    table = open_table(client, "hud/nerdified_duel", {"vesna": "human", "hald": "human"})
    tokens = {seat: seat_token(client, table, seat) for seat in ("vesna", "hald")}
    due = next(s for s, t in tokens.items() if "ch" in read(client, table, t))
    legal = client.get(f"/api/tables/{table['table']}", headers=auth(tokens[due])).json()["legal"][due]
    leaves: list[str] = []
    todo, seen = [""], set()
    while todo:
        at = todo.pop()
        if at in seen:
            continue
        seen.add(at)
        answer = read(client, table, tokens[due], at=at)
        labels = [b[1] for b in answer["ch"]]
        assert 1 <= len(labels) <= 12 and len(set(labels)) == len(labels)
        assert all(0 < len(label.encode()) <= 24 for label in labels)
        assert len(answer["ask"].encode()) < 512
        for button in answer["ch"]:
            (todo.append(button[0][1:]) if button[0].startswith("@") else leaves.append(button[0]))
    assert len(set(leaves)) == len(legal)


def test_story_lines_past_2048_bytes_wait_for_the_next_answer(served: tuple[TableService, TestClient]) -> None:
    """A Free Form scene's long posts: each answer stays within 2,048 bytes (``more`` set), and reading on from
    the answer's cursors brings every post, none twice; a post's words come from the owner (text_wanted without)."""
    _, client = served
    table = open_table(client, "hud/free_form_tavern", {"bors": "human", "hald": "human"})
    tokens = {seat: seat_token(client, table, seat) for seat in ("bors", "hald")}
    posts = []
    for n in range(8):
        for seat, token in tokens.items():
            answer = read(client, table, token, at="1")  # Post, a step: which hit points change
            post = next((b for b in answer.get("ch", []) if len(b) == 3), None)
            if post is None:
                continue
            assert answer["ff"] == 1
            refused = act(client, table, token, choice=post[0], version=answer["v"], id=f"p{n}x")
            assert refused.status_code == 422 and refused.json()["code"] == "text_wanted"
            words = f"Post {n} by {seat}: " + "the tankard flies across the room " * 13
            posts.append(words[:500])
            done = act(client, table, token, choice=post[0], version=answer["v"], id=f"p{n}", text=words)
            assert done.status_code == 200, done.text
            break
    assert len(posts) == 8
    got: list[str] = []
    held_back = False
    for token in tokens.values():  # each post is said by its writer's HuD
        cursor = {"l": 0, "c": 0}
        for _ in range(12):
            answer = read(client, table, token, **cursor)
            got += answer.get("say", []) + answer.get("own", [])
            held_back = held_back or bool(answer.get("more"))
            cursor = {"l": answer["l"], "c": answer["c"]}
            if not answer.get("more"):
                break
    assert held_back  # four posts of 500 bytes do not fit one answer
    text = " ".join(got)
    assert all(text.count(post[:12]) == 1 for post in posts)


def test_words_fill_every_placeholder_of_a_listed_action_however_deep() -> None:
    """A Free Form post's text, or a planned complex activity's (WL-09: a plan item of its own, described in
    words): the choice is marked as taking words, and the words replace each ``...``, nothing else."""
    post: JsonObject = {"type": "post", "text": "...", "hp": {"hald": -1}}
    items: list[Json] = [{"type": "complex", "text": "..."}, {"type": "defense"}]
    plan: JsonObject = {"type": "declare", "plan": items, "additional": False}
    assert inworld.wants_text(post) and inworld.wants_text(plan)
    assert not inworld.wants_text({"type": "attack", "target": "hald", "die": "attack"})
    assert inworld.filled(post, "Bors swings.") == {"type": "post", "text": "Bors swings.", "hp": {"hald": -1}}
    assert inworld.filled(plan, "kick the brazier") == {
        "type": "declare",
        "plan": [{"type": "complex", "text": "kick the brazier"}, {"type": "defense"}],
        "additional": False,
    }


# -- the routes under the name the Second Life script speaks: /api/hud/ (web/inworld.py's PREFIXES) --------------------


def test_the_claim_answers_under_the_device_route_as_under_the_generic_one(
    served: tuple[TableService, TestClient],
) -> None:
    """``POST /api/hud/claim`` is the same handler as ``/api/inworld/claim``: a text/plain body, the seat's table,
    name and actors; a spent code 404 ``bad_code`` there too."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    issued = code(client, table, "ilka")
    headers = {**TEXT, "X-SecondLife-Owner-Key": "owner-a"}
    first = client.post("/api/hud/claim", content=json.dumps({"code": issued}), headers=headers)
    assert first.status_code == 200, first.text
    assert {k: first.json()[k] for k in ("table", "seat", "actors")} == {
        "table": table["table"],
        "seat": "ilka",
        "actors": ["ilka"],
    }
    again = client.post("/api/hud/claim", content=json.dumps({"code": issued}), headers=headers)
    assert (again.status_code, again.json()["code"]) == (404, "bad_code")


def test_the_poll_answers_under_the_device_route_as_under_the_generic_one(
    served: tuple[TableService, TestClient],
) -> None:
    """``GET /api/hud/ID`` answers exactly what ``GET /api/inworld/ID`` does, cursors, step and all; without the
    seat's token 401."""
    _, client = served
    table = open_table(client, "hud/nerdified_duel", {"vesna": "human", "hald": "human"})
    token = seat_token(client, table, "vesna")
    for query in ({}, {"l": 0, "c": 0}, {"at": "1"}):
        generic = client.get(f"/api/inworld/{table['table']}", params=query, headers=auth(token))
        device = client.get(f"/api/hud/{table['table']}", params=query, headers=auth(token))
        assert device.status_code == generic.status_code == 200
        assert device.content == generic.content and len(device.content) <= 2048
    assert client.get(f"/api/hud/{table['table']}").status_code == 401


def test_acting_answers_under_the_device_route_as_under_the_generic_one(
    served: tuple[TableService, TestClient],
) -> None:
    """``POST /api/hud/ID/act`` takes a choice like ``/api/inworld/ID/act`` (WL-B2: the Attack die's choice), and one
    submission id is one action whichever route it is retried on."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    tokens = {seat: seat_token(client, table, seat) for seat in ("ilka", "drowner")}
    due = next(s for s, t in tokens.items() if "ch" in read(client, table, t))
    answer = read(client, table, tokens[due])
    body = json.dumps({"choice": answer["d"]["attack"], "version": answer["v"], "id": "alias-1"})
    headers = {**auth(tokens[due]), **TEXT}
    first = client.post(f"/api/hud/{table['table']}/act", content=body, headers=headers)
    assert first.status_code == 200, first.text
    assert first.json() == {"v": answer["v"] + 1, "seq": answer["v"]}
    retried = client.post(f"/api/inworld/{table['table']}/act", content=body, headers=headers)
    assert retried.json() == first.json()
    log = client.get(f"/api/tables/{table['table']}", headers=auth(tokens[due])).json()["log"]
    assert [entry["action"]["die"] for entry in log] == ["attack"]


# -- Free Form: what each die button rolls, with the character's modifier (the ruleset's Plugin.buttons) -----------


def test_wl00_a_free_form_answer_carries_each_button_s_roll_with_the_character_s_modifier(
    served: tuple[TableService, TestClient],
) -> None:
    """WL-00/WL-02: in a Free Form scene a die button rolls a free roll with the character's modifier, and the answer
    says which (``fd``). WL-01/WL-B1: Chance a d11, the others a d13. WL-B2 (WL-03's attack penalty): Bors (arming
    sword attack +1, defense +1, damage +0 and round shield defense +2 in hand; light gambeson, penalty 0, injury
    +1); Hald (halberd attack +1, defense +1, damage +3 in hand; heavy plate, penalty 2, injury +4)."""
    _, client = served
    table = open_table(client, "hud/free_form_tavern", {"bors": "human", "hald": "human"})
    tokens = {seat: seat_token(client, table, seat) for seat in ("bors", "hald")}
    bors, hald = (read(client, table, tokens[seat]) for seat in ("bors", "hald"))
    assert bors["ff"] == hald["ff"] == 1
    assert bors["fd"] == {
        "chance": "1d11",
        "attack": "1d13+1",
        "defense": "1d13+3",
        "damage": "1d13",
        "injury": "1d13+1",
    }
    assert hald["fd"] == {
        "chance": "1d11",
        "attack": "1d13-1",
        "defense": "1d13+1",
        "damage": "1d13+3",
        "injury": "1d13+4",
    }


def test_a_fight_s_answer_carries_no_free_rolls(served: tuple[TableService, TestClient]) -> None:
    """Outside Free Form a die button takes the fight's own choice (``d``, WL-06): no ``ff``, no ``fd``."""
    _, client = served
    table = open_table(client, "hud/simplified_duel", {"ilka": "human", "drowner": "human"})
    answer = read(client, table, seat_token(client, table, "ilka"))
    assert "ff" not in answer and "fd" not in answer
