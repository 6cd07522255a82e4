"""Tables and seats in the store (docs/table.md, 'Schema'): create, read, token lookup and replacement, end, config."""

from __future__ import annotations

import dataclasses
from typing import cast

import pytest

from affray.store import Role, Seat, Store, StoreError, new_table_id
from tests.store.conftest import SEATS, new_table


def test_create_then_read_a_table_gives_back_every_field(store: Store) -> None:
    created = store.create_table(new_table(), SEATS)
    read = store.table("tbl1")
    assert read == created
    assert read is not None
    assert (read.ruleset, read.title, read.scenario) == ("witchhammer", "Mill ambush", "witchhammer/mill_ambush")
    assert read.setup == {"combatants": [{"name": "Ulla", "side": "party"}, {"name": "Rat", "side": "foes"}]}
    assert read.options == {"drama_timer": True}
    assert (read.seed_hex, read.commitment) == ("00ff" * 8, "ab" * 32)
    assert read.config == {"spectators": True, "policy_pause": 0.5}
    assert read.ended_at is None and read.outcome is None and read.is_open
    assert read.created_at > 1.7e9


def test_seats_come_back_by_name_with_actors_controller_and_role(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    assert store.seats("tbl1") == sorted(SEATS, key=lambda seat: seat.seat)
    foes = next(seat for seat in store.seats("tbl1") if seat.seat == "foes")
    assert foes == Seat(seat="foes", token_hash=None, actors=("Rat",), controller="aggressive", role="player")


def test_token_hash_finds_its_table_and_seat(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    store.create_table(
        new_table("tbl2"), [Seat(seat="gm", token_hash="d" * 64, actors=(), controller="human", role="gm")]
    )
    assert store.seat_by_token_hash("b" * 64) == ("tbl1", "ulla")
    assert store.seat_by_token_hash("d" * 64) == ("tbl2", "gm")
    assert store.seat_by_token_hash("e" * 64) is None


def test_replaced_token_stops_working_at_once(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    assert store.replace_token("tbl1", "ulla", "f" * 64) is True
    assert store.seat_by_token_hash("b" * 64) is None
    assert store.seat_by_token_hash("f" * 64) == ("tbl1", "ulla")
    assert store.replace_token("tbl1", "nobody", "9" * 64) is False
    assert store.replace_token("nope", "ulla", "9" * 64) is False


def test_end_table_records_the_outcome_once_and_open_tables_drops_it(store: Store) -> None:
    for table_id in ("t1", "t2", "t3"):
        store.create_table(new_table(table_id), [])
    assert store.end_table("t2", {"winner": "party", "reason": "foes fled"}) is True
    assert store.end_table("t2", {"winner": "foes", "reason": "late"}) is False
    ended = store.table("t2")
    assert ended is not None and not ended.is_open and ended.ended_at is not None
    assert ended.outcome == {"winner": "party", "reason": "foes fled"}
    assert [table.id for table in store.open_tables()] == ["t1", "t3"]


def test_set_config_merges_changes_and_keeps_the_rest(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    assert store.set_config("tbl1", {"spectators": False, "paused": True}) == {
        "spectators": False,
        "policy_pause": 0.5,
        "paused": True,
    }
    table = store.table("tbl1")
    assert table is not None and table.config == {"spectators": False, "policy_pause": 0.5, "paused": True}


def test_unknown_table_ids_read_as_none_or_empty(store: Store) -> None:
    assert store.table("missing") is None
    assert store.seats("missing") == []
    assert store.records("missing") == []
    assert store.audit_trail("missing") == []
    assert store.version("missing") == 0
    assert store.record_by_submission("missing", "s1") is None
    assert store.end_table("missing", {"winner": None}) is False
    assert store.set_config("missing", {"paused": True}) is None
    assert store.open_tables() == []


def test_a_taken_table_id_or_seat_name_is_refused_and_nothing_is_kept(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    with pytest.raises(StoreError, match="cannot create table 'tbl1'"):
        store.create_table(dataclasses.replace(new_table(), title="again"), [])
    twice = [SEATS[0], SEATS[0]]
    with pytest.raises(StoreError, match="cannot create table 'tbl2'"):
        store.create_table(new_table("tbl2"), twice)
    assert store.table("tbl2") is None
    assert [table.id for table in store.open_tables()] == ["tbl1"]


def test_a_seat_with_an_unknown_role_is_refused(store: Store) -> None:
    bad = Seat(seat="x", token_hash=None, actors=(), controller="human", role=cast(Role, "boss"))
    with pytest.raises(ValueError, match="role must be one of gm, player, spectator, not 'boss'"):
        store.create_table(new_table(), [bad])
    assert store.table("tbl1") is None


def test_secrets_stay_out_of_repr(store: Store) -> None:
    """The seed and token hashes must not leak through a log line that prints a row."""
    table = store.create_table(new_table(), SEATS)
    assert "00ff00ff" not in repr(table) and "00ff00ff" not in repr(new_table())
    assert "bbbb" not in repr(store.seats("tbl1"))


def test_new_table_ids_are_short_url_safe_and_distinct() -> None:
    ids = {new_table_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(len(table_id) == 11 and table_id.replace("-", "").replace("_", "").isalnum() for table_id in ids)
