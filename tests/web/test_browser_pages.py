"""The web table's pages in a real browser (docs/table.md, 'The web table'): the lobby's problems and rule options, the
tables of WaRP and Sim HuD (captured into docs/img/), phone width, and playing by keyboard alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
from playwright.sync_api import expect

from affray.core.fields import text
from affray.rulesets.witchhammer.options import WitchHammerOptions
from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, chromium, due, live_server, open_seat, synced

BROKEN = """ruleset: spellchrome
name: Broken
map: |
  ....
sides:
  - name: one
    combatants:
      - {id: a, use: tamsin, position: [0, 0], controller: human}
  - name: two
    combatants:
      - {id: b, use: no_such_monster, position: [3, 0]}
"""


def test_lobby_shows_an_uploaded_files_problems_with_file_and_field(tmp_path: Path) -> None:
    upload = tmp_path / "broken_ford.yaml"
    upload.write_text(BROKEN)
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        lobby = open_seat(browser, server.url + "/")
        lobby.page.wait_for_selector("#example option[value]", state="attached")
        lobby.page.set_input_files("#upload", str(upload))
        lobby.page.click("#create")
        problems = lobby.page.locator("#problems li")
        expect(problems.first).to_contain_text("broken_ford.yaml", timeout=10_000)
        expect(problems.first).to_contain_text("no_such_monster")
        assert lobby.page.url.endswith("/"), "a refused scenario must not open a table"
        assert server.service.loaded() == []


def test_lobby_lists_the_rulesets_named_options_with_their_rule_ids(tmp_path: Path) -> None:
    """Rule: WH-B20 (the Drama Timer is a named option of WitchHammer)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        lobby = open_seat(browser, server.url + "/?example=witchhammer/mill_ambush")
        expect(lobby.page.locator("#opt-drama_timer")).to_have_count(1, timeout=10_000)
        lobby.page.click("text=Rule options")
        expect(lobby.page.locator("#opt-drama_timer-help")).to_contain_text("WH-B20")
        expect(lobby.page.locator('[data-controller="hob"]')).to_have_count(1)


def open_table(url: str, scenario: str, controllers: dict[str, str]) -> dict[str, object]:
    answer = httpx.post(
        f"{url}/api/tables", json={"scenario": scenario, "controllers": controllers, "seed": 7}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    data: dict[str, object] = answer.json()
    return data


def test_warp_and_hud_tables_draw_every_combatant_and_are_captured(tmp_path: Path) -> None:
    """Rules: WR-21 (WaRP positions on a line), HUD Combat Nerdified (the duel's cards)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        for scenario, seat, shot in [
            ("warp/knight_duel", "theo", "table-warp.png"),
            ("hud/nerdified_duel", "vesna", "table-hud.png"),
        ]:
            actors = {"theo": "human", "reginald": "human"} if seat == "theo" else {"vesna": "human", "hald": "human"}
            created = open_table(server.url, scenario, actors)
            seats = created["seats"]
            assert isinstance(seats, dict)
            player = open_seat(browser, server.url + seats[seat]["link"])
            table = server.service.table(str(created["table"]))
            synced({seat: player}, table.version)
            expect(player.page.locator("#combatants [data-card-of]")).to_have_count(2)
            expect(player.page.locator(f'[data-card-of="{seat}"]')).to_have_class("card own")
            foe = next(c for c in ("reginald", "hald") if player.page.locator(f'[data-card-of="{c}"]').count())
            expect(player.page.locator(f'[data-card-of="{foe}"]')).to_have_class("card foe")
            player.page.screenshot(path=str(DOCS_IMG / shot), full_page=True)
            assert not player.errors, player.errors


def test_the_gm_gives_a_warp_hold_by_the_holders_name_and_the_player_reads_it(tmp_path: Path) -> None:
    """WR-30: the GM clicks Sir Reginald's card, gives "held by Theo Marsh" from the editor's list (the holder by
    name, never by id) and takes it back; the player's page shows the hold on the card and tells it in the story."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        created = open_table(server.url, "warp/knight_duel", {"theo": "human", "reginald": "human"})
        seats, gm_link = created["seats"], created["gm"]
        assert isinstance(seats, dict) and isinstance(gm_link, dict)
        gm = open_seat(browser, server.url + gm_link["link"])
        theo = open_seat(browser, server.url + seats["theo"]["link"])
        table = server.service.table(str(created["table"]))
        synced({"gm": gm, "theo": theo}, table.version)
        gm.page.locator('#combatants [data-combatant="reginald"]').click()
        editor = gm.page.locator("#editor")
        expect(editor).to_contain_text("Rule on Sir Reginald of Nowhere")
        expect(editor.locator("#edit-status option")).to_contain_text(["held by Theo Marsh"])
        editor.locator("#edit-status").select_option("held by Theo Marsh")
        editor.locator("#edit-reason").fill("a grapple in the car park")
        editor.locator('[data-edit="status"]').click()
        card = theo.page.locator('[data-card-of="reginald"] .status')
        expect(card).to_have_text(["held by Theo Marsh"])
        expect(theo.page.locator("#log")).to_contain_text(
            "GM ruling (a grapple in the car park): Sir Reginald of Nowhere is held by Theo Marsh."
        )
        editor.locator('[data-edit-remove="held by Theo Marsh"]').click()
        expect(card).to_have_count(0)
        expect(theo.page.locator("#log")).to_contain_text("Sir Reginald of Nowhere is no longer held by Theo Marsh")
        assert not gm.errors and not theo.errors, (gm.errors, theo.errors)


def tab_to(page: Any, focused: str, what: str) -> None:
    """Press Tab until ``focused`` (a script) holds for the element with the focus (at most 300 presses)."""
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate(focused):
            return
    raise AssertionError(f"no {what} takes the keyboard focus")


def test_phone_width_and_keyboard_alone(tmp_path: Path) -> None:
    """At 390 px nothing scrolls sideways; a player picks a square with Tab and Enter and takes the move by keyboard
    (SC-15: a move action), then opens and closes the move's raw record with Enter."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        created = open_table(server.url, "spellchrome/ford_duel", {"tamsin": "human", "vell": "human"})
        seats = created["seats"]
        gm_link = created["gm"]
        assert isinstance(seats, dict) and isinstance(gm_link, dict)
        table = server.service.table(str(created["table"]))
        pages = {
            "tamsin": open_seat(browser, server.url + seats["tamsin"]["link"], width=390),
            "gm": open_seat(browser, server.url + gm_link["link"], width=390),
        }
        synced(pages, table.version)
        for seat in pages.values():
            width = seat.page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide at phone width"
        mover = next(name for name, seat in pages.items() if due(seat.page))
        page = pages[mover].page
        page.screenshot(path=str(DOCS_IMG / "table-phone.png"), full_page=True)
        tab_to(page, "document.activeElement.dataset.square !== undefined", "a square of the board")
        page.keyboard.press("Enter")
        expect(page.locator("#actions .preview")).to_contain_text("To square")
        version = table.version
        tab_to(page, "document.activeElement.dataset.act !== undefined", "a move")
        page.keyboard.press("Enter")
        wait_for(lambda: table.version > version, 10, "the move chosen by keyboard")
        # the move's raw record, opened and closed with Enter: drawn while open, and the focus stays where it was
        synced({mover: pages[mover]}, table.version)
        tab_to(page, "document.activeElement.matches('details[data-raw] > summary')", "a raw record")
        seq = page.evaluate("document.activeElement.parentElement.dataset.raw")
        record = page.locator(f'details[data-raw="{seq}"]')
        page.keyboard.press("Enter")
        expect(record).to_have_attribute("open", "")
        expect(record.locator("pre")).to_contain_text('"seq": ' + seq)
        assert page.evaluate("document.activeElement.matches('details[data-raw] > summary')")
        page.keyboard.press("Enter")
        expect(record.locator("pre")).to_have_count(0)
        expect(record).not_to_have_attribute("open", "")


def test_gm_tools_pause_the_drama_timer_and_a_new_link_reach_every_page(tmp_path: Path) -> None:
    """Rule: WH-B20 (the Drama Timer, a named option, with its countdown on every page)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/?example=witchhammer/yard_duel")
        gm.page.wait_for_selector('[data-controller="bruna"]')
        for actor, letter in (("bruna", "A"), ("tomas", "B")):
            gm.page.select_option(f'[data-controller="{actor}"]', f"player:{letter}")
        gm.page.click("text=Rule options")
        gm.page.check("#opt-drama_timer")
        gm.page.click("#create")
        gm.page.wait_for_selector("[data-link]")
        table = server.service.table(gm.page.url.split("/t/")[1].split("#")[0])
        options = table.match.options
        assert isinstance(options, WitchHammerOptions) and options.drama_timer is True
        old_link = gm.page.locator('[data-link="bruna"]').input_value()
        seats = {
            "gm": gm,
            "bruna": open_seat(browser, old_link),
            "tomas": open_seat(browser, gm.page.locator('[data-link="tomas"]').input_value()),
        }
        synced(seats, table.version)
        gm.page.click('[data-gm="pause"]')
        gm.page.fill("#gm-reason", "a pizza arrives")
        gm.page.click('[data-gm="confirm"]')
        for name in ("bruna", "tomas"):
            expect(seats[name].page.locator("#actions")).to_contain_text("The GM has paused the table")
            expect(seats[name].page.locator("#chat")).to_contain_text("The GM pauses the fight: a pizza arrives")
        gm.page.click('[data-gm="resume"]')
        gm.page.fill("#gm-reason", "back to it")
        gm.page.click('[data-gm="confirm"]')
        expect(seats["bruna"].page.locator("#actions")).not_to_contain_text("paused")
        gm.page.fill("#gm-seconds", "90")
        gm.page.click('[data-gm="timer"]')
        for seat in seats.values():
            expect(seat.page.locator("#countdown")).to_have_text(re.compile(r"^1:[23]\d$"), timeout=10_000)
        gm.page.click('[data-gm="timer-stop"]')
        expect(seats["tomas"].page.locator("#countdown")).to_have_count(0)
        gm.page.click('[data-seat-row="bruna"] [data-gm="replace"]')
        expect(seats["bruna"].page.locator("#conn")).to_have_text("This seat's token was replaced.", timeout=10_000)
        expect(gm.page.locator('[data-link="bruna"]')).not_to_have_value(old_link)
        fresh = open_seat(browser, gm.page.locator('[data-link="bruna"]').input_value())
        synced({"bruna": fresh}, table.version)
        expect(fresh.page.locator('[data-card-of="bruna"]')).to_have_class("card own")
        # The GM's link opened in another browser: the server lists the seats; their links are made anew there.
        elsewhere = open_seat(browser, gm.page.url)
        expect(elsewhere.page.locator('[data-no-link="tomas"]')).to_contain_text("made in another browser")
        elsewhere.page.click('[data-seat-row="tomas"] [data-gm="replace"]')
        expect(seats["tomas"].page.locator("#conn")).to_have_text("This seat's token was replaced.", timeout=10_000)
        tomas = open_seat(browser, elsewhere.page.locator('[data-link="tomas"]').input_value())
        synced({"tomas": tomas}, table.version)
        expect(tomas.page.locator('[data-card-of="tomas"]')).to_have_class("card own")
        assert not elsewhere.errors and not gm.errors


def test_free_form_posts_are_written_in_one_browser_and_read_in_the_other(tmp_path: Path) -> None:
    """Rule: HUD Free Form (a scene written together: each post is text, shown to every seat)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        created = open_table(server.url, "hud/free_form_tavern", {"bors": "human", "hald": "human"})
        seats = created["seats"]
        assert isinstance(seats, dict)
        table = server.service.table(str(created["table"]))
        pages = {name: open_seat(browser, server.url + seats[name]["link"]) for name in ("bors", "hald")}
        synced(pages, table.version)
        writer = next(name for name, seat in pages.items() if due(seat.page))
        reader = next(name for name in pages if name != writer)
        post = "The ferryman's son spits on the floor and reaches for the bench."
        pages[writer].page.locator("#actions [data-step]", has_text="Post").first.click()  # the steps: Post, then how
        pages[writer].page.locator("#actions input[data-free-step]").fill(post)
        pages[writer].page.locator('#actions [data-type="post"]').first.click()
        wait_for(lambda: table.version == 1, 10, "the post to be taken")
        synced(pages, 1)
        expect(pages[reader].page.locator("#log")).to_contain_text(post)
        assert post in text(table.match.records[0].action, "text")
