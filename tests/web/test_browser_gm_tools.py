"""The GM's tools without traps, in a real browser from the lobby: a HuD place chosen from a list
named by who stands there (place 0 was refused), a rounds choice only where the ruleset's statuses take one, in its
words; a square clicked for a ruling is the ruling's, never the GM's own move; pause asks for a reason every seat
reads; the seat links fold away once each was copied or shown, and stay folded; a whisper's target goes back to
everyone unless kept."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.web.browser import Seat, chromium, create_from_lobby, live_server, open_seat, synced

RULE_ID = re.compile(r"\b(SC|WR|WH|WL)-[A-Z]?\d")


def gm_table(browser: Any, server: Any, example: str, controllers: dict[str, str], seed: int = 8) -> tuple[Seat, Any]:
    gm = open_seat(browser, server.url + "/")
    table_id = create_from_lobby(gm.page, example, controllers, seed=seed)
    table = server.service.table(table_id)
    synced({"gm": gm}, table.version)
    return gm, table


def test_wl_b13_a_hud_place_is_chosen_by_who_stands_there_and_takes_no_rounds_box(tmp_path: Path) -> None:
    """WL-B13: the places read as who stands there; "with Night-Widow" (place 0) is a ruling every seat reads;
    WL-17: the HuD's penalties say how long they last, so no rounds box."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, table = gm_table(browser, server, "hud/nerdified_night_widow", {"vesna": "player:A", "ilka": "player:B"})
        page = gm.page
        page.locator('#combatants [data-combatant="ilka"]').click()
        editor = page.locator("#editor")
        expect(editor.locator("#edit-place option")).to_have_text(
            [
                "with Vesna of the Lynx and Night-Widow",
                "where it stands now",
                "a place of its own near the fight",
                "a place of its own far from the fight",
            ]
        )
        expect(editor.locator("#edit-rounds")).to_have_count(0)
        page.select_option("#edit-place", label="with Vesna of the Lynx and Night-Widow")
        page.fill("#edit-reason", "she leaps onto the web")
        editor.locator('[data-edit="apply"]').click()
        expect(page.locator("#log")).to_contain_text(
            "GM ruling (she leaps onto the web): Ilka Reedwhistle is moved to place 0 (from place 2).", timeout=10_000
        )
        assert not RULE_ID.search(editor.inner_text())
        assert table.match.state.fighters["ilka"].place == 0
        assert not gm.errors, gm.errors


def test_wr31_a_rounds_choice_only_for_the_status_that_takes_one_in_warps_words(tmp_path: Path) -> None:
    """WR-31: the psychological advantage is given for this round's rolls or the next round's; WR-30's prone lasts
    until its next turn: no rounds box for it."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, _ = gm_table(browser, server, "warp/melee_brawl", {"dana": "player:A", "theo": "player:B"})
        page = gm.page
        page.locator('#combatants [data-combatant="dana"]').click()
        editor = page.locator("#editor")
        page.select_option("#edit-status", "prone")
        expect(editor.locator("#edit-rounds")).to_have_count(0)
        page.select_option("#edit-status", "psychological advantage")
        expect(editor.locator("#edit-rounds option")).to_have_text(
            ["for this round's rolls", "for the next round's rolls"]
        )
        page.select_option("#edit-rounds", label="for the next round's rolls")
        page.fill("#edit-reason", "she stares him down")
        editor.locator('[data-edit="status"]').click()
        expect(page.locator("#log")).to_contain_text(
            "Dana Reyes is psychological advantage for 2 rounds", timeout=10_000
        )
        assert not RULE_ID.search(editor.inner_text())


def test_sc24_a_square_clicked_for_a_ruling_never_becomes_the_gms_own_move(tmp_path: Path) -> None:
    """The GM plays Tamsin, whose turn it is: her move squares are on the board. Ruling on the cutthroat's position,
    the GM clicks one of them: it is the ruling's square, and Tamsin does not move (SC-24: a move ends on a free
    square; here no move is made at all)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, table = gm_table(browser, server, "spellchrome/ford_duel", {"tamsin": "gm", "vell": "player:A"})
        page = gm.page
        page.locator('#combatants [data-combatant="vell"]').click()
        expect(page.locator("#editor")).to_contain_text("Position: click a square")
        square = page.locator("#board [data-square]").first
        xy = square.get_attribute("data-xy")
        version = table.version
        square.click()
        expect(page.locator("#editor")).to_contain_text(f"Chosen: ({xy})")
        expect(page.locator("#board [data-square].selected")).to_have_count(0)
        assert table.version == version and not gm.errors, gm.errors


def test_pause_asks_for_a_reason_every_seat_reads(tmp_path: Path) -> None:
    """Without a reason the pause waits; with one every seat reads it."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, table = gm_table(browser, server, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"})
        bruna = open_seat(browser, gm.page.locator('[data-link="bruna"]').input_value())
        synced({"bruna": bruna}, table.version)
        gm.page.click('[data-gm="pause"]')
        gm.page.click('[data-gm="confirm"]')
        expect(gm.page.locator("#error")).to_have_text("Give a reason: every seat reads it.")
        assert not table.paused
        gm.page.fill("#gm-reason", "the pizza is here")
        gm.page.click('[data-gm="confirm"]')
        expect(bruna.page.locator("#chat")).to_contain_text(
            "The GM pauses the fight: the pizza is here", timeout=10_000
        )
        expect(bruna.page.locator("#actions")).to_contain_text("The GM has paused the table")


def test_the_seat_links_fold_away_once_each_is_copied_or_shown_and_stay_folded(tmp_path: Path) -> None:
    """Open until the GM has copied or shown every seat's link; then folded, after a reload too; open on a click."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, _ = gm_table(browser, server, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"})
        page = gm.page
        links = page.locator("details.seat-links")
        expect(links).to_have_attribute("open", "")
        rows = [r.get_attribute("data-seat-row") for r in page.locator("[data-seat-row]").all()]
        assert {"bruna", "tomas"} <= set(rows)  # and the spectators' link
        for seat in rows[:-1]:
            page.click(f'[data-seat-row="{seat}"] [data-gm="copy"]')
            expect(links).to_have_attribute("open", "")
        page.click(f'[data-seat-row="{rows[-1]}"] [data-gm="qr"]')
        expect(links).not_to_have_attribute("open", "")
        page.reload()
        expect(page.locator("details.seat-links")).not_to_have_attribute("open", "")
        page.click("details.seat-links > summary")
        expect(page.locator("details.seat-links")).to_have_attribute("open", "")


def test_a_whisper_target_goes_back_to_everyone_unless_kept(tmp_path: Path) -> None:
    """A whisper to the GM; the next line goes to everyone unless "keep this target" is ticked."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm, _ = gm_table(browser, server, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"})
        bruna = open_seat(browser, gm.page.locator('[data-link="bruna"]').input_value()).page
        bruna.select_option("#chat-to", "gm")
        bruna.fill("#chat-text", "I have a plan")
        bruna.click("[data-chat-send]")
        expect(gm.page.locator("#chat")).to_contain_text("I have a plan", timeout=10_000)
        expect(bruna.locator("#chat-to")).to_have_value("")
        bruna.check("#chat-pin")
        bruna.select_option("#chat-to", "gm")
        bruna.fill("#chat-text", "and another")
        bruna.click("[data-chat-send]")
        expect(gm.page.locator("#chat")).to_contain_text("and another", timeout=10_000)
        expect(bruna.locator("#chat")).to_contain_text("and another")
        expect(bruna.locator("#chat-to")).to_have_value("gm")
