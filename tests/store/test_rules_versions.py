"""Each table's rules version in the store (schema v5 ``tables.rules_version``; docs/table.md, "Tables and logs of
other rules"): a table keeps the version it was made under, and ``store.check`` (``affray db check``) lists, on both
backends, every table made under another version than this affray runs, with the sentence the server refuses it
with; a schema version 4 database, which recorded no version, counts every table as version "1". A ruleset this
affray does not know is left to the replay (it is not a question of versions)."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from pathlib import Path

import pytest

from affray.store import Store
from affray.store.check import check, check_sqlite
from affray.store.rows import rules_refusal
from tests.core.rules_bump import run_rules_version
from tests.store.conftest import SEATS, new_table


def refusal(table_id: str, made: str, runs: str) -> str:
    return (
        f"table {table_id}: this table was made under witchhammer rules version {made}; this affray runs version "
        f"{runs}: it is not served, and its rows are kept (an affray that runs witchhammer rules version {made} "
        f"serves it)"
    )


def test_check_lists_the_tables_of_other_rules_versions(monkeypatch: pytest.MonkeyPatch, store_url: str) -> None:
    run_rules_version(monkeypatch, "witchhammer", "2")
    with Store(store_url) as store:
        for table_id, version in (("old", "1"), ("now", "2"), ("new", "3")):
            made = store.create_table(dataclasses.replace(new_table(table_id), rules_version=version), [])
            assert made.rules_version == version and store.table(table_id) == made
        store.create_table(dataclasses.replace(new_table("odd"), ruleset="no_such_ruleset"), [])
        row = store.table("old")
        assert row is not None and row.rules_refusal() == refusal("old", "1", "2").partition(": ")[2]
    health = check(store_url)
    assert health.ok and health.refused == [refusal("old", "1", "2"), refusal("new", "3", "2")]
    run_rules_version(monkeypatch, "witchhammer", "3")
    assert check(store_url).refused == [refusal("old", "1", "3"), refusal("now", "2", "3")]


def test_a_schema_4_database_counts_every_table_as_rules_version_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "affray.db"
    with Store(f"sqlite:///{path}") as store:
        store.create_table(new_table("old"), SEATS)
    with contextlib.closing(sqlite3.connect(path)) as raw, raw:  # as schema version 4 wrote it: no such column
        raw.execute("ALTER TABLE tables DROP COLUMN rules_version")
        raw.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    run_rules_version(monkeypatch, "witchhammer", "1")
    health = check_sqlite(path)
    assert (health.ok, health.version, health.refused) == (True, 4, [])
    run_rules_version(monkeypatch, "witchhammer", "2")
    assert check_sqlite(path).refused == [refusal("old", "1", "2")]


def test_an_unrecorded_version_is_version_1_and_an_unknown_ruleset_is_a_key_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run_rules_version(monkeypatch, "witchhammer", "1")
    assert rules_refusal("witchhammer", None) is None and rules_refusal("witchhammer", "1") is None
    run_rules_version(monkeypatch, "witchhammer", "2")
    assert rules_refusal("witchhammer", None) == refusal("x", "1", "2").partition(": ")[2]
    with pytest.raises(KeyError, match="unknown ruleset 'no_such_ruleset'"):
        rules_refusal("no_such_ruleset", "1")
