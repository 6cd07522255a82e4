"""A table's map image (``POST /api/tables/ID/gm/map``, ``GET /api/tables/ID/map``; docs/table.md "The map image"):
the GM uploads a PNG, JPEG or WebP of at most 4 MB, its type told by its bytes; an SVG or anything else is refused
with a sentence, as is a larger one; the image is kept with the table across a restart and served only to the
table's seats, with its sniffed type and ``nosniff``."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.store import Store
from tests.web.conftest import create
from tests.web.helpers import auth, make_app, tokens_of
from tests.web.inprocess import InProcessClient


def png() -> bytes:
    """A real one-pixel PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b"")
    )


PEOPLE = {"oriel": "human", "kestrin": "human"}  # two player seats beside the GM's and the spectator's
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 100 + b"\xff\xd9"
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 40
SVG = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def upload(client: TestClient, table: str, token: str, body: bytes, kind: str = "image/png") -> Any:
    return client.post(f"/api/tables/{table}/gm/map", content=body, headers={**auth(token), "Content-Type": kind})


@pytest.fixture
def table(client: TestClient) -> tuple[str, dict[str, str]]:
    made = create(client, "spellchrome/jackal_pack", controllers=PEOPLE)
    return made["table"], tokens_of(made)


def players(tokens: dict[str, str]) -> list[str]:
    return [seat for seat in tokens if seat not in ("gm", "spectator")]


@pytest.mark.parametrize(
    ("body", "media_type"),
    [(png(), "image/png"), (JPEG, "image/jpeg"), (WEBP, "image/webp")],
    ids=["png", "jpeg", "webp"],
)
def test_the_gm_uploads_a_map_and_every_seat_reads_it(
    client: TestClient, table: tuple[str, dict[str, str]], body: bytes, media_type: str
) -> None:
    """The type comes from the bytes, whatever the header says (here always application/octet-stream)."""
    table_id, tokens = table
    answer = upload(client, table_id, tokens["gm"], body, "application/octet-stream")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"map": {"version": 1, "type": media_type, "bytes": len(body)}}
    for seat in [*players(tokens), "spectator", "gm"]:
        served = client.get(f"/api/tables/{table_id}/map", headers=auth(tokens[seat]))
        assert served.status_code == 200 and served.content == body
        assert served.headers["content-type"] == media_type
        assert served.headers["x-content-type-options"] == "nosniff"
        assert served.headers["content-disposition"] == 'inline; filename="map"'
        message = client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat])).json()
        assert message["map"] == {"version": 1, "type": media_type, "bytes": len(body)}


def test_a_new_upload_replaces_the_map_and_counts_its_version_up(
    client: TestClient, table: tuple[str, dict[str, str]]
) -> None:
    table_id, tokens = table
    assert client.get(f"/api/tables/{table_id}", headers=auth(tokens["gm"])).json()["map"] is None
    assert upload(client, table_id, tokens["gm"], png()).json()["map"]["version"] == 1
    assert upload(client, table_id, tokens["gm"], JPEG).json()["map"] == {
        "version": 2,
        "type": "image/jpeg",
        "bytes": len(JPEG),
    }
    assert client.get(f"/api/tables/{table_id}/map", headers=auth(tokens["gm"])).content == JPEG


@pytest.mark.parametrize(
    ("body", "kind", "sentence"),
    [
        (
            SVG,
            "image/svg+xml",
            "An SVG (or any text) cannot be a map: it can carry scripts. Upload a PNG, JPEG or WebP picture.",
        ),
        (
            SVG,
            "image/png",
            "An SVG (or any text) cannot be a map: it can carry scripts. Upload a PNG, JPEG or WebP picture.",
        ),
        (
            b"GIF89a" + b"\x00" * 30,
            "image/png",
            "This is not a PNG, JPEG or WebP picture (told by its first bytes, whatever its name); upload one of "
            "those.",
        ),
        (b"", "image/png", "The upload is empty: send the picture's bytes as the body."),
    ],
    ids=["svg", "svg-named-png", "gif", "empty"],
)
def test_anything_but_png_jpeg_or_webp_is_refused_with_415(
    client: TestClient, table: tuple[str, dict[str, str]], body: bytes, kind: str, sentence: str
) -> None:
    table_id, tokens = table
    answer = upload(client, table_id, tokens["gm"], body, kind)
    assert answer.status_code == 415
    assert answer.json() == {"code": "unsupported_image", "message": sentence}
    assert client.get(f"/api/tables/{table_id}/map", headers=auth(tokens["gm"])).status_code == 404


def test_a_map_over_4_mb_is_refused_with_413(client: TestClient, table: tuple[str, dict[str, str]]) -> None:
    """Larger than the default body bound (256 KiB), at most 4 MiB: a body of 4 MiB + 1 byte is refused by the bound
    with the map's sentence; one of exactly 4 MiB is kept."""
    table_id, tokens = table
    too_large = png() + b"\0" * (4 * 1024 * 1024 + 1 - len(png()))
    answer = upload(client, table_id, tokens["gm"], too_large)
    assert answer.status_code == 413
    assert answer.json() == {"code": "too_large", "message": "A map may be at most 4 MB."}
    assert upload(client, table_id, tokens["gm"], too_large[:-1]).status_code == 200
    other = client.post("/api/scenarios/check", content=b"{" + b" " * (300 * 1024) + b"}")
    assert other.status_code == 413  # every other route keeps the default bound


def test_only_the_gm_uploads_and_only_the_tables_seats_read(
    client: TestClient, table: tuple[str, dict[str, str]]
) -> None:
    table_id, tokens = table
    answer = upload(client, table_id, tokens[players(tokens)[0]], png())
    assert answer.status_code == 403 and answer.json()["code"] == "gm_only"
    assert upload(client, table_id, tokens["gm"], png()).status_code == 200
    assert client.get(f"/api/tables/{table_id}/map").status_code == 401
    other = tokens_of(create(client, "spellchrome/jackal_pack", controllers=PEOPLE))
    assert client.get(f"/api/tables/{table_id}/map", headers=auth(other["gm"])).status_code == 401


def test_the_map_survives_a_restart(tmp_path: Path) -> None:
    """Kept in the store with the table: a new server over the same database serves it, and says so."""
    url = f"sqlite:///{tmp_path / 'maps.db'}"
    with Store(url) as store:
        service, app = make_app(store)
        with InProcessClient(app) as first:
            made = create(first, "spellchrome/jackal_pack", controllers=PEOPLE)
            tokens = tokens_of(made)
            assert upload(first, made["table"], tokens["gm"], WEBP).status_code == 200
        service.close()
    with Store(url) as store:
        service, app = make_app(store)
        with InProcessClient(app) as second:
            player = tokens[players(tokens)[0]]
            served = second.get(f"/api/tables/{made['table']}/map", headers=auth(player))
            assert served.status_code == 200 and served.content == WEBP
            assert served.headers["content-type"] == "image/webp"
            message = second.get(f"/api/tables/{made['table']}", headers=auth(player)).json()
            assert message["map"] == {"version": 1, "type": "image/webp", "bytes": len(WEBP)}
        service.close()
