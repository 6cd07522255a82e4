"""What the store keeps for an owner (docs/table.md, "Building a fight"): the fights built on the Build-a-fight page
and the tables the owner opened, a bounded number of each. Functions over an open connection;
:class:`~affray.store.db.Store` opens it, commits it and gives the time.

An owner is named by a 64-character digest of their secret (the web layer makes it: :mod:`affray.web.owners`); the
store never sees the secret. A table kept for an owner holds its GM token sealed with a key only that secret gives,
opaque here. Every read and write names the owner: no call reaches another owner's rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa

from affray.core.json import JsonObject
from affray.store import schema as s
from affray.store.engine import check_fits
from affray.store.rows import UnknownTable

#: The most fights and tables one owner keeps (a bound on what a stranger with an owner secret can make us store).
MOST_FIGHTS = 50
MOST_TABLES = 50


@dataclass(frozen=True, slots=True)
class Fight:
    """A built fight: its id (the owner's), title, ruleset, the builder's body (its scenario YAML and the page's
    choices, as the page sent them) and when it was made and last saved (Unix seconds)."""

    id: str
    title: str
    ruleset: str
    body: JsonObject
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class OwnedTable:
    """A table kept for an owner: its id, title, ruleset, when it was opened and ended (None: still going), and the GM
    token sealed with the owner's secret (kept out of ``repr``)."""

    table_id: str
    title: str
    ruleset: str
    created_at: float
    ended_at: float | None
    sealed: str = field(repr=False)


class TooMany(ValueError):
    """The owner keeps the most rows of a kind already; the message says how many."""


def check_owner(owner: str) -> None:
    if len(owner) != 64:
        raise ValueError("an owner is named by a 64-character digest")


def put_fight(c: sa.Connection, owner: str, fight: Fight) -> Fight:
    """Save ``fight`` for ``owner``: a new one (TooMany past :data:`MOST_FIGHTS`) or in place of the one with its
    id, whose creation time it keeps. Returns the fight as stored."""
    check_owner(owner)
    check_fits(s.fights.c.id, fight.id)
    check_fits(s.fights.c.ruleset, fight.ruleset)
    f = s.fights
    mine = f.c.owner == owner
    old = c.execute(sa.select(f.c.created_at).where(mine, f.c.id == fight.id)).scalar_one_or_none()
    values = {
        "title": fight.title,
        "ruleset": fight.ruleset,
        "body": fight.body,
        "updated_at": fight.updated_at,
    }
    if old is not None:
        c.execute(sa.update(f).where(mine, f.c.id == fight.id).values(values))
        return Fight(fight.id, fight.title, fight.ruleset, fight.body, float(old), fight.updated_at)
    count = c.execute(sa.select(sa.func.count()).select_from(f).where(mine)).scalar_one()
    if count >= MOST_FIGHTS:
        raise TooMany(f"You keep {MOST_FIGHTS} fights already, the most there may be; delete one to save another.")
    c.execute(sa.insert(f).values(owner=owner, id=fight.id, created_at=fight.created_at, **values))
    return fight


def fights(c: sa.Connection, owner: str) -> list[Fight]:
    """The owner's fights, the most recently saved first."""
    f = s.fights
    query = sa.select(f).where(f.c.owner == owner).order_by(f.c.updated_at.desc(), f.c.id)
    return [_fight(row) for row in c.execute(query).mappings()]


def fight(c: sa.Connection, owner: str, fight_id: str) -> Fight | None:
    f = s.fights
    row = c.execute(sa.select(f).where(f.c.owner == owner, f.c.id == fight_id)).mappings().first()
    return None if row is None else _fight(row)


def delete_fight(c: sa.Connection, owner: str, fight_id: str) -> bool:
    f = s.fights
    return c.execute(sa.delete(f).where(f.c.owner == owner, f.c.id == fight_id)).rowcount > 0


def _fight(row: sa.RowMapping) -> Fight:
    body = row["body"]
    return Fight(
        row["id"],
        row["title"],
        row["ruleset"],
        body if isinstance(body, dict) else {},
        float(row["created_at"]),
        float(row["updated_at"]),
    )


def own_table(c: sa.Connection, owner: str, table_id: str, sealed: str, now: float) -> bool:
    """Keep table ``table_id`` for ``owner`` with its sealed GM token; False when it is kept already (unchanged).
    TooMany past :data:`MOST_TABLES`; UnknownTable when the store has no such table."""
    check_owner(owner)
    check_fits(s.owned_tables.c.sealed, sealed)
    if c.execute(sa.select(s.tables.c.id).where(s.tables.c.id == table_id)).first() is None:
        raise UnknownTable(f"no table {table_id!r} in the store")
    o = s.owned_tables
    mine = o.c.owner == owner
    if c.execute(sa.select(o.c.table_id).where(mine, o.c.table_id == table_id)).first() is not None:
        return False
    count = c.execute(sa.select(sa.func.count()).select_from(o).where(mine)).scalar_one()
    if count >= MOST_TABLES:
        raise TooMany(
            f"You keep {MOST_TABLES} tables already, the most there may be; remove one from your list to keep another."
        )
    c.execute(sa.insert(o).values(owner=owner, table_id=table_id, sealed=sealed, created_at=now))
    return True


def owned_tables(c: sa.Connection, owner: str) -> list[OwnedTable]:
    """The owner's tables, the newest first, with each table's title, ruleset and end."""
    o, t = s.owned_tables, s.tables
    query = (
        sa.select(o.c.table_id, o.c.sealed, t.c.title, t.c.ruleset, t.c.created_at, t.c.ended_at)
        .join(t, t.c.id == o.c.table_id)
        .where(o.c.owner == owner)
        .order_by(t.c.created_at.desc(), o.c.table_id)
    )
    return [
        OwnedTable(
            row["table_id"],
            row["title"],
            row["ruleset"],
            float(row["created_at"]),
            None if row["ended_at"] is None else float(row["ended_at"]),
            row["sealed"],
        )
        for row in c.execute(query).mappings()
    ]


def disown_table(c: sa.Connection, owner: str, table_id: str) -> bool:
    """Take table ``table_id`` off the owner's list (the table itself goes on)."""
    o = s.owned_tables
    return c.execute(sa.delete(o).where(o.c.owner == owner, o.c.table_id == table_id)).rowcount > 0
