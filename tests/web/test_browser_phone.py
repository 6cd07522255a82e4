"""WitchHammer's Planning on a phone late in a fight (WH-02, WH-03): the seat's choices stay on the first screen.

A player opens the link the GM's lobby gives them on a 390×844 phone and plays the Psych and Planning phases of the
mill ambush by clicking, the AI playing everyone else, into round 4 and on. Whenever it is the seat's move, its
choices start within the first screen: the first card of its hand and "ready" lie wholly above 844 px of the page,
however much story and how many statuses the fight has piled up; and the page stays under three screens tall. Late in
the fight the page is photographed at phone and at desktop size (the same seat, in a second browser).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, chromium, create_from_lobby, live_server, open_seat

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LATE = 4  # the round from which the issue saw the choices pushed off the first screen
UNTIL = 6  # the round at which the test stops (the fight goes on to round 12: the rest adds nothing)
MAX_CLICKS = 60
AI = {actor: "policy:heuristic" for actor in ("ilse", "hob", "wat", "dick")}


def bottom(page: Any, selector: str) -> float | None:
    """The bottom edge of the first element matching ``selector``, in page coordinates (None when there is none)."""
    box = page.evaluate(
        """s => { const e = document.querySelector(s);
        if (!e) return null; const r = e.getBoundingClientRect(); return r.bottom + window.scrollY; }""",
        selector,
    )
    return None if box is None else float(box)


def test_wh03_the_phones_choices_start_on_the_first_screen_in_every_round(tmp_path: Path) -> None:
    """Rules: WH-02, WH-03 (the Psych card, then two Action cards placed one at a time, then ready)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(gm.page, "witchhammer/mill_ambush", {"tomas": "player:A", **AI}, seed=3)
        link = gm.page.locator('[data-link="tomas"]').input_value()
        gm.page.context.close()
        phone = open_seat(browser, link, width=PHONE["width"])
        page = phone.page
        page.set_viewport_size(PHONE)
        table = server.service.table(table_id)
        checked: dict[str, int] = {}  # phase -> moves checked at round LATE or later
        clicks = 0
        while not table.over:
            # the page has the server's last change, and the seat is due (or the fight is over)
            page.wait_for_function(
                "v => { const m = window.affray.msg; return m && m.version >= v && (m.outcome || "
                "Object.keys(m.legal || {}).length); }",
                arg=table.version,
                timeout=15_000,
                polling=20,
            )
            if table.over:
                break
            round_, phase = page.evaluate("[window.affray.view.round, window.affray.view.phase]")
            if round_ >= UNTIL:
                break
            assert clicks < MAX_CLICKS, "the seat never reached round 6"
            page.evaluate("window.scrollTo(0, 0)")
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height < 3 * PHONE["height"], f"round {round_}, {phase}: the phone's page is {height} px tall"
            first_card, ready = bottom(page, "[data-hand] .wcard"), bottom(page, '#actions [data-type="ready"]')
            assert first_card is not None or ready is not None, f"round {round_}, {phase}: no choice on the page"
            for what, edge in (("the hand's first card", first_card), ('"ready"', ready)):
                assert edge is None or edge <= PHONE["height"], (
                    f"round {round_}, {phase}: {what} ends at {edge:.0f} px, below the first screen"
                )
            if round_ >= LATE:
                checked[phase] = checked.get(phase, 0) + 1
            if round_ >= LATE and phase == "planning" and "shot" not in checked:
                checked["shot"] = 1
                page.screenshot(path=str(DOCS_IMG / "table-witchhammer-late-phone.png"), full_page=True)
                desk = open_seat(browser, link, width=DESKTOP["width"])
                desk.page.set_viewport_size(DESKTOP)
                expect(desk.page.locator('#actions [data-type="ready"]')).to_be_visible(timeout=10_000)
                desk.page.screenshot(path=str(DOCS_IMG / "table-witchhammer-late-desktop.png"), full_page=True)
                desk.page.context.close()
            version = table.version
            hand = page.locator("[data-hand] [data-act]")
            (hand.first if hand.count() else page.locator('#actions [data-type="ready"]')).click()
            wait_for(lambda: table.version > version, 10, "the seat's click to be taken")  # noqa: B023
            clicks += 1
        assert checked.get("planning", 0) >= 3, f"too few planning moves checked from round {LATE}: {checked}"
        # The story shows its newest moves on a phone; the rest is one click away.
        story = page.locator("#log ol.log > li")
        shown = page.locator("#log ol.log > li:visible")
        assert 0 < shown.count() < story.count()
        page.click("[data-whole-story]")
        expect(shown).to_have_count(story.count())
        assert not phone.errors, phone.errors
