"""The suite's own PostgreSQL (tests/pg.py): it says what to install instead of skipping, and runs unprivileged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tests.pg
from tests.pg import PgServer


def test_missing_server_binaries_fail_with_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tests.pg, "PG_BIN", tmp_path)
    expected = r"\(initdb, postgres\) are not in .*install them with `apt-get install postgresql-15`"
    with pytest.raises(pytest.fail.Exception, match=expected), tests.pg.postgres_server():
        pass


def test_the_server_listens_on_loopback_and_never_runs_as_root(pg_server: PgServer) -> None:
    with pg_server.connect() as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
        assert conn.execute("SHOW fsync").fetchone() == ("off",)
    owner = (pg_server.folder / "data").stat().st_uid
    assert owner != 0 and (os.geteuid() == 0 or owner == os.geteuid())
