"""A table's map image (docs/table.md, "The map image"): the picture the GM uploaded, kept with the table so that it
survives a restart, one per table (a new upload replaces it and counts its version up). Functions over an open
connection; :class:`~affray.store.db.Store` opens it, commits it and gives the time.

The bytes are stored as they came, after :mod:`affray.table.map_image` sniffed their type from their first bytes
(PNG, JPEG or WebP) and bounded their size; the store keeps that type and a SHA-256 of the bytes beside them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import sqlalchemy as sa

from affray.store import schema as s
from affray.store.rows import UnknownTable


@dataclass(frozen=True, slots=True)
class MapImage:
    """A table's map image: its version (1 for the first upload), media type, SHA-256 and bytes."""

    table_id: str
    version: int
    media_type: str
    sha256: str
    body: bytes = field(repr=False)


def put_map(c: sa.Connection, table_id: str, media_type: str, body: bytes, now: float) -> MapImage:
    """Keep ``body`` as ``table_id``'s map image, in place of any before it; its version counts up from 1.
    :class:`UnknownTable` for a table the store does not hold."""
    known = c.execute(sa.select(s.tables.c.id).where(s.tables.c.id == table_id).with_for_update()).first()
    if known is None:
        raise UnknownTable(table_id)
    row = c.execute(sa.select(s.maps.c.version).where(s.maps.c.table_id == table_id)).first()
    version = 1 if row is None else int(row.version) + 1
    digest = hashlib.sha256(body).hexdigest()
    values = {"version": version, "media_type": media_type, "sha256": digest, "body": body, "created_at": now}
    if row is None:
        c.execute(sa.insert(s.maps).values(table_id=table_id, **values))
    else:
        c.execute(sa.update(s.maps).where(s.maps.c.table_id == table_id).values(**values))
    return MapImage(table_id, version, media_type, digest, body)


def map_image(c: sa.Connection, table_id: str) -> MapImage | None:
    """``table_id``'s map image, or None when it has none."""
    row = c.execute(sa.select(s.maps).where(s.maps.c.table_id == table_id)).first()
    if row is None:
        return None
    return MapImage(table_id, int(row.version), str(row.media_type), str(row.sha256), bytes(row.body))
