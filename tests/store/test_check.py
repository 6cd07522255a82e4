"""Damage noticed (docs/table.md, "Checking the database"): store.check finds an SQLite file that SQLite's
quick_check or the schema reject, calls a missing or empty file new, and reads PostgreSQL's schema version;
backup_sqlite copies a store into a new owner-only file that checks out."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from affray.store import Record, Store, StoreError
from affray.store.check import backup_sqlite, check, check_sqlite
from affray.store.schema import SCHEMA_VERSION
from tests.store.conftest import SEATS, new_table

RECORDS = 400


def filled(path: Path) -> Path:
    """An SQLite store with one table and RECORDS records, closed (so everything is in the main file)."""
    with Store(f"sqlite:///{path}") as store:
        store.create_table(new_table(), SEATS)
        for seq in range(RECORDS):
            store.append(
                "tbl1",
                Record(
                    seq=seq,
                    kind="action",
                    seat="ulla",
                    actor="Ulla",
                    payload={"n": seq, "text": "x" * 100},
                    chain=f"{seq:064d}",
                ),
            )
    return path


def damage(path: Path, size: int = 8 * 1024, seed: int = 7) -> None:
    """Overwrite ``size`` bytes in the middle of the file with random ones."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + size] = random.Random(seed).randbytes(size)
    path.write_bytes(bytes(data))


def test_a_sound_store_checks_out_with_its_counts(tmp_path: Path) -> None:
    health = check(f"sqlite:///{filled(tmp_path / 'affray.db')}")
    assert health.ok and not health.new and health.version == SCHEMA_VERSION
    assert health.counts == {"open tables": 1, "ended tables": 0, "records": RECORDS}


def test_8_kib_of_random_bytes_mid_file_are_noticed(tmp_path: Path) -> None:
    path = filled(tmp_path / "affray.db")
    damage(path)
    health = check_sqlite(path)
    assert not health.ok
    assert "quick_check" in health.problems[0] or "SQLite cannot read it" in health.problems[0]
    assert str(path) in health.refusal() and "Restore it from a backup" in health.refusal()


def test_missing_and_empty_files_are_new_databases(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    assert check_sqlite(tmp_path / "missing.db").new and check_sqlite(tmp_path / "missing.db").ok
    assert check_sqlite(tmp_path / "empty.db").new and check_sqlite(tmp_path / "empty.db").ok


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"hello, this is not a database" * 100, "not an SQLite database"),
    ],
)
def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path, content: bytes, expected: str) -> None:
    (tmp_path / "x.db").write_bytes(content)
    health = check_sqlite(tmp_path / "x.db")
    assert not health.ok and expected in health.problems[0]


def test_schema_problems_are_named(tmp_path: Path) -> None:
    path = filled(tmp_path / "affray.db")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    conn.close()
    assert "newer than this affray reads" in check_sqlite(path).problems[0]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
        conn.execute("DROP TABLE audit")
    conn.close()
    assert check_sqlite(path).problems == ["schema version 2 lacks the table(s) audit"]
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    conn.close()
    assert "not an affray database" in check_sqlite(other).problems[0]


def test_postgresql_reports_its_schema_version(pg_url: str) -> None:
    assert check(pg_url).new
    with Store(pg_url) as store:
        store.create_table(new_table(), SEATS)
    health = check(pg_url)
    assert health.ok and health.version == SCHEMA_VERSION and health.counts["open tables"] == 1
    assert health.where.startswith("postgresql")


def test_a_backup_is_a_new_owner_only_file_that_checks_out(tmp_path: Path) -> None:
    source = filled(tmp_path / "affray.db")
    copy = backup_sqlite(source, tmp_path / "copy.db")
    assert copy.ok and copy.counts["records"] == RECORDS
    assert (tmp_path / "copy.db").stat().st_mode & 0o777 == 0o600
    with pytest.raises(StoreError, match="exists already"):
        backup_sqlite(source, tmp_path / "copy.db")
    with Store(f"sqlite:///{tmp_path / 'copy.db'}") as store:
        assert len(store.records("tbl1")) == RECORDS
