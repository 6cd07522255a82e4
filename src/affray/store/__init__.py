"""store/: the table server's database (layer 3: imports core at most; no web framework). docs/table.md, 'Schema'.

SQLAlchemy 2 Core over an SQLite file (the embedded default) or PostgreSQL (psycopg 3). Values go in and out
as the frozen dataclasses of :mod:`affray.store.rows`, never SQLAlchemy rows.

Opening
    ``Store(url)`` with ``sqlite:///PATH`` (WAL, ``synchronous=FULL``, foreign keys on, file created 0600) or
    ``postgresql+psycopg://USER[:PW]@HOST[:PORT]/DB`` (plain ``postgresql://`` means the same). Opening
    creates the schema in an empty database and upgrades an older one step by step (``store.migrated_from``
    is the version found, 0 for a new database); a database newer than this program, an unreachable server
    or a bad URL raise :class:`StoreError` with one sentence. ``Store.close()``; a Store is a context manager
    and is safe to share between threads.

Tables and seats
    ``create_table(NewTable, [Seat...]) -> TableRow``; ``table(id) -> TableRow | None``;
    ``open_tables() -> [TableRow]`` (not ended, oldest first); ``seats(table_id) -> [Seat]`` (by name);
    ``seat_by_token_hash(hash) -> (table_id, seat) | None``; ``replace_token(table_id, seat, new_hash) -> bool``;
    ``end_table(table_id, outcome) -> bool`` (False if unknown or already ended);
    ``set_config(table_id, changes) -> dict | None`` (merges, atomically; returns the new config). A table records
    the rules version of its ruleset it is made under (``NewTable.rules_version``; "1" on a table stored before
    schema version 5), and ``TableRow.rules_refusal()`` says why an affray that runs another version refuses it.
    ``new_table_id()`` makes a short random url-safe id. The seed (``seed_hex``) and token hashes are kept out
    of the rows' repr; only the hash of a token is ever stored.

The log of record
    ``append(table_id, Record) -> bool``: True once durably committed. False (nothing changed) when the seq is
    already taken -- the loser of a race, decided by the database's unique (table_id, seq) key -- or when the
    record's ``submission_id`` was already used at that table: then ``record_by_submission(table_id, id)``
    finds the first record. A seq past the end raises ValueError, an unknown table UnknownTable.
    ``records(table_id, since_seq=0) -> [Record]`` (seq >= since_seq, in order); ``version(table_id) -> int``
    (the number of records, i.e. the next seq). Record kinds: "action" (payload = the action object), "undo"
    (payload = ``{"to": N}``) and "gm" (payload = the GM's ruling). ``chain`` is the caller's hash chained to the
    previous record.

Snapshots
    ``put_snapshot(table_id, Snapshot) -> bool`` keeps a table's newest snapshot, in place of any other (False when
    a later one is there already); ``snapshot(table_id) -> Snapshot | None``. The body is the table layer's, as
    secret as the seed; the store only keeps it with its digest.

Chat and free rolls
    ``add_chat(table_id, ChatLine) -> bool`` (False when its ``n`` is taken: number anew) and ``chat(table_id,
    since_n=0) -> [ChatLine]``: every line, whispers included (the table layer shows each seat its own).

The GM audit trail
    ``audit(table_id, who, kind, detail) -> n`` and ``audit_trail(table_id) -> [AuditEntry]`` (kinds such as
    "undo", "pause", "resume", "replace_token", "end", "timer").

Change notices (several server processes on one PostgreSQL)
    ``listen(callback, on_reconnect=None) -> Listener`` calls ``callback(table_id, version, own)`` from a thread of its
    own (``own``: this Store sent it, so the change is one this process already holds); ``close()`` it to stop. Every
    successful ``append`` sends ``(table_id, seq + 1)`` -- on PostgreSQL by ``pg_notify`` on channel ``affray_tables``
    in the append's own transaction, so a notice is never seen before its record is. ``notify(table_id, version)`` sends
    one for other changes (pause, end...). PostgreSQL delivers the notices of every process, the sender's own included;
    SQLite (one process) delivers those of the same Store object, in the same way, so a server needs only one code path.

Errors
    Unknown table ids give None or empty lists on every read, never an exception. Programming errors raise
    ValueError (a bad role or record kind, a seq that leaves a gap, a name longer than its column: the same
    limits on both backends). A database that fails mid-way (a server gone, a disk full) raises StoreError
    with one sentence, never the driver's exception; ``is_postgres`` tells the backends apart.
"""

from affray.store.db import Store, new_table_id
from affray.store.listen import CHANNEL, Listener
from affray.store.rows import (
    AuditEntry,
    ChatLine,
    NewTable,
    Record,
    RecordKind,
    Role,
    Seat,
    Snapshot,
    StoreError,
    TableRow,
    UnknownTable,
)
from affray.store.schema import SCHEMA_VERSION

__all__ = [
    "CHANNEL",
    "SCHEMA_VERSION",
    "AuditEntry",
    "ChatLine",
    "Listener",
    "NewTable",
    "Record",
    "RecordKind",
    "Role",
    "Seat",
    "Snapshot",
    "Store",
    "StoreError",
    "TableRow",
    "UnknownTable",
    "new_table_id",
]
