"""A table's map image (docs/table.md, "The map image"): the GM uploads a picture that the pages draw under the grid.

Only PNG, JPEG and WebP, told by their first bytes (never by a file name or a Content-Type header), at most
:data:`MAX_MAP_BYTES`; an SVG (a picture that can carry scripts) or anything else is refused with 415, a larger
one with 413. The bytes are kept with the table in the store (:mod:`affray.store.maps`: they survive a restart),
and the table's config says that a map exists (``"map": {"version", "type", "bytes"}``), which every seat's message
carries (:func:`affray.table.messages.table_fields`); a new upload replaces the map and counts its version up, so
a page knows to fetch it again. The image is served only to the table's seats (the web layer checks the token).
"""

from __future__ import annotations

from affray.core.json import JsonObject
from affray.store.maps import MapImage
from affray.table.errors import NOT_FOUND, Refusal
from affray.table.gm import require_gm
from affray.table.ledger import Ledger
from affray.table.seats import SeatInfo
from affray.table.state import Table

MAX_MAP_BYTES = 4 * 1024 * 1024
TOO_LARGE, UNSUPPORTED = 413, 415
#: The types a map may have, by their first bytes (WebP: a RIFF file whose form type is WEBP).
PNG, JPEG, WEBP = "image/png", "image/jpeg", "image/webp"


def sniff(body: bytes) -> str:
    """The media type of an image told by its first bytes: PNG, JPEG or WebP; anything else is a 415
    :class:`Refusal` with a sentence (an SVG named as such)."""
    if body.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if body.startswith(b"\xff\xd8\xff"):
        return JPEG
    if len(body) >= 12 and body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        return WEBP
    head = body[:1024].lstrip().lower()
    if b"<svg" in head or head.startswith(b"<?xml") or head.startswith(b"<"):
        raise Refusal(
            "unsupported_image",
            "An SVG (or any text) cannot be a map: it can carry scripts. Upload a PNG, JPEG or WebP picture.",
            UNSUPPORTED,
        )
    raise Refusal(
        "unsupported_image",
        "This is not a PNG, JPEG or WebP picture (told by its first bytes, whatever its name); upload one of those.",
        UNSUPPORTED,
    )


def check(body: bytes) -> str:
    """The sniffed media type of an upload of the right size; a :class:`Refusal` (413, 415) otherwise."""
    if len(body) > MAX_MAP_BYTES:
        raise Refusal(
            "too_large",
            f"A map may be at most {MAX_MAP_BYTES // (1024 * 1024)} MB; this one is {len(body) / 1024 / 1024:.1f} MB.",
            TOO_LARGE,
        )
    if not body:
        raise Refusal("unsupported_image", "The upload is empty: send the picture's bytes as the body.", UNSUPPORTED)
    return sniff(body)


def upload(ledger: Ledger, table: Table, seat: SeatInfo, body: bytes) -> JsonObject:
    """The GM's upload: checked, kept in the store, told to every seat (an audit entry names it). Returns the
    table's ``map`` field."""
    require_gm(seat)
    media_type = check(body)
    kept = ledger.guard(lambda: ledger.store.put_map(table.id, media_type, body))
    info: JsonObject = {"version": kept.version, "type": kept.media_type, "bytes": len(body)}
    with table.lock:
        config = ledger.guard(lambda: ledger.store.set_config(table.id, {"map": info}))
        table.config = dict(config or table.config)
    ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "map", {"version": kept.version, **info}))
    ledger.announce(table)
    return {"map": info}


def image(ledger: Ledger, table: Table) -> MapImage:
    """The table's map image (any seat of the table may read it: the caller checked the token); 404 without one."""
    kept = ledger.guard(lambda: ledger.store.map_image(table.id))
    if kept is None:
        raise Refusal("no_map", "This table has no map image; the GM may upload one.", NOT_FOUND)
    return kept
