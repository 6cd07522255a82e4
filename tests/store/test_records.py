"""The log of record and the GM audit trail (docs/table.md, 'Schema'): order, since, retries, round trips,
durability."""

from __future__ import annotations

import dataclasses
from typing import Any, cast
from unittest.mock import ANY

import pytest

from affray.store import SCHEMA_VERSION, Record, RecordKind, Store, StoreError, UnknownTable
from tests.pg import PgServer
from tests.store.conftest import SEATS, new_table


def action(seq: int, submission_id: str | None = None, payload: Any = None) -> Record:
    return Record(
        seq=seq,
        kind="action",
        seat="ulla",
        actor="Ulla",
        payload={"type": "card", "card": seq} if payload is None else payload,
        chain=f"{seq:064x}",
        submission_id=submission_id,
    )


@pytest.fixture
def table(store: Store) -> str:
    store.create_table(new_table(), SEATS)
    return "tbl1"


def test_records_come_back_in_order_and_since_a_seq(store: Store, table: str) -> None:
    for seq in range(5):
        assert store.append(table, action(seq)) is True
    assert (
        store.append(table, Record(seq=5, kind="undo", seat="gm", actor=None, payload={"to": 3}, chain="ff" * 32))
        is True
    )
    assert [record.seq for record in store.records(table)] == [0, 1, 2, 3, 4, 5]
    assert [record.seq for record in store.records(table, since_seq=3)] == [3, 4, 5]
    assert store.records(table, since_seq=6) == []
    assert store.version(table) == 6
    undo = store.records(table, since_seq=5)[0]
    assert (undo.kind, undo.seat, undo.actor, undo.payload, undo.chain) == ("undo", "gm", None, {"to": 3}, "ff" * 32)
    first = store.records(table)[0]
    assert first == Record(
        seq=0,
        kind="action",
        seat="ulla",
        actor="Ulla",
        payload={"type": "card", "card": 0},
        chain="0" * 64,
        submission_id=None,
        created_at=first.created_at,
    )
    assert first.created_at is not None and first.created_at > 1.7e9


def test_a_taken_seq_is_refused_without_an_exception_and_the_first_record_stays(store: Store, table: str) -> None:
    assert store.append(table, action(0, payload={"who": "first"})) is True
    assert store.append(table, action(0, payload={"who": "second"})) is False
    assert [record.payload for record in store.records(table)] == [{"who": "first"}]


def test_a_retried_submission_is_refused_and_found_by_its_id(store: Store, table: str) -> None:
    assert store.append(table, action(0, submission_id="sub-1")) is True
    assert store.append(table, action(1, submission_id="sub-1")) is False
    assert store.version(table) == 1
    found = store.record_by_submission(table, "sub-1")
    assert found is not None and found.seq == 0
    assert store.record_by_submission(table, "sub-2") is None
    # Ids are per table, and records without an id never collide.
    store.create_table(new_table("tbl2"), [])
    assert store.append("tbl2", action(0, submission_id="sub-1")) is True
    assert store.append(table, action(1)) is True and store.append(table, action(2)) is True


def test_a_gap_in_the_seqs_or_an_unknown_table_or_kind_is_a_programming_error(store: Store, table: str) -> None:
    with pytest.raises(ValueError, match="has 0 records; seq 2 would leave a gap"):
        store.append(table, action(2))
    with pytest.raises(UnknownTable, match="no table 'missing'"):
        store.append("missing", action(0))
    bad = Record(seq=0, kind=cast(RecordKind, "redo"), seat=None, actor=None, payload={}, chain="")
    with pytest.raises(ValueError, match="record kind must be one of action, undo"):
        store.append(table, bad)
    assert store.records(table) == []


PAYLOAD = {
    "type": "attack",
    "target": "Rat",
    "zeta": [3, 1, 2],
    "alpha": {"nested": [None, True, False]},
    "float": 0.1,
    "big": 2**62 + 1,
    "negative": -7,
    "text": "Ulla’s “wild” swing — ünïcödé 🐀",
    "empty": {},
    "escapes": 'quote " backslash \\ newline \n tab \t',
    "list": [],
    "exp": 1e-300,
}


def test_payload_json_round_trips_exactly(store: Store, table: str) -> None:
    assert store.append(table, action(0, payload=PAYLOAD)) is True
    back = store.records(table)[0].payload
    assert back == PAYLOAD
    assert list(back) == list(PAYLOAD)  # key order kept (PostgreSQL json, not jsonb)
    assert type(back["big"]) is int and type(back["float"]) is float


def test_the_audit_trail_numbers_entries_per_table(store: Store, table: str) -> None:
    store.create_table(new_table("tbl2"), [])
    assert store.audit(table, "gm", "pause") == 0
    assert store.audit(table, "gm", "undo", {"to": 3, "from": 7}) == 1
    assert store.audit("tbl2", "gm", "end", {"reason": "time"}) == 0
    assert store.audit(table, None, "timer", {"seconds": 30}) == 2
    trail = store.audit_trail(table)
    assert [(e.n, e.who, e.kind, e.detail) for e in trail] == [
        (0, "gm", "pause", {}),
        (1, "gm", "undo", {"to": 3, "from": 7}),
        (2, None, "timer", {"seconds": 30}),
    ]
    assert all(e.at > 1.7e9 for e in trail)
    with pytest.raises(UnknownTable):
        store.audit("missing", "gm", "pause")


def test_an_appended_record_survives_reopening_the_database(store_url: str) -> None:
    """Durability: what append acknowledged is there for a new Store (a restarted server)."""
    with Store(store_url) as first:
        first.create_table(new_table(), SEATS)
        assert first.append("tbl1", action(0, submission_id="s0", payload=PAYLOAD)) is True
        first.audit("tbl1", "gm", "pause")
    with Store(store_url) as again:
        assert again.migrated_from == SCHEMA_VERSION
        [record] = again.records("tbl1")
        assert (record.seq, record.submission_id, record.payload) == (0, "s0", PAYLOAD)
        assert [table.id for table in again.open_tables()] == ["tbl1"]
        assert [entry.kind for entry in again.audit_trail("tbl1")] == ["pause"]
        assert again.seat_by_token_hash("b" * 64) == ("tbl1", "ulla")


def test_over_long_names_are_refused_the_same_on_both_backends(store: Store, table: str) -> None:
    with pytest.raises(ValueError, match=r"records\.submission_id must be 1 to 128 characters, not 129"):
        store.append(table, action(0, submission_id="s" * 129))
    with pytest.raises(ValueError, match=r"records\.submission_id must be 1 to 128 characters, not 0"):
        store.append(table, action(0, submission_id=""))
    with pytest.raises(ValueError, match=r"tables\.id must be 1 to 32 characters, not 33"):
        store.create_table(new_table("t" * 33), [])
    with pytest.raises(ValueError, match=r"audit\.kind must be 1 to 32 characters, not 40"):
        store.audit(table, "gm", "k" * 40)
    # As core's Match logs an undo: actor "" and the action {"type": "undo", "to": N}.
    undo = Record(seq=0, kind="undo", seat="gm", actor="", payload={"type": "undo", "to": 0}, chain="")
    assert store.append(table, undo) and store.records(table) == [dataclasses.replace(undo, created_at=ANY)]
    assert store.audit_trail(table) == []
    assert [row.id for row in store.open_tables()] == [table]


def test_a_database_that_goes_away_is_a_store_error_not_a_driver_traceback(pg_server: PgServer, pg_url: str) -> None:
    with Store(pg_url) as store:
        store.create_table(new_table(), SEATS)
        name = pg_url.rsplit("/", 1)[1]
        with pg_server.connect() as admin:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        with pytest.raises(StoreError, match=r"the database failed: .*is not currently accepting connections"):
            store.append("tbl1", action(0))
        with pg_server.connect() as admin:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        assert store.append("tbl1", action(0)) is True  # and it recovers once the database is back


def test_scalar_payloads_round_trip_too(store: Store, table: str) -> None:
    """SQLite's JSON column has numeric affinity: a bare number must still come back as JSON, not a column value."""
    payloads: list[Any] = [3, 1.5, "pass", "12", None, True, [1, "a"], 2**63 - 1]
    for seq, payload in enumerate(payloads):
        assert store.append(table, Record(seq=seq, kind="action", seat="ulla", actor="Ulla", payload=payload, chain=""))
    back = [record.payload for record in store.records(table)]
    assert back == payloads
    assert [type(value) for value in back] == [type(value) for value in payloads]
