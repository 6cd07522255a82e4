"""The Store: one database (an SQLite file or a PostgreSQL server) behind typed methods (see the package
docstring for the contract). Opening and SQLite's settings are in :mod:`affray.store.engine`."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from affray.core.json import Json, JsonObject
from affray.store import maps, owned, side
from affray.store import schema as s
from affray.store.engine import check_fits, database_errors, first_line, open_engine
from affray.store.group import GroupCommit, Pending
from affray.store.listen import CHANNEL, Callback, Listener, Notices
from affray.store.rows import (
    RECORD_KINDS,
    ROLES,
    AuditEntry,
    ChatLine,
    NewTable,
    Record,
    Seat,
    Snapshot,
    StoreError,
    TableRow,
    UnknownTable,
)

AUDIT_RETRIES = 20

# The append path's statements, built once (they run for every action at every table).
_r = s.records
_COLUMNS = list(_r.columns)


def _append_statement(dialect_insert: Callable[[sa.Table], postgresql.Insert | sqlite.Insert]) -> sa.Insert:
    """One INSERT that refuses what append refuses, without a read before it: the row goes in only if its seq is
    the next one (seq 0 of an existing table, or the seq after a stored one: a gap or an unknown table inserts
    nothing), and ON CONFLICT DO NOTHING leaves a taken seq or a used submission id to the unique keys (a lost
    race inserts nothing, raises nothing, and aborts no transaction: a batch of appends goes on)."""
    table, seq = sa.bindparam("table_id", type_=_r.c.table_id.type), sa.bindparam("seq", type_=sa.Integer)
    follows = sa.or_(
        sa.and_(seq == 0, sa.exists(s.tables.c.id).where(s.tables.c.id == table)),
        sa.exists(_r.c.seq).where(_r.c.table_id == table, _r.c.seq == seq - 1),
    )
    row = sa.select(*(sa.bindparam(column.name, type_=column.type) for column in _COLUMNS)).where(follows)
    return dialect_insert(_r).from_select(_COLUMNS, row).on_conflict_do_nothing()


_APPEND = _append_statement(sqlite.insert)
# PostgreSQL: the insert and its notice in one statement (one round trip); a row comes back only if it went in.
_APPEND_NOTIFY = sa.select(sa.func.pg_notify(sa.bindparam("channel"), sa.bindparam("notice"))).select_from(
    _append_statement(postgresql.insert).returning(_r.c.seq).cte("appended")
)
# Why an append inserted nothing (read only then): the table exists, the last seq, the seq of the submission id.
# A NULL submission id matches nothing here ("= NULL" is never true), which is what a record without one needs.
_APPEND_CHECK = sa.select(
    sa.select(s.tables.c.id).where(s.tables.c.id == sa.bindparam("t")).scalar_subquery(),
    sa.select(sa.func.max(_r.c.seq)).where(_r.c.table_id == sa.bindparam("t")).scalar_subquery(),
    sa.select(_r.c.seq)
    .where(_r.c.table_id == sa.bindparam("t"), _r.c.submission_id == sa.bindparam("sid"))
    .scalar_subquery(),
)


def _has_timer(config_text: str | None) -> bool:
    try:
        config = json.loads(config_text or "{}")
    except ValueError:
        return False
    return isinstance(config, dict) and isinstance(config.get("timer"), dict)


def new_table_id() -> str:
    """A short random url-safe table id (64 bits: ids are public, the seat tokens are the secrets)."""
    return secrets.token_urlsafe(8)


class Store:
    """The table server's database. Thread-safe; see the package docstring for the API contract."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine, self._conninfo = open_engine(url)
        self.is_postgres = self._conninfo is not None
        self.notices = Notices(self._conninfo)
        self._group: GroupCommit[tuple[str, Record]] = GroupCommit(self._append_batch)
        try:
            with self._write(f"cannot open the database {self._engine.url!r}") as c:
                self.migrated_from = s.migrate(c)
        except (StoreError, SQLAlchemyError) as exc:
            self._engine.dispose()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot open the database {self._engine.url!r}: {first_line(exc)}") from None

    def close(self) -> None:
        """Stop this Store's listeners and close its connections."""
        self.notices.close()
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _write(self, failure: str = "the database failed") -> Iterator[sa.Connection]:
        with database_errors(failure), self._engine.connect() as conn:
            conn.execution_options(affray_write=True)
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with database_errors(), self._engine.connect() as conn, conn.begin():
            yield conn

    # -- tables and seats -------------------------------------------------------------------------------

    def create_table(self, table: NewTable, seats: Sequence[Seat]) -> TableRow:
        """Store a new table and its seats in one transaction. A taken id or seat name raises StoreError."""
        for column, value in (
            (s.tables.c.id, table.id),
            (s.tables.c.ruleset, table.ruleset),
            (s.tables.c.seed_hex, table.seed_hex),
            (s.tables.c.commitment, table.commitment),
            (s.tables.c.rules_version, table.rules_version),
            (s.tables.c.salt_hex, table.salt_hex),
        ):
            check_fits(column, value)
        for seat in seats:
            if seat.role not in ROLES:
                raise ValueError(f"seat {seat.seat!r}: role must be one of {', '.join(ROLES)}, not {seat.role!r}")
            check_fits(s.seats.c.seat, seat.seat)
            check_fits(s.seats.c.token_hash, seat.token_hash)
            check_fits(s.seats.c.controller, seat.controller)
        now = time.time()
        row = TableRow(
            id=table.id,
            ruleset=table.ruleset,
            title=table.title,
            scenario=table.scenario,
            setup=table.setup,
            options=table.options,
            seed_hex=table.seed_hex,
            commitment=table.commitment,
            created_at=now,
            ended_at=None,
            outcome=None,
            config=table.config,
            rules_version=table.rules_version,
            salt_hex=table.salt_hex,
        )
        values = {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}
        try:
            with self._write() as c:
                c.execute(sa.insert(s.tables).values(values))
                if seats:
                    c.execute(sa.insert(s.seats), [seat.values(table.id) for seat in seats])
        except IntegrityError as exc:
            raise StoreError(f"cannot create table {table.id!r}: {first_line(exc)}") from None
        return row

    def table(self, table_id: str) -> TableRow | None:
        with self._read() as c:
            row = c.execute(sa.select(s.tables).where(s.tables.c.id == table_id)).mappings().first()
        return None if row is None else TableRow(**row)

    def open_tables(self) -> list[TableRow]:
        """Every table not yet ended, oldest first (what a starting server rebuilds)."""
        query = sa.select(s.tables).where(s.tables.c.ended_at.is_(None)).order_by(s.tables.c.created_at, s.tables.c.id)
        with self._read() as c:
            return [TableRow(**row) for row in c.execute(query).mappings()]

    def timed_tables(self) -> list[str]:
        """The open tables whose config holds a running GM countdown (``timer``), oldest first: what a starting
        server loads at once (only the ids and configs are read, not the setups). A config that is not a JSON object
        (a damaged row) is passed over here: that table alone is refused when it is asked for."""
        config = sa.cast(s.tables.c.config, sa.Text)  # as text: one malformed row must not stop the others' timers
        query = (
            sa.select(s.tables.c.id, config)
            .where(s.tables.c.ended_at.is_(None))
            .order_by(s.tables.c.created_at, s.tables.c.id)
        )
        with self._read() as c:
            return [table_id for table_id, text in c.execute(query) if _has_timer(text)]

    def seats(self, table_id: str) -> list[Seat]:
        query = sa.select(s.seats).where(s.seats.c.table_id == table_id).order_by(s.seats.c.seat)
        with self._read() as c:
            return [Seat.of(row) for row in c.execute(query).mappings()]

    def seat_by_token_hash(self, token_hash: str) -> tuple[str, str] | None:
        """(table_id, seat) of the seat whose token hashes to ``token_hash``, or None."""
        query = sa.select(s.seats.c.table_id, s.seats.c.seat).where(s.seats.c.token_hash == token_hash)
        with self._read() as c:
            row = c.execute(query).first()
        return None if row is None else (row[0], row[1])

    def replace_token(self, table_id: str, seat: str, new_hash: str) -> bool:
        """Give a seat a new token hash; the old one stops working at once. False for an unknown seat."""
        query = (
            sa.update(s.seats).where(s.seats.c.table_id == table_id, s.seats.c.seat == seat).values(token_hash=new_hash)
        )
        with self._write() as c:
            return c.execute(query).rowcount == 1

    def end_table(self, table_id: str, outcome: Mapping[str, Json]) -> bool:
        """Mark an open table ended with its outcome. False if unknown or already ended (the first end wins)."""
        query = (
            sa.update(s.tables)
            .where(s.tables.c.id == table_id, s.tables.c.ended_at.is_(None))
            .values(ended_at=time.time(), outcome=dict(outcome))
        )
        with self._write() as c:
            return c.execute(query).rowcount == 1

    def set_config(self, table_id: str, changes: Mapping[str, Json]) -> JsonObject | None:
        """Merge ``changes`` into the table's config atomically; return the new config (None: unknown table)."""
        with self._write() as c:
            query = sa.select(s.tables.c.config).where(s.tables.c.id == table_id).with_for_update()
            current = c.execute(query).scalar_one_or_none()
            if current is None:
                return None
            config = {**current, **changes}
            c.execute(sa.update(s.tables).where(s.tables.c.id == table_id).values(config=config))
        return config

    # -- the log of record -------------------------------------------------------------------------------

    def append(self, table_id: str, record: Record) -> bool:
        """Append a record at ``record.seq``; True once it is durably committed.

        False, changing nothing, when the seq is already taken (the loser of a race, or a stale submission)
        or when ``record.submission_id`` was already used at this table (a retry: find the first answer
        with :meth:`record_by_submission`). The unique (table_id, seq) key decides races, not a lock here.
        A seq past the end (a gap) raises ValueError; an unknown table raises UnknownTable. On success a
        notice ``(table_id, seq + 1)`` goes to every listener (PostgreSQL: in the same transaction).

        One INSERT, no read before it (:func:`_append_statement`); the appends of concurrent callers (other
        tables, this process) are committed together, one transaction and one fsync for all
        (:mod:`affray.store.group`), and each caller returns only once the commit that carried its record did.
        """
        if record.kind not in RECORD_KINDS:
            raise ValueError(f"record kind must be one of {', '.join(RECORD_KINDS)}, not {record.kind!r}")
        # core's Match logs an undo with actor "" (DESIGN contract 4): empty seat and actor names are allowed.
        check_fits(s.records.c.seat, record.seat, empty=True)
        check_fits(s.records.c.actor, record.actor, empty=True)
        check_fits(s.records.c.submission_id, record.submission_id)
        check_fits(s.records.c.chain, record.chain, empty=True)
        try:
            if not self._group.run((table_id, record)):
                return False
        except IntegrityError:  # a constraint the INSERT does not foresee: refused, changing nothing
            return False
        self.notices.deliver_local(table_id, record.seq + 1)
        return True

    def commit_counts(self) -> tuple[int, int]:
        """(appends committed, commits that carried them) since this Store opened: their ratio is the mean group."""
        return self._group.items, self._group.commits

    def _append_batch(self, batch: list[Pending[tuple[str, Record]]]) -> None:
        """Commit a group of appends in one transaction. A failure of the whole (a database error) is retried one
        append at a time, so that one bad append fails alone."""
        try:
            with self._write() as c:
                # In one order everywhere: two processes' groups that race for the same seqs wait for each other
                # in the same order, never in a circle (PostgreSQL would break a deadlock only after a second).
                for pending in sorted(batch, key=lambda p: (p.item[0], p.item[1].seq)):
                    pending.result, pending.error = False, None
                    try:
                        pending.result = self._insert(c, *pending.item)
                    except (ValueError, UnknownTable) as exc:  # read-only diagnosis: the transaction goes on
                        pending.error = exc
        except (IntegrityError, StoreError):
            if len(batch) == 1:
                raise  # append's caller hears it (IntegrityError: a constraint the INSERT does not foresee)
            for pending in batch:  # one append at a time: a bad one fails alone, the others go in
                try:
                    self._append_batch([pending])
                except (IntegrityError, StoreError) as exc:
                    pending.error = exc

    def _insert(self, c: sa.Connection, table_id: str, record: Record) -> bool:
        values = record.values(table_id, time.time())
        if self.is_postgres:
            notice = {"channel": CHANNEL, "notice": self.notices.payload(table_id, record.seq + 1)}
            inserted = c.execute(_APPEND_NOTIFY, {**values, **notice}).first() is not None
        else:
            inserted = c.execute(_APPEND, values).rowcount == 1
        return inserted or self._why_not(c, table_id, record)

    @staticmethod
    def _why_not(c: sa.Connection, table_id: str, record: Record) -> bool:
        """After an INSERT that inserted nothing: False for a taken seq or a used submission id, or the error of a
        gap or an unknown table."""
        found, last_seq, used_seq = c.execute(_APPEND_CHECK, {"t": table_id, "sid": record.submission_id}).one()
        if found is None:
            raise UnknownTable(f"no table {table_id!r} in the store")
        version = 0 if last_seq is None else int(last_seq) + 1
        if used_seq is None and record.seq > version:
            raise ValueError(f"table {table_id!r} has {version} records; seq {record.seq} would leave a gap")
        return False

    def records(self, table_id: str, since_seq: int = 0) -> list[Record]:
        """The table's records with seq >= ``since_seq``, in order (empty for an unknown table)."""
        query = (
            sa.select(s.records)
            .where(s.records.c.table_id == table_id, s.records.c.seq >= since_seq)
            .order_by(s.records.c.seq)
        )
        with self._read() as c:
            return [Record.of(row) for row in c.execute(query).mappings()]

    def record_by_submission(self, table_id: str, submission_id: str) -> Record | None:
        with self._read() as c:
            return self._by_submission(c, table_id, submission_id)

    def version(self, table_id: str) -> int:
        """The number of records of the table (the next seq); 0 for an unknown table."""
        with self._read() as c:
            return self._version(c, table_id)

    @staticmethod
    def _by_submission(c: sa.Connection, table_id: str, submission_id: str) -> Record | None:
        query = sa.select(s.records).where(s.records.c.table_id == table_id, s.records.c.submission_id == submission_id)
        row = c.execute(query).mappings().first()
        return None if row is None else Record.of(row)

    @staticmethod
    def _version(c: sa.Connection, table_id: str) -> int:
        query = sa.select(sa.func.max(s.records.c.seq)).where(s.records.c.table_id == table_id)
        last = c.execute(query).scalar_one_or_none()
        return 0 if last is None else int(last) + 1

    # -- the side tables: snapshots, chat lines, the GM audit trail (store/side.py) ---------------------------

    def put_snapshot(self, table_id: str, snapshot: Snapshot) -> bool:
        """Keep ``snapshot`` as the table's newest, in place of any other (one at the same ``seq`` too: a snapshot
        that did not check out is replaced by a good one); False, changing nothing, when the table holds a later
        one (another process wrote it). Unknown table: UnknownTable."""
        side.check_snapshot(snapshot)
        try:
            with self._write() as c:
                return side.put_snapshot(c, table_id, snapshot, time.time())
        except IntegrityError:
            return False

    def snapshot(self, table_id: str) -> Snapshot | None:
        """The table's newest snapshot, or None."""
        with self._read() as c:
            return side.snapshot(c, table_id)

    def add_chat(self, table_id: str, line: ChatLine) -> bool:
        """Add a chat line at ``line.n`` (``line.at``: its time, now if 0); True once committed. False, changing
        nothing, when ``n`` is taken (another process numbered a line first: read the lines again and number anew).
        Unknown table: UnknownTable."""
        side.check_chat(line)
        try:
            with self._write() as c:
                side.add_chat(c, table_id, line, time.time())
        except IntegrityError:
            return False
        return True

    def chat(self, table_id: str, since_n: int = 0) -> list[ChatLine]:
        """The table's chat lines with n >= ``since_n``, in order (every line: the caller filters whispers)."""
        with self._read() as c:
            return side.chat(c, table_id, since_n)

    def audit(self, table_id: str, who: str | None, kind: str, detail: Mapping[str, Json] | None = None) -> int:
        """Add an entry to the table's audit trail; return its number n. Unknown table: UnknownTable."""
        side.check_audit(who, kind)
        for _ in range(AUDIT_RETRIES):
            try:
                with self._write() as c:
                    return side.audit(c, table_id, who, kind, detail, time.time())
            except IntegrityError:
                continue  # another process took this n between our read and our insert: number again
        raise StoreError(f"could not add to the audit trail of table {table_id!r}: too much contention")

    def audit_trail(self, table_id: str) -> list[AuditEntry]:
        with self._read() as c:
            return side.audit_trail(c, table_id)

    # -- what is kept for an owner: built fights and opened tables (store/owned.py) ---------------------------

    def put_fight(self, owner: str, fight_id: str, title: str, ruleset: str, body: JsonObject) -> owned.Fight:
        """Save a fight for ``owner``, now (new, or in place of the one with its id); ``owned.TooMany`` past the
        bound."""
        now = time.time()
        try:
            with self._write() as c:
                return owned.put_fight(c, owner, owned.Fight(fight_id, title, ruleset, body, now, now))
        except IntegrityError:
            raise StoreError(f"the fight {fight_id!r} was saved twice at once; save it again") from None

    def fights(self, owner: str) -> list[owned.Fight]:
        with self._read() as c:
            return owned.fights(c, owner)

    def fight(self, owner: str, fight_id: str) -> owned.Fight | None:
        with self._read() as c:
            return owned.fight(c, owner, fight_id)

    def delete_fight(self, owner: str, fight_id: str) -> bool:
        with self._write() as c:
            return owned.delete_fight(c, owner, fight_id)

    def own_table(self, owner: str, table_id: str, sealed: str) -> bool:
        """Keep a table for ``owner`` with its sealed GM token; False when kept already. ``owned.TooMany`` past the
        bound, UnknownTable for a table the store does not hold."""
        try:
            with self._write() as c:
                return owned.own_table(c, owner, table_id, sealed, time.time())
        except IntegrityError:
            return False  # kept by a request racing this one

    def owned_tables(self, owner: str) -> list[owned.OwnedTable]:
        with self._read() as c:
            return owned.owned_tables(c, owner)

    def disown_table(self, owner: str, table_id: str) -> bool:
        with self._write() as c:
            return owned.disown_table(c, owner, table_id)

    # -- a table's map image (store/maps.py) ------------------------------------------------------------------

    def put_map(self, table_id: str, media_type: str, body: bytes) -> maps.MapImage:
        """Keep ``body`` as the table's map image (in place of any before it); UnknownTable for an unknown table."""
        try:
            with self._write() as c:
                return maps.put_map(c, table_id, media_type, body, time.time())
        except IntegrityError:
            raise StoreError("the map was uploaded twice at once; upload it again") from None

    def map_image(self, table_id: str) -> maps.MapImage | None:
        with self._read() as c:
            return maps.map_image(c, table_id)

    # -- change notices (store/listen.py) ------------------------------------------------------------------

    def notify(self, table_id: str, version: int) -> None:
        """Tell every listener (every process, on PostgreSQL) that a table changed, e.g. after a pause."""
        if self.is_postgres:
            with self._write() as c:
                c.execute(sa.select(sa.func.pg_notify(CHANNEL, self.notices.payload(table_id, version))))
        self.notices.deliver_local(table_id, version)

    def listen(self, callback: Callback, on_reconnect: Callable[[], None] | None = None) -> Listener:
        """Call ``callback(table_id, version, own)`` from a thread for every notice; close the result to stop.
        ``own``: this Store sent the notice.

        PostgreSQL: LISTEN on a connection of its own, so notices from every process arrive. SQLite (one
        process): the notices of this Store object only (all ``own``).
        """
        return self.notices.listen(callback, on_reconnect)
