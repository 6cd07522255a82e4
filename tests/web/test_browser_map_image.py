"""The GM's map image on the table page (docs/table.md, "The map image"), in a real browser from
the lobby: the GM opens an example and uploads a picture through the GM page's own control; each player's page
(desktop, and a 390x844 phone whose map pans) fetches it once with its seat's token and draws it under the grid,
stretched to the map's squares, with the squares translucent and the tokens above it; a replacement reaches another
seat as a new version (the old blob URL revoked); an SVG is refused at the field with the server's sentence; the page
with the map passes axe. A ruleset without a grid (WaRP's positions, the HuD's places) shows the picture above its
positions or places, as wide as the panel. Desktop, phone and dark-theme screenshots go to DOCS_IMG.

The pictures are PNGs written here with zlib and struct (no imaging library)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.axe import violations
from tests.web.browser import DOCS_IMG, Seat, chromium, create_from_lobby, live_server, open_seat, synced

PHONE = {"width": 390, "height": 844}
#: The Jackals at the Stones: a map of 14 by 10 squares.
WIDTH, HEIGHT = 14, 10
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
SVG_REFUSED = "An SVG (or any text) cannot be a map: it can carry scripts. Upload a PNG, JPEG or WebP picture."


def png(width: int, height: int, light: tuple[int, int, int], dark: tuple[int, int, int]) -> bytes:
    """An RGB PNG of ``width`` by ``height`` pixels: a checker of 8-pixel cells in two colours, a blue stream across
    it (so that a screenshot shows a picture under the squares, not a flat colour)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    def pixel(x: int, y: int) -> bytes:
        if abs(y - height // 2 - (x - width // 2) // 3) < 3:
            return bytes((70, 120, 190))
        return bytes(light if (x // 8 + y // 8) % 2 else dark)

    rows = b"".join(b"\x00" + b"".join(pixel(x, y) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


FIRST_PX, SECOND_PX = (WIDTH * 8, HEIGHT * 8), (WIDTH * 4, HEIGHT * 4)
FIRST = png(*FIRST_PX, (176, 150, 104), (128, 150, 92))
SECOND = png(*SECOND_PX, (150, 150, 160), (110, 110, 126))


def upload(gm: Seat, name: str, body: bytes, mime: str = "image/png") -> Any:
    """The GM chooses ``body`` as the map image and presses "Upload map"; returns the note at the field."""
    page = gm.page
    page.locator("#gm-map-file").set_input_files({"name": name, "mimeType": mime, "buffer": body})
    expect(page.locator("#gm-map-note")).to_contain_text(f"Chosen: {name}.")
    page.get_by_role("button", name="Upload map").click()
    return page.locator("#gm-map-note")


def grid_picture(page: Any) -> dict[str, Any]:
    """The map image under the page's grid: its blob URL, its box and the box of the map's squares (from square
    (0, 0) to the last), the picture's size in pixels, and whether it lies under every square and token."""
    return dict(
        page.evaluate(
            """async ([w, h]) => {
              const svg = document.querySelector("#board svg.board.grid");
              const image = svg.querySelector("image.map-image");
              const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
              const first = box(svg.querySelector('rect[data-xy="0,0"]'));
              const last = box(svg.querySelector(`rect[data-xy="${w - 1},${h - 1}"]`));
              const href = image.getAttribute("href");
              const img = new Image();
              img.src = href;
              await img.decode();
              const size = [img.naturalWidth, img.naturalHeight];
              const drawn = [...svg.children];
              const above = [...svg.querySelectorAll("rect.sq, g.tokg")].map((el) => drawn.indexOf(el));
              const under = drawn.indexOf(image) < Math.min(...above);
              const plain = svg.querySelector("rect.sq:not(.wall):not(.water):not(.rough):not(.threat):not(.target)");
              return { href, size, under, hidden: image.getAttribute("aria-hidden"), classes: svg.getAttribute("class"),
                       image: box(image), grid: [first[0], first[1], last[2], last[3]],
                       square: Number(getComputedStyle(plain).fillOpacity) };
            }""",
            [WIDTH, HEIGHT],
        )
    )


def assert_under_the_grid(page: Any, body: bytes, pixels: tuple[int, int], before: str | None = None) -> str:
    """The page draws ``body`` (``pixels`` wide and high) under its grid, exactly over the map's squares, in place
    of the picture at the blob URL ``before``; returns its blob URL."""
    page.wait_for_function(
        """([n, before]) => {
          const i = document.querySelector("#board svg.board.grid image.map-image");
          return i && i.getAttribute("href") !== before && window.affray.msg.map.bytes === n;
        }""",
        arg=[len(body), before],
        timeout=15_000,
        polling=20,
    )
    seen = grid_picture(page)
    assert seen["href"].startswith("blob:")
    assert seen["size"] == list(pixels)  # the picture the GM uploaded, as the server kept it
    assert seen["under"] and seen["hidden"] == "true"
    assert "has-map" in seen["classes"].split()
    assert seen["square"] == pytest.approx(0.3)  # a plain square lets the picture through
    assert seen["image"] == pytest.approx(seen["grid"], abs=0.5), seen  # the map's size, square for square
    return str(seen["href"])


def test_the_map_image_is_drawn_under_the_grid_replaced_for_every_seat_and_an_svg_refused(tmp_path: Path) -> None:
    """Spellchrome's grid: upload, desktop and phone, replacement, an SVG refused, axe."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(
            gm.page, "spellchrome/jackal_pack", {"oriel": "player:A", "kestrin": "player:B"}, seed=5
        )
        table = server.service.table(table_id)
        links = {s: gm.page.locator(f'[data-link="{s}"]').input_value() for s in ("oriel", "kestrin")}
        desk = open_seat(browser, links["oriel"])
        phone = open_seat(browser, links["kestrin"], width=PHONE["width"])
        phone.page.set_viewport_size(PHONE)
        synced({"gm": gm, "oriel": desk, "kestrin": phone}, table.version)
        expect(desk.page.locator("#board svg.board.grid")).to_be_visible()
        assert desk.page.locator("#board image.map-image").count() == 0  # no map yet: nothing fetched
        assert not any(r.endswith("/map") for r in desk.requests)
        expect(gm.page.locator("#gm-map-note")).to_have_text("No map image yet.")

        note = upload(gm, "stones.png", FIRST)
        expect(note).to_have_text("Uploaded stones.png: every seat now sees map version 1.")
        first = assert_under_the_grid(desk.page, FIRST, FIRST_PX)
        assert_under_the_grid(phone.page, FIRST, FIRST_PX)
        assert_under_the_grid(gm.page, FIRST, FIRST_PX)  # the GM's page draws it too
        assert desk.requests.count(f"GET /api/tables/{table_id}/map") == 1  # once per version
        desk.page.screenshot(path=str(DOCS_IMG / "map-image-desktop.png"), full_page=True)
        phone.page.screenshot(path=str(DOCS_IMG / "map-image-phone.png"), full_page=True)
        problems = violations(desk.page)
        assert not problems, problems

        # A replacement: a new version, which the phone's seat fetches and draws; the first picture's URL revoked.
        phone_first = phone.page.locator("#board image.map-image").get_attribute("href")
        expect(upload(gm, "dusk.png", SECOND)).to_have_text("Uploaded dusk.png: every seat now sees map version 2.")
        second = assert_under_the_grid(phone.page, SECOND, SECOND_PX, phone_first)
        assert second != phone_first
        assert phone.page.evaluate("() => window.affray.msg.map.version") == 2
        gone = phone.page.evaluate(
            "u => { const i = new Image(); i.src = u; return i.decode().then(() => 'kept', () => 'revoked'); }",
            phone_first,
        )
        assert gone == "revoked"
        assert_under_the_grid(desk.page, SECOND, SECOND_PX, first)

        # An SVG is refused at the field, in the server's words; the seats keep the second picture.
        refused = upload(gm, "map.svg", SVG, "image/svg+xml")
        expect(refused).to_have_text(SVG_REFUSED)
        expect(refused).to_have_attribute("role", "alert")
        expect(gm.page.locator("#gm-map-file")).to_have_attribute("aria-invalid", "true")
        gm.page.screenshot(path=str(DOCS_IMG / "map-image-gm-refused.png"), full_page=True)
        assert server.service.table(table_id).config.get("map") == {
            "version": 2,
            "type": "image/png",
            "bytes": len(SECOND),
        }
        assert phone.page.locator("#board image.map-image").get_attribute("href") == second

        # The dark theme: the same picture under the dark squares.
        desk.page.emulate_media(color_scheme="dark")
        desk.page.screenshot(path=str(DOCS_IMG / "map-image-desktop-dark.png"), full_page=True)
        assert not gm.errors and not desk.errors and not phone.errors, (gm.errors, desk.errors, phone.errors)


@pytest.mark.parametrize(
    ("example", "player", "panel"),
    [("warp/melee_brawl", "dana", "Positions"), ("hud/nerdified_night_widow", "vesna", "Places")],
)
def test_without_a_grid_the_map_image_shows_above_the_positions(
    example: str, player: str, panel: str, tmp_path: Path
) -> None:
    """WaRP's line and the HuD's places have no grid; the picture shows under the panel's heading,
    before its contents, as wide as the panel."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(gm.page, example, {player: "player:A"}, seed=3)
        link = gm.page.locator(f'[data-link="{player}"]').input_value()
        seat = open_seat(browser, link)
        synced({"gm": gm, player: seat}, server.service.table(table_id).version)
        expect(upload(gm, "hall.png", FIRST)).to_have_text("Uploaded hall.png: every seat now sees map version 1.")
        picture = seat.page.locator("#board img.map-picture")
        expect(picture).to_be_visible(timeout=15_000)
        seen = seat.page.evaluate(
            """() => {
              const img = document.querySelector("#board img.map-picture"), head = img.previousElementSibling;
              return { head: head.tagName + " " + head.textContent, next: img.nextElementSibling.tagName,
                       alt: img.getAttribute("alt"), hidden: img.getAttribute("aria-hidden"),
                       width: img.getBoundingClientRect().width, panel: head.getBoundingClientRect().width,
                       ratio: img.naturalWidth / img.naturalHeight };
            }"""
        )
        assert seen["head"] == f"H2 {panel}"
        assert seen["next"] in ("svg", "UL")  # the positions' line, or the list of places
        assert seen["alt"] == "" and seen["hidden"] == "true"
        assert seen["width"] == pytest.approx(seen["panel"], abs=0.5)  # as wide as the panel
        assert seen["ratio"] == pytest.approx(WIDTH / HEIGHT)
        seat.page.screenshot(path=str(DOCS_IMG / f"map-image-{example.split('/')[0]}.png"), full_page=True)
        problems = violations(seat.page)
        assert not problems, problems
        assert not gm.errors and not seat.errors, (gm.errors, seat.errors)
