"""The store's side tables, each beside a table's records: its newest snapshot (table/snapshot.py), its chat lines
and free rolls, and the GM's audit trail. Functions over an open connection; :class:`~affray.store.db.Store` opens
it, commits it, gives the time (``now``: the store's clock is read in ``db.py`` only) and turns a lost race
(``IntegrityError`` at the commit) into its answer."""

from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy as sa

from affray.core.json import Json
from affray.store import schema as s
from affray.store.engine import check_fits
from affray.store.rows import AuditEntry, ChatLine, Snapshot, UnknownTable


def known(c: sa.Connection, table_id: str) -> None:
    """UnknownTable unless the store holds table ``table_id``."""
    if c.execute(sa.select(s.tables.c.id).where(s.tables.c.id == table_id)).first() is None:
        raise UnknownTable(f"no table {table_id!r} in the store")


def check_snapshot(snapshot: Snapshot) -> None:
    check_fits(s.snapshots.c.code, snapshot.code)
    check_fits(s.snapshots.c.chain, snapshot.chain, empty=True)


def put_snapshot(c: sa.Connection, table_id: str, snapshot: Snapshot, now: float) -> bool:
    """Replace the table's snapshot by ``snapshot``; False, changing nothing, when it holds a later one."""
    known(c, table_id)
    snaps = s.snapshots
    newest = c.execute(sa.select(sa.func.max(snaps.c.seq)).where(snaps.c.table_id == table_id)).scalar_one_or_none()
    if newest is not None and newest > snapshot.seq:
        return False
    c.execute(sa.delete(snaps).where(snaps.c.table_id == table_id))
    c.execute(
        sa.insert(snaps).values(
            table_id=table_id,
            seq=snapshot.seq,
            code=snapshot.code,
            chain=snapshot.chain,
            digest=snapshot.digest,
            body=snapshot.body,
            created_at=now,
        )
    )
    return True


def snapshot(c: sa.Connection, table_id: str) -> Snapshot | None:
    snaps = s.snapshots
    query = sa.select(snaps).where(snaps.c.table_id == table_id).order_by(snaps.c.seq.desc()).limit(1)
    row = c.execute(query).mappings().first()
    return (
        None
        if row is None
        else Snapshot(
            seq=row["seq"], code=row["code"], chain=row["chain"], digest=row["digest"], body=bytes(row["body"])
        )
    )


def check_chat(line: ChatLine) -> None:
    check_fits(s.chat.c.seat, line.seat)
    check_fits(s.chat.c.to, line.to)
    check_fits(s.chat.c.kind, line.kind)


def add_chat(c: sa.Connection, table_id: str, line: ChatLine, now: float) -> None:
    known(c, table_id)
    c.execute(
        sa.insert(s.chat).values(
            table_id=table_id,
            n=line.n,
            at=line.at or now,
            seat=line.seat,
            to=line.to,
            kind=line.kind,
            body=dict(line.body),
        )
    )


def chat(c: sa.Connection, table_id: str, since_n: int) -> list[ChatLine]:
    query = sa.select(s.chat).where(s.chat.c.table_id == table_id, s.chat.c.n >= since_n).order_by(s.chat.c.n)
    return [
        ChatLine(n=r["n"], seat=r["seat"], to=r["to"], kind=r["kind"], body=r["body"], at=r["at"])
        for r in c.execute(query).mappings()
    ]


def check_audit(who: str | None, kind: str) -> None:
    check_fits(s.audit.c.who, who)
    check_fits(s.audit.c.kind, kind)


def audit(
    c: sa.Connection, table_id: str, who: str | None, kind: str, detail: Mapping[str, Json] | None, now: float
) -> int:
    """Add an entry numbered after the table's last; its number."""
    known(c, table_id)
    last = c.execute(sa.select(sa.func.max(s.audit.c.n)).where(s.audit.c.table_id == table_id)).scalar_one_or_none()
    n = 0 if last is None else int(last) + 1
    c.execute(sa.insert(s.audit).values(table_id=table_id, n=n, at=now, who=who, kind=kind, detail=dict(detail or {})))
    return n


def audit_trail(c: sa.Connection, table_id: str) -> list[AuditEntry]:
    query = sa.select(s.audit).where(s.audit.c.table_id == table_id).order_by(s.audit.c.n)
    return [
        AuditEntry(n=r["n"], at=r["at"], who=r["who"], kind=r["kind"], detail=r["detail"])
        for r in c.execute(query).mappings()
    ]
