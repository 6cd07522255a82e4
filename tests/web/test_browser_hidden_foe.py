"""A hidden foe in a real browser (docs/table.md, "Hidden foes"), from the lobby: the GM builds a fight with a jackal
hidden from the players, opens it, and a player's page (its DOM and every WebSocket frame it received) holds neither
the jackal's name nor its id until the GM presses Reveal; then the player's page shows it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.web.browser import chromium, live_server, open_seat, synced
from tests.web.test_browser_builder import add_from_library, build_page, checked


def test_sc23_a_hidden_jackal_reaches_no_player_until_the_gm_reveals_it(tmp_path: Path) -> None:
    """SC-23 (the grid the jackal stands on): hidden, it is in no frame and no text of the player's page; revealed
    by the GM's button, the player's page names it."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/", width=1280)
        page = build_page(gm)
        page.get_by_label("Ruleset").select_option("spellchrome")
        page.get_by_label("Title").fill("Something in the reeds")
        add_from_library(page, "oriel", "Oriel Vantasse")
        add_from_library(page, "jackal", "Ash Jackal")
        page.locator(".b-entry", has_text="Ash Jackal").get_by_label("Hidden from the players").check()
        page.get_by_label("who plays Ash Jackal").select_option("gm")
        checked(page)
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_url("**/t/**")
        page.wait_for_selector("[data-link]")
        table_id = page.url.split("/t/")[1].split("#")[0]
        table = server.service.table(table_id)
        link = page.locator('[data-link="oriel_vantasse"]').input_value()

        frames: list[str] = []
        player_context = browser.new_context(viewport={"width": 1280, "height": 900})
        player_page = player_context.new_page()
        player_page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        player_page.goto(link)
        player_page.wait_for_function("() => window.affray && window.affray.msg", timeout=15_000, polling=50)
        synced({"gm": gm}, table.version)
        player_page.wait_for_function(
            "v => window.affray.msg.version >= v", arg=table.version, timeout=15_000, polling=50
        )
        expect(gm.page.locator("#main")).to_contain_text("Ash Jackal")  # the GM sees it
        seen = player_page.locator("body").inner_text() + player_page.content()
        assert frames and all("jackal" not in f.lower() for f in frames), [f for f in frames if "jackal" in f.lower()]
        assert "jackal" not in seen.lower()

        gm.page.get_by_role("button", name="Reveal Ash Jackal").click()
        expect(player_page.locator("#main")).to_contain_text("Ash Jackal", timeout=15_000)
        assert any("Ash Jackal" in f for f in frames)
        player_context.close()
        assert not gm.errors, gm.errors
