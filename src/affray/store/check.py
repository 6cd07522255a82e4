"""Checking a database before it is served, and backing one up (docs/table.md, "Checking the database" and
"Backups of the database").

:func:`check` looks at a database without changing it. For an SQLite file: that it is one (its header), SQLite's
``PRAGMA quick_check`` (every page of every table and index is readable and well-formed), and the schema: the
version in ``meta`` and the tables that version has. A file that does not exist, or exists but is empty (0 bytes),
is a *new* database, not a problem: the server creates the schema, and says so. For PostgreSQL: the server answers
and the schema version is one this program reads (PostgreSQL checks its own pages). ``affray serve`` refuses a
database whose check fails, with a sentence naming the file and what to do (:meth:`Health.refusal`);
``affray db check`` prints the whole report, and lists the tables made under another version of their
ruleset's rules than this affray runs (:func:`affray.store.rows.rules_refusal`): the server refuses each of them,
not the database, and keeps its rows.

On both, every JSON column of every row is read too: that it parses (SQLite stores any text; PostgreSQL's ``json``
type refuses malformed text itself) and has the shape affray writes there (an object; a seat's actors a list of
names), each damaged row named by its table and key (:data:`JSON_COLUMNS`, ``Health.damaged_rows``). A damaged row
damages only its own table: the server serves the others and answers that one's requests 503 ``table_damaged``
(``table/loading.py``), so it does not make the database unfit to serve; ``affray db check`` lists the rows and
exits 1, and ``affray serve`` names them in its log when it starts.

:func:`backup_sqlite` copies a running server's SQLite file with SQLite's online backup (a consistent snapshot, the
WAL's last commits included) into a new owner-only file, and checks the copy.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa

from affray.store.engine import first_line
from affray.store.rows import StoreError, rules_refusal
from affray.store.schema import RULES_VERSION_SCHEMA, SCHEMA_VERSION, TABLES_OF

SQLITE_HEADER = b"SQLite format 3\x00"
SHOWN_PROBLEMS = 5  # quick_check lists every damaged page; the report names the first few
SHOWN_ROWS = 50  # damaged rows named one by one; the rest are counted

#: Every JSON column of a table's rows: (table, column, how a row is named (SQL), what it must hold, NULL allowed).
#: "object": a JSON object; "names": a JSON list of strings.
JSON_COLUMNS: tuple[tuple[str, str, str, str, bool], ...] = (
    ("tables", "setup", "''", "object", False),
    ("tables", "options", "''", "object", False),
    ("tables", "config", "''", "object", False),
    ("tables", "outcome", "''", "object", True),
    ("seats", "actors", "'seat ' || seat", "names", False),
    ("records", "payload", "'record #' || seq", "object", False),
    ("chat", "body", "'chat line #' || n", "object", False),
    ("audit", "detail", "'audit entry #' || n", "object", False),
)


@dataclass(slots=True)
class Health:
    """What :func:`check` found: ``where`` (the file, or the server without its password), ``new`` (absent,
    empty, or without tables), ``version`` (the schema version found), ``problems`` (empty: fit to serve) and, for
    a readable database, ``counts`` (tables open and ended, records) and ``refused``: a sentence for each table made
    under another rules version than this affray runs (the server refuses those tables, not the database)."""

    where: str
    new: bool = False
    version: int | None = None
    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    damaged_rows: list[str] = field(default_factory=list)  # "table ID: ROW: its COLUMN ..." (at most SHOWN_ROWS)
    more_damaged_rows: int = 0  # damaged rows past SHOWN_ROWS

    @property
    def ok(self) -> bool:
        return not self.problems

    def refusal(self) -> str:
        """The sentence ``affray serve`` stops with."""
        return (
            f"{self.where}: the database is damaged ({self.problems[0]}); it is not served. Restore it from a "
            f'backup (docs/table.md, "Backups of the database") or move it aside to start a new one; '
            f"'affray db check' lists every problem."
        )


def sqlite_path(url: str) -> Path | None:
    """The file of an ``sqlite:///PATH`` URL, or None for any other database."""
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def check(url: str, *, server_rows: bool = True) -> Health:
    """Check the database at ``url`` (see the module docstring). A URL that names no database it can reach raises
    :class:`StoreError`, as opening it would. ``server_rows`` False: PostgreSQL's rows are not read (a scan of every
    record, which ``affray serve`` spares its start there; an SQLite file is read whole by ``quick_check`` anyway)."""
    path = sqlite_path(url)
    return check_sqlite(path) if path is not None else _check_server(url, server_rows)


def check_sqlite(path: Path) -> Health:
    health = Health(str(path))
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        health.new = True
        return health
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        health.problems.append(f"it cannot be read: {exc.strerror or exc}")
        return health
    if header != SQLITE_HEADER:
        health.problems.append("it is not an SQLite database (its first bytes are not SQLite's header)")
        return health
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            _sqlite_pages(conn, health)
            if health.ok:
                _schema(conn, health)
    except sqlite3.DatabaseError as exc:
        health.problems.append(f"SQLite cannot read it: {exc}")
    return health


def _sqlite_pages(conn: sqlite3.Connection, health: Health) -> None:
    rows = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if rows != ["ok"]:
        shown = "; ".join(rows[:SHOWN_PROBLEMS])
        more = f" (and {len(rows) - SHOWN_PROBLEMS} more)" if len(rows) > SHOWN_PROBLEMS else ""
        health.problems.append(f"PRAGMA quick_check: {shown}{more}")


def _schema(conn: sqlite3.Connection, health: Health) -> None:
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not names:
        health.new = True
        return
    if "meta" not in names:
        health.problems.append("it holds tables but no affray schema version: it is not an affray database")
        return
    found = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if found is None or not str(found[0]).isdigit():
        health.problems.append(f"its meta table has no readable schema_version (found {found!r})")
        return
    health.version = int(found[0])
    if health.version > SCHEMA_VERSION:
        health.problems.append(
            f"its schema version {health.version} is newer than this affray reads (up to "
            f"{SCHEMA_VERSION}): upgrade affray"
        )
        return
    missing = TABLES_OF.get(health.version, frozenset()) - names
    if health.version not in TABLES_OF or missing:
        health.problems.append(
            f"schema version {health.version} lacks the table(s) {', '.join(sorted(missing)) or '(unknown version)'}"
        )
        return
    health.counts = _counts(conn)
    health.refused = refused_tables(conn.execute(_versions_query(health.version)).fetchall())
    _sqlite_rows(conn, health, names)


def _sqlite_rows(conn: sqlite3.Connection, health: Health, names: set[str]) -> None:
    """Every row whose JSON column does not parse or has another shape (see the module docstring)."""
    for table, column, row, shape, nullable in JSON_COLUMNS:
        if table not in names or column not in {info[1] for info in conn.execute(f"PRAGMA table_info({table})")}:
            continue  # an older schema version, upgraded when served
        key = "id" if table == "tables" else "table_id"
        valid = f"json_valid({column})"
        shaped = (
            f"json_type({column}) = 'object'"
            if shape == "object"
            else f"json_type({column}) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each({column}) "
            f"WHERE type != 'text')"
        )
        allowed = f"{column} IS NULL OR " if nullable else ""
        query = (
            f"SELECT {key}, {row}, {valid} FROM {table} "
            f"WHERE NOT ({allowed}CASE WHEN {valid} THEN {shaped} ELSE 0 END) ORDER BY 1, 2"
        )
        for table_id, name, parses in conn.execute(query):
            _damaged_row(health, str(table_id), str(name), column, shape, bool(parses))


def _damaged_row(health: Health, table_id: str, row: str, column: str, shape: str, parses: bool) -> None:
    if len(health.damaged_rows) >= SHOWN_ROWS:
        health.more_damaged_rows += 1
        return
    want = "a JSON object" if shape == "object" else "a JSON list of names"
    what = f"is JSON of another shape, not {want}" if parses else "is not JSON"
    health.damaged_rows.append(f"table {table_id}: {row + ': ' if row else ''}its {column} {what}")


def _versions_query(version: int) -> str:
    """Each table's id, ruleset and rules version (before schema version 5 none was recorded: "1")."""
    column = "rules_version" if version >= RULES_VERSION_SCHEMA else "NULL"
    return f"SELECT id, ruleset, {column} FROM tables ORDER BY created_at, id"


def refused_tables(rows: Iterable[Sequence[object]]) -> list[str]:
    """For each (id, ruleset, rules version) row of a table made under other rules than this affray runs: the
    sentence the server answers it with (:func:`affray.store.rows.rules_refusal`), naming the table. A ruleset this
    affray does not know is left out."""
    out = []
    for table_id, ruleset, recorded in rows:
        try:
            refusal = rules_refusal(str(ruleset), None if recorded is None else str(recorded))
        except KeyError:
            continue
        if refusal is not None:
            out.append(f"table {table_id}: {refusal}")
    return out


def _counts(conn: sqlite3.Connection) -> dict[str, int]:
    open_, ended = conn.execute("SELECT SUM(ended_at IS NULL), SUM(ended_at IS NOT NULL) FROM tables").fetchone()
    records = conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    return {"open tables": int(open_ or 0), "ended tables": int(ended or 0), "records": int(records)}


def _check_server(url: str, rows: bool = True) -> Health:
    from affray.store.engine import open_engine
    from affray.store.schema import stored_version

    engine, _ = open_engine(url)
    health = Health(engine.url.render_as_string(hide_password=True))
    try:
        with engine.connect() as conn:
            try:
                health.version = stored_version(conn)
            except StoreError as exc:
                health.problems.append(str(exc))
                return health
            if health.version is None:
                health.new = True
            elif health.version > SCHEMA_VERSION:
                health.problems.append(f"its schema version {health.version} is newer than this affray reads")
            else:
                tables = sa.text(
                    "SELECT COUNT(*) FILTER (WHERE ended_at IS NULL), COUNT(*) FILTER (WHERE ended_at "
                    "IS NOT NULL) FROM tables"
                )
                open_, ended = conn.execute(tables).one()
                records = conn.execute(sa.text("SELECT COUNT(*) FROM records")).scalar_one()
                health.counts = {"open tables": open_, "ended tables": ended, "records": records}
                health.refused = refused_tables(conn.execute(sa.text(_versions_query(health.version))).all())
                if rows:
                    _server_rows(conn, health)
    except sa.exc.DBAPIError as exc:
        raise StoreError(f"cannot open the database {health.where}: {first_line(exc)}") from None
    finally:
        engine.dispose()
    return health


def _server_rows(conn: sa.Connection, health: Health) -> None:
    """PostgreSQL's :func:`_sqlite_rows`: its ``json`` columns always parse, so only their shape is read."""
    present = {
        (str(t), str(c))
        for t, c in conn.execute(
            sa.text(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            )
        )
    }
    for table, column, row, shape, nullable in JSON_COLUMNS:
        if (table, column) not in present:
            continue
        key = "id" if table == "tables" else "table_id"
        kind = f"json_typeof({column})"
        shaped = (
            f"{kind} = 'object'"
            if shape == "object"
            else f"{kind} = 'array' AND NOT EXISTS (SELECT 1 FROM json_array_elements({column}) AS e(v) "
            f"WHERE json_typeof(e.v) <> 'string')"
        )
        allowed = f"{column} IS NULL OR {kind} = 'null' OR " if nullable else ""
        query = (
            f"SELECT {key}, ({row})::text FROM {table} WHERE NOT ({allowed}CASE WHEN {kind} IN ('object', "
            f"'array') THEN {shaped} ELSE false END) ORDER BY 1, 2"
        )
        for table_id, name in conn.execute(sa.text(query)):
            _damaged_row(health, str(table_id), str(name), column, shape, True)


def backup_sqlite(source: Path, target: Path) -> Health:
    """Copy the SQLite database ``source`` (a running server's too) into the new file ``target`` with SQLite's
    online backup, owner-only from its first byte (it holds every table's seed); return the copy's check. Raises
    :class:`StoreError` when the source cannot be read or the target exists."""
    if not source.is_file() or source.stat().st_size == 0:
        raise StoreError(f"{source}: there is no database to back up (no such file, or an empty one)")
    try:
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        raise StoreError(f"{target} exists already; back up into a new file") from None
    except OSError as exc:
        raise StoreError(f"cannot create {target}: {exc.strerror or exc}") from None
    try:
        with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(target)) as dst:
            src.backup(dst)
    except sqlite3.DatabaseError as exc:
        target.unlink(missing_ok=True)
        raise StoreError(f"{source}: the backup failed: {exc}") from None
    return check_sqlite(target)
