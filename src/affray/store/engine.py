"""Opening a database: the URL, the engine, and SQLite's settings; database failures as StoreError.

SQLite: WAL journal, ``synchronous=FULL`` (a commit is on disk when it returns), foreign keys on, a busy
timeout so that several Store objects (or processes) on one file wait for each other, and every write
transaction opened with ``BEGIN IMMEDIATE`` so two writers never deadlock upgrading a read lock. The file is
created owner-only (0600) because it holds the tables' secret seeds; SQLite gives its -wal and -shm files the
same permissions.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError

from affray.store.rows import StoreError

if TYPE_CHECKING:
    import sqlite3

BUSY_TIMEOUT_S = 30


def first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@contextlib.contextmanager
def database_errors(failure: str = "the database failed") -> Iterator[None]:
    """A database that fails mid-way (a server gone, a disk full) is a StoreError with one sentence.

    IntegrityError passes through: it is how ``append`` learns that it lost a race.
    """
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as exc:
        raise StoreError(f"{failure}: {first_line(exc)}") from exc


def check_fits(column: sa.Column[str], value: str | None, *, empty: bool = False) -> None:
    """Refuse a string the column cannot hold, the same on both backends (SQLite would store it silently)."""
    limit = getattr(column.type, "length", None)
    if value is None or limit is None:
        return
    if len(value) > limit or (not value and not empty):
        raise ValueError(
            f"{column.table.name}.{column.name} must be {0 if empty else 1} to {limit} characters, not {len(value)}"
        )


def _sqlite_file(url: sa.URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise StoreError("an SQLite store needs a file: use sqlite:///PATH (for example sqlite:///affray.db)")
    path = Path(url.database)
    if not path.parent.is_dir():
        raise StoreError(f"cannot create the database {path}: the folder {path.parent} does not exist")
    if not path.exists():
        # Owner-only from the first byte: the file will hold every table's secret seed.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    return path


#: Connections a process keeps open to its database, and the most it opens (docs/table.md, "Several processes"). A
#: request that finds them all in use waits for one rather than opening another: SQLAlchemy's default (5 kept, 10 more
#: opened and closed again in a burst) started a PostgreSQL backend process for most actions of a busy server, 1.4 ms
#: of PostgreSQL's CPU an action and a fifth of the actions a second, and set SQLite's pragmas up again as often
#: (docs/performance.md, "What an action costs").
POOL_SIZE = 20


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    _sqlite_file(url)
    engine = sa.create_engine(
        url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_S}, pool_size=POOL_SIZE, max_overflow=0
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        # Let SQLAlchemy's "begin" event below emit BEGIN itself (the pysqlite driver's own is deferred-only).
        dbapi_conn.isolation_level = None
        for pragma in (
            "journal_mode=WAL",
            "synchronous=FULL",
            "foreign_keys=ON",
            f"busy_timeout={BUSY_TIMEOUT_S * 1000}",
        ):
            dbapi_conn.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        write = conn.get_execution_options().get("affray_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def open_engine(url_text: str) -> tuple[sa.Engine, str | None]:
    """The engine for a URL and, for PostgreSQL, the libpq conninfo the listener connects with."""
    try:
        url = sa.make_url(url_text)
    except ArgumentError:
        raise StoreError(
            f"{url_text!r} is not a database URL (expected sqlite:///PATH or postgresql+psycopg://USER@HOST/DB)"
        ) from None
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url), None
    if url.get_backend_name() == "postgresql":
        if url.get_driver_name() not in ("psycopg", "postgresql"):
            raise StoreError(
                f"the PostgreSQL driver {url.get_driver_name()!r} is not supported; use postgresql+psycopg://"
            )
        url = url.set(drivername="postgresql+psycopg")
        conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        return sa.create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=0), conninfo
    raise StoreError(f"unsupported database {url.get_backend_name()!r}: use sqlite:///PATH or postgresql+psycopg://")
