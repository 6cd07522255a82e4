"""The GM and the chat in real browsers: the GM rules on a combatant by clicking its card (every page reads the ruling
line; a take back removes it), drags a token to move it; a phone reads its QR code; a whisper reaches only its
addressee's page (its DOM and its WebSocket frames); free rolls show as dice and are checked at the end; a click
while the server cannot be reached says so and sends nothing."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, create_from_lobby, live_server, open_seat, synced


def seated(browser: Any, server: Any, phone: bool = False) -> tuple[dict[str, Seat], Any]:
    gm = open_seat(browser, server.url + "/")
    table_id = create_from_lobby(gm.page, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"}, seed=8)
    links = {s: gm.page.locator(f'[data-link="{s}"]').input_value() for s in ("bruna", "tomas")}
    seats = {
        "gm": gm,
        **{s: open_seat(browser, link, width=390 if phone and s == "tomas" else 1200) for s, link in links.items()},
    }
    table = server.service.table(table_id)
    synced(seats, table.version)
    return seats, table


def test_the_gm_rules_by_clicking_a_card_every_page_reads_it_and_a_take_back_removes_it(tmp_path: Path) -> None:
    """Rules: WH-13 (Poise), WH-07 (positions on the grid)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        seats, table = seated(browser, server)
        gm = seats["gm"].page
        gm.locator('#combatants [data-combatant="tomas"]').click()
        editor = gm.locator("#editor")
        expect(editor).to_contain_text("Rule on Tomas Reedwater")
        editor.locator('[data-edit-bar="Poise"]').fill("17")
        editor.locator("#edit-reason").fill("an old wound opens")
        editor.locator('[data-edit="apply"]').click()
        line = "GM ruling (an old wound opens): Tomas Reedwater's Poise 17 (was 24)."
        for seat in seats.values():
            expect(seat.page.locator("#log")).to_contain_text(line, timeout=10_000)
            expect(seat.page.locator('[data-card-of="tomas"] .bar-value').first).to_have_text("17/24")
        assert [r.kind for r in table.match.records] == ["gm"]
        # drag Bruna's token two squares to the left: a position ruling
        with table.lock:
            x, y = next((c.position.x, c.position.y) for c in table.match.view("gm").combatants if c.id == "bruna")
        token = gm.locator('svg [data-drag="bruna"] circle')
        target = gm.locator(f'svg rect[data-xy="{x - 2},{y}"]')
        token.drag_to(target)
        gm.fill("#drag-reason", "she slips on the ice")  # the move waits for its reason
        gm.click('[data-gm="drag-apply"]')
        for seat in seats.values():
            expect(seat.page.locator('[data-card-of="bruna"]')).to_contain_text(f"at ({x - 2}, {y})", timeout=10_000)
            expect(seat.page.locator("#log")).to_contain_text("GM ruling (she slips on the ice)")
        # the GM takes both back: every page follows
        gm.select_option("#gm-to", "0")
        gm.click('[data-gm="rewind"]')
        gm.fill("#gm-reason", "a fresh start")
        gm.click('[data-gm="confirm"]')
        for seat in seats.values():
            expect(seat.page.locator("#chat")).to_contain_text(
                "The GM takes the fight back to before move 1: a fresh start", timeout=10_000
            )
        for seat in seats.values():
            expect(seat.page.locator('[data-card-of="tomas"] .bar-value').first).to_have_text("24/24", timeout=10_000)
            expect(seat.page.locator('[data-card-of="bruna"]')).to_contain_text(f"at ({x}, {y})")
        # a player's page offers no ruling: its cards are no buttons, and the server refuses one anyway
        assert seats["bruna"].page.locator("#combatants [data-combatant]").count() == 0
        seats["gm"].page.screenshot(path=str(DOCS_IMG / "table-gm-ruling.png"), full_page=True)
        for seat in seats.values():
            assert not seat.errors, seat.errors


def test_a_phone_reads_the_seat_link_from_its_qr_code(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        seats, _ = seated(browser, server)
        gm = seats["gm"].page
        link = gm.locator('[data-link="tomas"]').input_value()
        gm.click('[data-seat-row="tomas"] [data-gm="qr"]')
        qr = gm.locator('[data-qr="tomas"] svg')
        expect(qr).to_have_count(1)
        picture = Image.open(io.BytesIO(qr.screenshot()))
        found = zxingcpp.read_barcodes(picture)
        assert [code.text for code in found] == [link]
        expect(gm.locator('[data-seat-row="tomas"] .online')).to_have_text("connected")


def test_a_whisper_reaches_only_its_addressee_and_free_rolls_are_checked_at_the_end(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        seats, _ = seated(browser, server, phone=True)
        bruna = seats["bruna"].page
        secret = "<i>Flank him</i> when I shout"
        bruna.select_option("#chat-to", "gm")
        bruna.fill("#chat-text", secret)
        bruna.click("[data-chat-send]")
        expect(seats["gm"].page.locator("#chat")).to_contain_text(secret, timeout=10_000)
        expect(seats["gm"].page.locator("#chat")).to_contain_text("Bruna Halloway whispers to you")
        expect(bruna.locator("#chat")).to_contain_text("You whisper to the GM")
        assert seats["gm"].page.locator("#chat i").count() == 0  # shown as text, never as markup
        bruna.select_option("#chat-to", "")
        bruna.fill("#chat-text", "Good luck, Tomas!")
        bruna.click("[data-chat-send]")
        expect(seats["tomas"].page.locator("#chat")).to_contain_text("Good luck, Tomas!", timeout=10_000)
        assert secret not in seats["tomas"].page.locator("#main").inner_text()
        assert not any("Flank him" in frame for frame in seats["tomas"].frames)
        seats["tomas"].page.fill("#chat-text", "2d6+1")
        seats["tomas"].page.click("[data-chat-roll]")
        for seat in seats.values():
            expect(seat.page.locator("#chat .roll")).to_contain_text("2d6+1", timeout=10_000)
        seats["gm"].page.click('[data-gm="end"]')
        seats["gm"].page.fill("#gm-reason", "time is up")
        seats["gm"].page.click('[data-gm="confirm"]')
        for seat in seats.values():
            expect(seat.page.locator("#verdict")).to_have_text(
                re.compile(r"^verified: \d+ dice and 1 free roll"), timeout=20_000
            )
            expect(seat.page.locator("#chat .roll")).to_contain_text("checked")
        seats["tomas"].page.screenshot(path=str(DOCS_IMG / "table-chat-phone.png"), full_page=True)
        for seat in seats.values():
            assert not seat.errors, seat.errors


def test_a_click_while_the_server_cannot_be_reached_says_so_and_sends_nothing(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        seats, table = seated(browser, server)
        page = seats["bruna"].page
        version = table.version
        page.context.set_offline(True)  # the network is gone: nothing this page sends arrives
        page.locator("#actions [data-act]").first.click()
        expect(page.locator("#error")).to_have_text(
            "The server cannot be reached; nothing was sent. Check the connection and try again."
        )
        assert table.version == version
        page.context.set_offline(False)
        # The toast still lies over the foot of the page for its six seconds: a tap goes through it to the move
        # under it at once (a click that had to wait the toast out would overrun this bound).
        expect(page.locator("#error")).to_be_visible()
        page.locator("#actions [data-act]").first.click(timeout=3_000)
        wait_for(lambda: table.version > version, 10, "the click once the server is back")
