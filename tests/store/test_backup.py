"""The backups docs/table.md describes, done for real: the copy opens as a Store with every row."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from affray.store import Record, Store
from affray.store.schema import SCHEMA_VERSION, metadata
from tests.pg import PG_BIN, PgServer
from tests.store.conftest import SEATS, new_table

ROOT = Path(__file__).parents[2]


def fill(store: Store) -> None:
    store.create_table(new_table(), SEATS)
    for seq in range(3):
        store.append(
            "tbl1", Record(seq=seq, kind="action", seat="ulla", actor="Ulla", payload={"n": seq}, chain=str(seq))
        )
    store.audit("tbl1", "gm", "pause")


def same_rows(original: Store, copy: Store) -> None:
    assert copy.table("tbl1") == original.table("tbl1")
    assert copy.seats("tbl1") == original.seats("tbl1")
    assert copy.records("tbl1") == original.records("tbl1")
    assert copy.audit_trail("tbl1") == original.audit_trail("tbl1")


def test_an_online_backup_of_a_running_sqlite_store_holds_every_commit(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as live:
        fill(live)
        assert (tmp_path / "affray.db-wal").exists()  # the last commits are still in the WAL, not the main file
        with sqlite3.connect(tmp_path / "affray.db") as source, sqlite3.connect(tmp_path / "out.db") as target:
            source.backup(target)
        source.close()
        target.close()
        with Store(f"sqlite:///{tmp_path / 'out.db'}") as copy:
            same_rows(live, copy)


def test_pg_dump_and_pg_restore_carry_a_store_over(pg_server: PgServer, tmp_path: Path) -> None:
    source_url, target_url = pg_server.create_database("src"), pg_server.create_database("dst")

    def libpq(url: str) -> str:
        return url.replace("postgresql+psycopg://", "postgresql://")

    dump = tmp_path / "affray.dump"
    with Store(source_url) as live:
        fill(live)
        subprocess.run(
            [str(PG_BIN / "pg_dump"), "--format=custom", f"--file={dump}", libpq(source_url)],
            check=True,
            capture_output=True,
            timeout=60,
        )
        subprocess.run(
            [str(PG_BIN / "pg_restore"), f"--dbname={libpq(target_url)}", str(dump)],
            check=True,
            capture_output=True,
            timeout=60,
        )
        with Store(target_url) as copy:
            assert copy.migrated_from == SCHEMA_VERSION
            same_rows(live, copy)


def test_the_schema_section_of_the_docs_names_every_table_and_column() -> None:
    docs = (ROOT / "docs" / "table.md").read_text()
    schema = docs[docs.index("## Schema") :]
    for table in metadata.tables.values():
        assert f"| `{table.name}` |" in schema, f"docs/table.md's Schema does not list table {table.name}"
        for column in table.columns:
            assert f"`{column.name}`" in schema, f"docs/table.md's Schema does not list {table.name}.{column.name}"
