"""What the server keeps for a GM (docs/table.md, "Building a fight"): built fights and opened tables, per owner.

The owner is the holder of a secret: the server's creation key when it has one, else the secret a browser keeps
(header X-Owner-Key). Nobody lists, opens, changes or deletes another owner's fights; the tables list gives the GM
link back to its owner only, from a token the store holds sealed; each owner keeps at most 50 of each, refused
beyond with a sentence; and all of it survives a restart of the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from affray.store import Store
from affray.store import schema as s
from affray.store.owned import MOST_FIGHTS, MOST_TABLES
from affray.table import TableService
from affray.web.limits import RateLimiter
from affray.web.owners import owner_of, seal, unseal
from tests.web.conftest import create
from tests.web.helpers import make_app
from tests.web.inprocess import InProcessClient

ALICE = {"X-Owner-Key": "alice-secret-0123456789abcdef"}
BOB = {"X-Owner-Key": "bob-secret-0123456789abcdefgh"}
FIGHT = {"title": "Jackals at dusk", "ruleset": "spellchrome", "body": {"scenario": "ruleset: spellchrome\n"}}


def serving(db: Path, **kwargs: Any) -> tuple[TableService, InProcessClient, Store]:
    store = Store(f"sqlite:///{db}")
    service, app = make_app(store, check_limiter=RateLimiter(rate=1e6, burst=1e6), **kwargs)
    return service, InProcessClient(app), store


@pytest.fixture
def owned(tmp_path: Path) -> Iterator[tuple[TableService, TestClient, Store]]:
    service, client, store = serving(tmp_path / "affray.db")
    with client:
        yield service, client, store
    service.close()
    store.close()


def test_a_saved_fight_is_listed_opened_and_deleted_by_its_owner_only(
    owned: tuple[TableService, TestClient, Store],
) -> None:
    _, client, _ = owned
    saved = client.post("/api/fights", json=FIGHT, headers=ALICE)
    assert saved.status_code == 201, saved.text
    fight_id = saved.json()["id"]
    assert [(f["id"], f["title"], f["ruleset"]) for f in client.get("/api/fights", headers=ALICE).json()["fights"]] == [
        (fight_id, "Jackals at dusk", "spellchrome")
    ]
    assert client.get(f"/api/fights/{fight_id}", headers=ALICE).json()["body"] == FIGHT["body"]
    # Bob sees none of it, and can neither open, overwrite nor delete it.
    assert client.get("/api/fights", headers=BOB).json() == {"fights": [], "most": 50}
    opened = client.get(f"/api/fights/{fight_id}", headers=BOB)
    assert (opened.status_code, opened.json()) == (
        404,
        {"code": "unknown_fight", "message": "You have no saved fight with this id."},
    )
    assert client.delete(f"/api/fights/{fight_id}", headers=BOB).status_code == 404
    bobs = client.post("/api/fights", json={**FIGHT, "id": fight_id, "title": "Bob's"}, headers=BOB)
    assert bobs.status_code == 201  # a fight of Bob's own under the same id: Alice's is untouched
    assert client.get(f"/api/fights/{fight_id}", headers=ALICE).json()["title"] == "Jackals at dusk"
    # Saved again in place: the same id, the first save's time kept, the new title.
    first = client.get(f"/api/fights/{fight_id}", headers=ALICE).json()
    again = client.post("/api/fights", json={**FIGHT, "id": fight_id, "title": "Jackals at night"}, headers=ALICE)
    assert again.json()["id"] == fight_id and again.json()["created_at"] == first["created_at"]
    assert [f["title"] for f in client.get("/api/fights", headers=ALICE).json()["fights"]] == ["Jackals at night"]
    assert client.delete(f"/api/fights/{fight_id}", headers=ALICE).json() == {"deleted": fight_id}
    assert client.get("/api/fights", headers=ALICE).json()["fights"] == []
    assert [f["title"] for f in client.get("/api/fights", headers=BOB).json()["fights"]] == ["Bob's"]


def test_an_owner_keeps_at_most_50_fights_and_is_told_so(owned: tuple[TableService, TestClient, Store]) -> None:
    _, client, _ = owned
    ids = [client.post("/api/fights", json=FIGHT, headers=ALICE).json()["id"] for _ in range(MOST_FIGHTS)]
    assert len(set(ids)) == MOST_FIGHTS == 50
    refused = client.post("/api/fights", json=FIGHT, headers=ALICE)
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "code": "too_many",
            "message": "You keep 50 fights already, the most there may be; delete one to save another.",
        },
    )
    assert client.post("/api/fights", json=FIGHT, headers=BOB).status_code == 201  # a bound per owner
    client.delete(f"/api/fights/{ids[0]}", headers=ALICE)
    assert client.post("/api/fights", json=FIGHT, headers=ALICE).status_code == 201


def test_a_request_without_an_owner_or_with_bad_fields_is_refused_in_a_sentence(
    owned: tuple[TableService, TestClient, Store],
) -> None:
    _, client, _ = owned
    for headers in ({}, {"X-Owner-Key": "short"}, {"X-Owner-Key": "x" * 21 + "!"}):
        refused = client.get("/api/fights", headers=headers)
        assert refused.status_code == 401 and refused.json()["code"] == "no_owner", refused.text
        assert refused.json()["message"].startswith("Saved fights and tables belong to an owner: send the owner")
    unknown = client.post("/api/fights", json={**FIGHT, "ruleset": "chess"}, headers=ALICE)
    assert unknown.status_code == 422 and unknown.json()["message"] == (
        "There is no ruleset 'chess' here (there are hud, spellchrome, warp, witchhammer)."
    )
    too_long = client.post("/api/fights", json={**FIGHT, "title": "x" * 201}, headers=ALICE)
    assert too_long.status_code == 422 and "title" in too_long.json()["message"]


def test_an_owners_tables_give_the_gm_link_back_to_that_owner_only(
    owned: tuple[TableService, TestClient, Store],
) -> None:
    _, client, store = owned
    made = create(client, "spellchrome/jackal_pack")
    table, gm = made["table"], made["gm"]["token"]
    player = next(iter(made["seats"].values()))["token"]
    refused = client.post("/api/owned/tables", json={"table": table, "token": player}, headers=ALICE)
    assert (refused.status_code, refused.json()["code"]) == (401, "not_gm")
    wrong = client.post("/api/owned/tables", json={"table": table, "token": "A" * 43}, headers=ALICE)
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_token"
    kept = client.post("/api/owned/tables", json={"table": table, "token": gm}, headers=ALICE)
    assert (kept.status_code, kept.json()) == (201, {"kept": table})
    listed = client.get("/api/owned/tables", headers=ALICE).json()["tables"]
    assert [(t["id"], t["title"], t["ruleset"], t["over"], t["gm_link"]) for t in listed] == [
        (table, "The Jackals at the Stones", "spellchrome", False, f"/t/{table}#{gm}")
    ]
    assert client.get("/api/owned/tables", headers=BOB).json()["tables"] == []
    # The store holds the GM token sealed: neither the token nor the owner's secret is in its row.
    with store._read() as c:
        rows = c.execute(sa.select(s.owned_tables)).mappings().all()
    assert [(r["owner"], r["table_id"]) for r in rows] == [(owner_of(ALICE["X-Owner-Key"]), table)]
    assert gm not in rows[0]["sealed"] and ALICE["X-Owner-Key"] not in str(dict(rows[0]))
    assert unseal(BOB["X-Owner-Key"], rows[0]["sealed"]) is None
    assert client.delete(f"/api/owned/tables/{table}", headers=BOB).status_code == 404
    assert client.delete(f"/api/owned/tables/{table}", headers=ALICE).json() == {"removed": table}
    assert client.get("/api/owned/tables", headers=ALICE).json()["tables"] == []
    assert client.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {gm}"}).status_code == 200


def test_an_owner_keeps_at_most_50_tables(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'affray.db'}")
    with store:
        service, _ = make_app(store)
        made = service.create("spellchrome/jackal_pack", {}, {}, None, True, None)
        owner = owner_of(ALICE["X-Owner-Key"])
        for _ in range(MOST_TABLES):
            other = service.create("spellchrome/jackal_pack", {}, {}, None, True, None)
            assert store.own_table(owner, other["table"], seal(ALICE["X-Owner-Key"], other["gm"]["token"]))
        from affray.store.owned import TooMany

        with pytest.raises(TooMany, match="You keep 50 tables already, the most there may be"):
            store.own_table(owner, made["table"], "sealed")
        service.close()


def test_saved_fights_and_tables_survive_a_restart_of_the_server(tmp_path: Path) -> None:
    service, client, store = serving(tmp_path / "affray.db")
    with client:
        fight_id = client.post("/api/fights", json=FIGHT, headers=ALICE).json()["id"]
        made = create(client, "spellchrome/jackal_pack")
        client.post("/api/owned/tables", json={"table": made["table"], "token": made["gm"]["token"]}, headers=ALICE)
    service.close()
    store.close()
    service, client, store = serving(tmp_path / "affray.db")
    with client:
        assert client.get(f"/api/fights/{fight_id}", headers=ALICE).json()["body"] == FIGHT["body"]
        [table] = client.get("/api/owned/tables", headers=ALICE).json()["tables"]
        assert table["gm_link"] == f"/t/{made['table']}#{made['gm']['token']}"
        gm = client.get(f"/api/tables/{made['table']}", headers={"Authorization": f"Bearer {made['gm']['token']}"})
        assert gm.status_code == 200
    service.close()
    store.close()


def test_on_a_keyed_server_the_owner_is_the_holder_of_the_creation_key(tmp_path: Path) -> None:
    service, client, store = serving(tmp_path / "affray.db", create_key="the-creation-key")
    with client:
        key = {"X-Create-Key": "the-creation-key"}
        # Without the key: told to give it, and no failed login counted (a lobby asks before it holds one).
        for _ in range(12):
            asked = client.get("/api/fights")
            assert (asked.status_code, asked.json()["code"]) == (401, "key_needed")
        wrong = client.get("/api/fights", headers={"X-Create-Key": "guess"})
        assert (wrong.status_code, wrong.json()["code"]) == (401, "bad_create_key")
        saved = client.post("/api/fights", json=FIGHT, headers={**key, **ALICE})
        assert saved.status_code == 201
        # Every holder of the key is the one owner, whatever secret a browser sends besides.
        assert [f["id"] for f in client.get("/api/fights", headers={**key, **BOB}).json()["fights"]] == [
            saved.json()["id"]
        ]
    service.close()
    store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_store_keeps_fights_and_tables_per_owner_on_both_databases(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """store/owned.py on an SQLite file and on the suite's PostgreSQL server: saved in place, listed newest first,
    bounded, per owner, an owned table joined with its row."""
    from tests.store.conftest import SEATS, new_table

    url = f"sqlite:///{tmp_path / 'affray.db'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    alice, bob = owner_of(ALICE["X-Owner-Key"]), owner_of(BOB["X-Owner-Key"])
    with Store(url) as store:
        first = store.put_fight(alice, "f1", "One", "spellchrome", {"n": 1})
        store.put_fight(alice, "f2", "Two", "warp", {"n": 2})
        again = store.put_fight(alice, "f1", "One again", "spellchrome", {"n": 3})
        assert (again.created_at, again.body) == (first.created_at, {"n": 3})
        assert [(f.id, f.title) for f in store.fights(alice)] == [("f1", "One again"), ("f2", "Two")]
        assert store.fights(bob) == [] and store.fight(bob, "f1") is None
        assert store.delete_fight(bob, "f1") is False and store.delete_fight(alice, "f2") is True
        for n in range(MOST_FIGHTS - 1):
            store.put_fight(alice, f"g{n}", "G", "hud", {})
        from affray.store.owned import TooMany

        with pytest.raises(TooMany):
            store.put_fight(alice, "one-more", "G", "hud", {})
        store.create_table(new_table("tbl1"), SEATS)
        assert store.own_table(alice, "tbl1", "sealed-a") is True
        assert store.own_table(alice, "tbl1", "sealed-b") is False
        [kept] = store.owned_tables(alice)
        assert (kept.table_id, kept.title, kept.ruleset, kept.ended_at, kept.sealed) == (
            "tbl1",
            "Mill ambush",
            "witchhammer",
            None,
            "sealed-a",
        )
        assert store.owned_tables(bob) == []
        assert store.disown_table(bob, "tbl1") is False and store.disown_table(alice, "tbl1") is True
