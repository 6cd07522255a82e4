"""The database schema (SQLAlchemy Core), its version, and the step-by-step upgrade of older databases.

Version history:

- v1: ``meta``, ``tables`` (without ``config``), ``seats``, ``records``.
- v2: ``tables.config`` (spectators on/off, policy pause, controllers...) and the GM ``audit`` table.
- v3: ``records.chosen_at`` (the version a simultaneous move was chosen at, when earlier than its seq) and the
  ``chat`` table (chat lines and free rolls, whispers included).
- v4: the ``snapshots`` table (a table's state every few records, so a table rebuilt after it left memory does not
  replay a long fight from the start: :mod:`affray.table.snapshot`).
- v5: ``tables.rules_version`` (the version of its ruleset's rules a table was made under: a table of other rules is
  refused, not replayed; "1" for every older table, made when every ruleset's was "1").
- v6: ``tables.salt_hex``, the table's salt secret (its seals' salts, its hash chain's record salts and its whispered
  free rolls' keys: :mod:`affray.core.rng`, log format 4); empty for every older table, which keeps the seed-salted
  seals and the chain of log format 3 it was made with.
- v7: ``fights`` (the fights a GM built on the Build-a-fight page, kept for their owner) and ``owned_tables`` (the
  tables an owner opened, each with its GM token sealed by the owner's secret): :mod:`affray.store.owned`.
- v8: ``maps``, each table's map image (the picture its GM uploaded, drawn under the grid): :mod:`affray.store.maps`.

``migrate`` runs inside one write transaction under a lock (PostgreSQL: an advisory lock; SQLite: the
``BEGIN IMMEDIATE`` write lock), so two servers starting together upgrade a database once.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from affray.store.rows import StoreError

SCHEMA_VERSION = 8
RULES_VERSION_SCHEMA = 5  # the first version whose tables record their rules version (older: every table's is "1")
# An arbitrary constant: the advisory lock that serialises migrations on PostgreSQL.
MIGRATION_LOCK = 0x0AFF4A7

metadata = sa.MetaData()

meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("scenario", sa.Text, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed_hex", sa.String(128), nullable=False),
    sa.Column("commitment", sa.String(128), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("ended_at", sa.Double, nullable=True),
    sa.Column("outcome", sa.JSON(none_as_null=True), nullable=True),
    sa.Column("config", sa.JSON, nullable=False, server_default=sa.text("'{}'")),
    # The ruleset's rules_version when the table was made (core/plugin.py): "1" on a row made before it was recorded.
    sa.Column("rules_version", sa.String(16), nullable=False, server_default=sa.text("'1'")),
    # Secret like seed_hex: the table's salt secret (core/rng.py); NULL on a row made before schema v6.
    sa.Column("salt_hex", sa.String(128), nullable=True),
)
sa.Index("tables_open", tables.c.ended_at)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.String(64), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("actors", sa.JSON, nullable=False),
    sa.Column("controller", sa.String(64), nullable=False),
    sa.Column("role", sa.String(16), nullable=False),
)
# Unique: a token names one seat. NULLs (seats nobody joins) do not collide.
sa.Index("seats_token", seats.c.token_hash, unique=True)

records = sa.Table(
    "records",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    # The primary key (table_id, seq) is the unique constraint that decides which of two racing appends wins.
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("seat", sa.String(64), nullable=True),
    sa.Column("actor", sa.String(64), nullable=True),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("submission_id", sa.String(128), nullable=True),
    sa.Column("chain", sa.String(128), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("chosen_at", sa.Integer, nullable=True),
    # Both databases let several rows hold NULL here: only client-chosen ids must be unique.
    sa.UniqueConstraint("table_id", "submission_id", name="records_submission"),
)

audit = sa.Table(
    "audit",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.Double, nullable=False),
    sa.Column("who", sa.String(64), nullable=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("detail", sa.JSON, nullable=False),
)


chat = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    # The primary key (table_id, n) decides which of two racing lines gets a number (and a roll its dice).
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.Double, nullable=False),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("to", sa.String(64), nullable=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)


snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    # The version the snapshot is at: the state after records 0 .. seq - 1. A table keeps its newest one only.
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("code", sa.String(64), nullable=False),  # the program that wrote it (another one replays instead)
    sa.Column("chain", sa.String(128), nullable=False),  # the chain head at seq (the record seq - 1's chain value)
    sa.Column("digest", sa.String(64), nullable=False),  # SHA-256 of body: a damaged body is never read
    sa.Column("body", sa.LargeBinary, nullable=False),  # secret: the state holds face-down cards and dice positions
    sa.Column("created_at", sa.Double, nullable=False),
)

# The fights built on the page, per owner (the SHA-256 of the owner's secret: the secret itself is never stored).
fights = sa.Table(
    "fights",
    metadata,
    sa.Column("owner", sa.String(64), primary_key=True),
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("body", sa.JSON, nullable=False),  # the builder's fight: its scenario YAML and the page's choices
    sa.Column("created_at", sa.Double, nullable=False),
    sa.Column("updated_at", sa.Double, nullable=False),
)

# The tables an owner opened, to find again: the GM token sealed with a key only the owner's secret gives.
owned_tables = sa.Table(
    "owned_tables",
    metadata,
    sa.Column("owner", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("sealed", sa.String(256), nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

# A table's map image (store/maps.py): one per table, its bytes as uploaded after their type was sniffed.
maps = sa.Table(
    "maps",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),  # 1 for the first upload, one more for each that replaced it
    sa.Column("media_type", sa.String(32), nullable=False),  # image/png, image/jpeg or image/webp, from the bytes
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("body", sa.LargeBinary, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)


def _v1_to_v2(conn: sa.Connection) -> None:
    """v2 adds the table's config (default: empty) and the GM audit trail; every v1 row is kept."""
    json_type = sa.JSON().compile(dialect=conn.dialect)
    conn.exec_driver_sql(f"ALTER TABLE tables ADD COLUMN config {json_type} NOT NULL DEFAULT '{{}}'")
    audit.create(conn)


def _v2_to_v3(conn: sa.Connection) -> None:
    """v3 adds ``records.chosen_at`` (empty for every older record) and the chat table."""
    conn.exec_driver_sql("ALTER TABLE records ADD COLUMN chosen_at INTEGER")
    chat.create(conn)


def _v3_to_v4(conn: sa.Connection) -> None:
    """v4 adds the snapshots table (empty: an older table is replayed in full once, and snapshotted from then on)."""
    snapshots.create(conn)


def _v4_to_v5(conn: sa.Connection) -> None:
    """v5 records each table's rules version: "1" for every older table (every ruleset's version until then)."""
    conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN rules_version VARCHAR(16) NOT NULL DEFAULT '1'")


def _v5_to_v6(conn: sa.Connection) -> None:
    """v6 adds each table's salt secret: none for every older table (it goes on as it was made)."""
    conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN salt_hex VARCHAR(128)")


def _v6_to_v7(conn: sa.Connection) -> None:
    """v7 adds the owners' fights and tables (empty: nothing was kept for an owner before)."""
    fights.create(conn)
    owned_tables.create(conn)


def _v7_to_v8(conn: sa.Connection) -> None:
    """v8 adds the tables' map images (none: no table had one before)."""
    maps.create(conn)


#: The tables each schema version has (what ``affray db check`` and a starting server look for).
TABLES_OF: dict[int, frozenset[str]] = {
    1: frozenset({"meta", "tables", "seats", "records"}),
    2: frozenset({"meta", "tables", "seats", "records", "audit"}),
    3: frozenset({"meta", "tables", "seats", "records", "audit", "chat"}),
    4: frozenset({"meta", "tables", "seats", "records", "audit", "chat", "snapshots"}),
    5: frozenset({"meta", "tables", "seats", "records", "audit", "chat", "snapshots"}),
    6: frozenset({"meta", "tables", "seats", "records", "audit", "chat", "snapshots"}),
    7: frozenset({"meta", "tables", "seats", "records", "audit", "chat", "snapshots", "fights", "owned_tables"}),
    SCHEMA_VERSION: frozenset(metadata.tables),
}

# STEPS[v] upgrades a database from version v to v + 1.
STEPS: dict[int, Callable[[sa.Connection], None]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
    6: _v6_to_v7,
    7: _v7_to_v8,
}


def stored_version(conn: sa.Connection) -> int | None:
    """The database's schema version, or None for an empty database. Refuses a database that is not affray's."""
    names = set(sa.inspect(conn).get_table_names())
    if "meta" not in names:
        if names & set(metadata.tables):
            raise StoreError("the database holds tables but no affray schema version; it is not an affray database")
        return None
    value = conn.execute(sa.select(meta.c.value).where(meta.c.key == "schema_version")).scalar_one_or_none()
    if value is None or not value.isdigit():
        raise StoreError(f"the database's meta table has no readable schema_version (found {value!r})")
    return int(value)


def migrate(conn: sa.Connection) -> int:
    """Create the schema in an empty database or upgrade an older one step by step; return the old version.

    Runs in the caller's (write) transaction. A database newer than this program raises :class:`StoreError`.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
    found = stored_version(conn)
    if found is None:
        metadata.create_all(conn)
        conn.execute(sa.insert(meta).values(key="schema_version", value=str(SCHEMA_VERSION)))
        return 0
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"the database has schema version {found}, newer than this affray understands "
            f"(up to {SCHEMA_VERSION}); upgrade affray to open it"
        )
    for version in range(found, SCHEMA_VERSION):
        STEPS[version](conn)
    if found < SCHEMA_VERSION:
        conn.execute(sa.update(meta).where(meta.c.key == "schema_version").values(value=str(SCHEMA_VERSION)))
    return found
