"""Tables made under another version of their ruleset's rules (table/restore.py ``RulesChanged``, store/schema.py v5
``tables.rules_version``; docs/table.md, "Tables and logs of other rules"): a table records the version it is made
under; a table stored before versions were recorded (a schema version 4 database, its rows as that schema wrote them)
counts as version "1"; after its ruleset's rules are raised to version 2 it is refused over the API with 409
``rules_changed`` and a sentence naming both versions, listed by ``affray db check`` with that sentence, and loses
nothing: an affray that runs version 1 serves it again, as it was. DESIGN.md contract 4.

The versions are set per test (:func:`tests.core.rules_bump.run_rules_version`), whatever the plug-in records say."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from affray.core.json import as_list, as_object
from affray.store import Store
from affray.table import TableService, chat
from tests.cli.inproc import run_cli
from tests.core.rules_bump import run_rules_version
from tests.web.helpers import auth, make_app, tokens_of
from tests.web.inprocess import InProcessClient

FIXTURE = Path(__file__).parents[1] / "data" / "witchhammer_table_schema4.sql"
FIXTURE_TABLE = "xC08Ku8yPg0"
FIXTURE_TOKENS = {"bruna": "T6suqB0e0JfQIF6CJlhoXPAVqs3qIC7e", "gm": "VMh4JBbupRl1Md4qj8Jp5MikcHnnlASQ"}  # test tokens
SENTENCE = (
    "This table was made under witchhammer rules version {made}; this affray runs version {runs}: it is not "
    "served, and its rows are kept (an affray that runs witchhammer rules version {made} serves it)."
)


def played(url: str) -> tuple[str, dict[str, str]]:
    """A yard duel opened on the store at ``url``, two actions taken and a chat line said; its id and tokens."""
    with Store(url) as store:
        service = TableService(store, policy_pause=0)
        created = service.create("witchhammer/yard_duel", controllers={"bruna": "human", "tomas": "human"}, seed=4)
        tokens = tokens_of(created)
        for seat in ("bruna", "tomas"):
            table, info = service.authenticate(created["table"], tokens[seat])
            state = service.state(table, info)
            [(actor, specs)] = as_object(state["legal"]).items()
            service.submit(
                table, info, actor, as_object(as_object(as_list(specs)[0])["action"]), int(str(state["version"]))
            )
        chat.post(service.ledger, table, info, None, text="Again!")  # the last seat's, tomas
        service.close()
    return created["table"], tokens


def schema_4_database(path: Path) -> str:
    """The stored fixture: a table saved by an affray before rules versions were recorded, with its rows as schema
    version 4 wrote them (no ``tables.rules_version``); the URL of the database made from it at ``path``."""
    with contextlib.closing(sqlite3.connect(path)) as raw:
        raw.executescript(FIXTURE.read_text())
    return f"sqlite:///{path}"


def rows(store: Store, table_id: str) -> tuple[Any, ...]:
    """Everything the store holds of a table (its row without the new column, seats, records, chat, audit)."""
    row = store.table(table_id)
    assert row is not None
    kept = {k: v for k, v in vars(row).items() if k != "rules_version"}
    return (kept, store.seats(table_id), store.records(table_id), store.chat(table_id), store.audit_trail(table_id))


def test_a_table_made_now_records_the_rules_version_it_was_made_under(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'affray.db'}"
    run_rules_version(monkeypatch, "witchhammer", "3")
    table_id, tokens = played(url)
    with Store(url) as store:
        row = store.table(table_id)
        assert row is not None and row.rules_version == "3"
        run_rules_version(monkeypatch, "witchhammer", "4")
        service, app = make_app(store)
        with InProcessClient(app) as client:
            answer = client.get(f"/api/tables/{table_id}", headers=auth(tokens["bruna"]))
        service.close()
    assert answer.status_code == 409
    assert answer.json() == {"code": "rules_changed", "message": SENTENCE.format(made=3, runs=4)}


def test_a_table_stored_before_versions_were_recorded_is_refused_after_the_bump_and_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = schema_4_database(tmp_path / "affray.db")
    table_id, tokens = FIXTURE_TABLE, FIXTURE_TOKENS
    run_rules_version(monkeypatch, "witchhammer", "2")  # the rules change in the new affray
    with Store(url) as store:
        assert store.migrated_from == 4
        row = store.table(table_id)
        assert row is not None and row.rules_version == "1"  # an older table counts as version 1
        before = rows(store, table_id)
        service, app = make_app(store)
        with InProcessClient(app) as client:
            bruna, gm = auth(tokens["bruna"]), auth(tokens["gm"])
            answers = [
                client.get(f"/api/tables/{table_id}", headers=bruna),
                client.get(f"/api/tables/{table_id}/log", headers=gm),
                client.post(
                    f"/api/tables/{table_id}/actions",
                    headers=bruna,
                    json={"actor": "bruna", "action": {"type": "ready"}, "version": 2, "id": "x"},
                ),
                client.post(f"/api/tables/{table_id}/gm/end", headers=gm),
            ]
            refused = {"code": "rules_changed", "message": SENTENCE.format(made=1, runs=2)}
            assert [(a.status_code, a.json()) for a in answers] == [(409, refused)] * 4
            assert table_id not in service.loaded() and table_id not in service.damaged
        service.close()
        assert rows(store, table_id) == before
    code, out, err = run_cli(["db", "check", "--db", url])
    assert code == 0, err
    said = " ".join(out.split())
    sentence = SENTENCE.format(made=1, runs=2)
    assert f"refused: table {table_id}: {sentence[0].lower()}{sentence[1:-1]}" in said
    # An affray that runs version 1 serves it again, as it was: two actions and the chat line.
    run_rules_version(monkeypatch, "witchhammer", "1")
    assert run_cli(["db", "check", "--db", url])[1].count("refused") == 0
    with Store(url) as store:
        service, app = make_app(store)
        with InProcessClient(app) as client:
            state = client.get(f"/api/tables/{table_id}", headers=auth(tokens["bruna"]))
        service.close()
    assert state.status_code == 200, state.text
    assert state.json()["version"] == 2 and [line["text"] for line in state.json()["chat"]] == ["Again!"]
