"""The versioned schema (docs/table.md, 'Schema'): a hand-built v1 database is upgraded with its rows kept; a newer or a
foreign database is refused with one sentence; SQLite is opened WAL, FULL sync, foreign keys on, file 0600."""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa

from affray.store import SCHEMA_VERSION, ChatLine, Record, Snapshot, Store, StoreError
from tests.pg import PgServer
from tests.store.conftest import SEATS, new_table

# Version 1 of the schema, written out by hand: no tables.config column and no audit table.
V1 = """
CREATE TABLE meta (key VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, ruleset VARCHAR(32) NOT NULL, title TEXT NOT NULL,
  scenario TEXT NOT NULL, setup JSON NOT NULL, options JSON NOT NULL, seed_hex VARCHAR(128) NOT NULL,
  commitment VARCHAR(128) NOT NULL, created_at DOUBLE PRECISION NOT NULL, ended_at DOUBLE PRECISION, outcome JSON);
CREATE TABLE seats (table_id VARCHAR(32) NOT NULL REFERENCES tables (id), seat VARCHAR(64) NOT NULL,
  token_hash VARCHAR(64), actors JSON NOT NULL, controller VARCHAR(64) NOT NULL, role VARCHAR(16) NOT NULL,
  PRIMARY KEY (table_id, seat));
CREATE UNIQUE INDEX seats_token ON seats (token_hash);
CREATE TABLE records (table_id VARCHAR(32) NOT NULL REFERENCES tables (id), seq INTEGER NOT NULL,
  kind VARCHAR(8) NOT NULL, seat VARCHAR(64), actor VARCHAR(64), payload JSON NOT NULL,
  submission_id VARCHAR(128), chain VARCHAR(128) NOT NULL, created_at DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (table_id, seq), CONSTRAINT records_submission UNIQUE (table_id, submission_id));
INSERT INTO tables VALUES ('old1', 'hud', 'Nerdified duel', 'hud/nerdified_duel', '{"a": [1, 2]}', '{}',
  'beef', 'c0ffee', 1700000000.5, NULL, NULL);
INSERT INTO tables VALUES ('old2', 'warp', 'Done', 'warp/x', '{}', '{"o": 1}', 'cafe', 'f00d', 1700000001.0,
  1700000100.0, '{"winner": "A"}');
INSERT INTO seats VALUES ('old1', 'gm', 'ab12', '[]', 'human', 'gm');
INSERT INTO seats VALUES ('old1', 'alice', 'cd34', '["Alice", "Bob"]', 'human', 'player');
INSERT INTO records VALUES ('old1', 0, 'action', 'alice', 'Alice', '{"type": "strike"}', 'sub0', 'h0', 1700000002.0);
INSERT INTO records VALUES ('old1', 1, 'undo', 'gm', NULL, '{"to": 0}', NULL, 'h1', 1700000003.0);
"""


def build(url: str, script: str) -> None:
    """Run SQL statements by hand, without the Store (as an older affray would have written them)."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for statement in script.split(";"):
            if statement.strip():
                conn.exec_driver_sql(statement)
    engine.dispose()


def schema_version(url: str) -> str:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        value = conn.exec_driver_sql("SELECT value FROM meta WHERE key = 'schema_version'").scalar_one()
    engine.dispose()
    return str(value)


def test_a_v1_database_is_upgraded_step_by_step_and_keeps_its_rows(store_url: str) -> None:
    build(store_url, V1)
    with Store(store_url) as store:
        assert store.migrated_from == 1
        old = store.table("old1")
        assert old is not None
        assert (old.ruleset, old.scenario, old.setup, old.seed_hex, old.created_at) == (
            "hud",
            "hud/nerdified_duel",
            {"a": [1, 2]},
            "beef",
            1700000000.5,
        )
        assert old.config == {}  # the v2 column, defaulted for old rows
        done = store.table("old2")
        assert done is not None and done.outcome == {"winner": "A"} and done.ended_at == 1700000100.0
        assert [table.id for table in store.open_tables()] == ["old1"]
        assert [(seat.seat, seat.actors) for seat in store.seats("old1")] == [("alice", ("Alice", "Bob")), ("gm", ())]
        assert store.seat_by_token_hash("cd34") == ("old1", "alice")
        assert [(r.seq, r.kind, r.payload, r.submission_id) for r in store.records("old1")] == [
            (0, "action", {"type": "strike"}, "sub0"),
            (1, "undo", {"to": 0}, None),
        ]
        # What v2 added works on the upgraded database.
        assert store.audit("old1", "gm", "pause") == 0
        assert store.set_config("old1", {"spectators": False}) == {"spectators": False}
        assert (
            store.append("old1", Record(seq=2, kind="action", seat="alice", actor="Bob", payload={}, chain="h2"))
            is True
        )
        # What v3 added: records keep chosen_at (empty on the old rows), and the chat table holds lines.
        assert (
            store.append(
                "old1",
                Record(seq=3, kind="gm", seat="gm", actor=None, payload={"type": "ruling"}, chain="h3", chosen_at=None),
            )
            is True
        )
        assert [r.chosen_at for r in store.records("old1")] == [None, None, None, None]
        assert store.add_chat("old1", ChatLine(0, "alice", None, "chat", {"text": "hello"})) is True
        assert store.add_chat("old1", ChatLine(0, "gm", None, "chat", {"text": "taken"})) is False
        assert [(line.n, line.seat, line.body) for line in store.chat("old1")] == [(0, "alice", {"text": "hello"})]
        # What v4 added: a table's newest snapshot, kept alone.
        assert store.snapshot("old1") is None
        assert store.put_snapshot("old1", Snapshot(2, "code", "h1", "d2", b"two")) is True
        assert store.put_snapshot("old1", Snapshot(4, "code", "h3", "d4", b"four")) is True
        assert store.put_snapshot("old1", Snapshot(3, "code", "h2", "d3", b"three")) is False
        assert store.snapshot("old1") == Snapshot(4, "code", "h3", "d4", b"four")
        assert store.put_snapshot("old1", Snapshot(4, "code", "h3", "e4", b"good")) is True  # in a bad one's place
        assert store.snapshot("old1") == Snapshot(4, "code", "h3", "e4", b"good")
        # What v5 added: each table's rules version, "1" on the tables made before it was recorded.
        assert [(table.id, table.rules_version) for table in (old, done)] == [("old1", "1"), ("old2", "1")]
        # What v6 added: each table's salt secret, none on the tables made before it (they keep their format-3 log).
        assert [table.salt_hex for table in (old, done)] == [None, None]
        # What v7 added: the owners' fights and tables, none kept before it.
        assert store.fights("o" * 64) == []
        # What v8 added: each table's map image, none before it; the first upload is version 1.
        assert store.map_image("old1") is None
        assert store.put_map("old1", "image/png", b"png").version == 1
        assert store.put_map("old1", "image/webp", b"webp").version == 2
        kept = store.map_image("old1")
        assert kept is not None and (kept.media_type, kept.body) == ("image/webp", b"webp")
    assert schema_version(store_url) == str(SCHEMA_VERSION) == "8"
    with Store(store_url) as again:
        assert again.migrated_from == 8
        assert [entry.kind for entry in again.audit_trail("old1")] == ["pause"]


def test_an_empty_database_gets_the_current_schema(store_url: str) -> None:
    with Store(store_url) as store:
        assert store.migrated_from == 0
        store.create_table(new_table(), SEATS)
    assert schema_version(store_url) == "8"


def test_a_database_newer_than_this_program_refuses_to_open(store_url: str) -> None:
    Store(store_url).close()
    build(store_url, "UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    with pytest.raises(
        StoreError,
        match=r"schema version 9, newer than this affray understands \(up to 8\); "
        "upgrade affray",
    ):
        Store(store_url)


def test_a_database_that_is_not_affrays_refuses_to_open(store_url: str) -> None:
    build(store_url, "CREATE TABLE records (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="holds tables but no affray schema version; it is not an affray database"):
        Store(store_url)


def test_sqlite_is_wal_full_sync_with_foreign_keys_and_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "affray.db"
    with Store(f"sqlite:///{path}") as store:
        store.create_table(new_table(), SEATS)
        store.append("tbl1", Record(seq=0, kind="action", seat="ulla", actor="Ulla", payload={}, chain=""))
        with store._engine.connect() as conn:  # the Store's own connections, as every write uses them
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        for name in ("affray.db", "affray.db-wal"):
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    with contextlib.closing(sqlite3.connect(path)) as raw:  # a sqlite3 connection's own with-block does not close it
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("not a url", "'not a url' is not a database URL"),
        ("mysql://u@h/db", "unsupported database 'mysql'"),
        ("postgresql+psycopg2://u@h/db", "the PostgreSQL driver 'psycopg2' is not supported"),
        ("sqlite://", "an SQLite store needs a file"),
        ("sqlite:///no/such/folder/affray.db", "the folder no/such/folder does not exist"),
    ],
)
def test_bad_urls_are_refused_with_one_sentence(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        Store(url)


def test_an_unknown_postgresql_database_or_a_server_that_does_not_answer_is_a_store_error(pg_server: PgServer) -> None:
    with pytest.raises(StoreError, match=r"cannot open the database .*no_such_database.*does not exist"):
        Store(pg_server.url("no_such_database"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]  # bound but not listening: connections are refused
        with pytest.raises(StoreError, match=r"cannot open the database .*refused"):
            Store(f"postgresql://affray@127.0.0.1:{closed_port}/x")
