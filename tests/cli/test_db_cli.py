"""Damage noticed at start, and the operators' commands (docs/table.md, "Checking the database"): ``affray serve``
refuses an SQLite file with 8 KiB of random bytes mid-file, naming the file and what to do, and says in its log that
an empty file is started as a new database; ``affray db check`` and ``affray db backup OUT``."""

from __future__ import annotations

from pathlib import Path

import httpx2 as httpx

from affray.store.schema import SCHEMA_VERSION
from tests.cli.inproc import run_cli
from tests.cli_run import affray
from tests.store.test_check import RECORDS, damage, filled
from tests.table.test_kill9 import Server, free_port


def test_serve_refuses_a_damaged_sqlite_file(tmp_path: Path) -> None:
    path = filled(tmp_path / "affray.db")
    damage(path)
    done = affray("serve", "--port", str(free_port()), "--db", f"sqlite:///{path}", process=True)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said
    assert f"{path}: the database is damaged" in " ".join(said.split()) and "Restore it from a backup" in said


def test_serve_says_an_empty_file_is_started_as_a_new_database(tmp_path: Path) -> None:
    (tmp_path / "affray.db").touch()
    server = Server(f"sqlite:///{tmp_path / 'affray.db'}", log=tmp_path / "server.log")
    server.start()
    try:
        assert httpx.get(f"{server.url}/api/examples", timeout=30).status_code == 200
    finally:
        server.kill()
    assert (
        f"the database {tmp_path / 'affray.db'} exists but is empty: starting it as a new, empty database"
        in (tmp_path / "server.log").read_text()
    )


def test_db_check_reports_a_sound_and_a_damaged_file(tmp_path: Path) -> None:
    path = filled(tmp_path / "affray.db")
    code, out, _ = run_cli(["db", "check", "--db", f"sqlite:///{path}"])
    assert code == 0 and f"schema version {SCHEMA_VERSION}; 1 open tables, 0 ended tables, {RECORDS} records" in out
    damage(path)
    code, out, err = run_cli(["db", "check", "--db", f"sqlite:///{path}"])
    assert code == 1 and "damaged" in out and "not fit to serve" in out and "Traceback" not in out + err


def test_db_backup_copies_a_store_and_refuses_to_overwrite(tmp_path: Path) -> None:
    path = filled(tmp_path / "affray.db")
    out_file = tmp_path / "backup.db"
    code, out, _ = run_cli(["db", "backup", str(out_file), "--db", f"sqlite:///{path}"])
    assert code == 0 and "backed up" in out and f"{RECORDS} records" in out
    code, out, err = run_cli(["db", "backup", str(out_file), "--db", f"sqlite:///{path}"])
    assert code != 0 and "exists already" in out + err
    code, out, err = run_cli(["db", "backup", "x.dump", "--db", "postgresql+psycopg://u@h/db"])
    assert code != 0 and "pg_dump --format=custom --file=x.dump" in " ".join((out + err).split())
