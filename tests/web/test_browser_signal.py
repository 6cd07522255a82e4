"""A turn no one misses (static/signal.js): the tab's title becomes "● Your move — TABLE" when the seat's move comes
and only then, the signal (vibration, sound, notification) fires once per move that comes, never on the other
messages (two moves of one seat in a row: it came once), and the status line says exactly one thing: "Your move"
or "Waiting for X", never both. Two people's
browsers play a duel of alternating moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2 as httpx
from playwright.sync_api import expect

from tests.waiting import wait_for
from tests.web.browser import chromium, live_server

# Every title the tab had, in order (a MutationObserver on <head>, installed before the page's scripts run).
TITLES = """
window.__titles = [];
new MutationObserver(() => { if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title); })
  .observe(document, { subtree: true, childList: true, characterData: true });
"""
MOVES = 6
DUE = "Object.values(window.affray.msg.legal || {}).some((specs) => specs.length > 0)"


def test_the_title_says_your_move_on_the_seat_s_move_and_only_then(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        answer = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "hud/simplified_duel", "controllers": {"ilka": "human", "drowner": "human"}},
        )
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        table = server.service.table(created["table"])
        seats, errors = {}, list[str]()
        for actor in ("ilka", "drowner"):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_init_script(TITLES)
            seats[actor] = context.new_page()
            seats[actor].on("pageerror", lambda exc: errors.append(str(exc)))
            seats[actor].goto(server.url + created["seats"][actor]["link"])
        title = created["title"]
        came = dict.fromkeys(seats, 0)  # how many times each seat's move came (two moves in a row: it came once)
        moved, last = 0, None
        while moved < MOVES and not table.over:
            version = table.version
            for seat in seats.values():
                wait_for(lambda: seat.evaluate("window.affray.msg?.version") == version, 10, "the page to catch up")  # noqa: B023
            due = {actor for actor, seat in seats.items() if seat.evaluate(DUE)}
            assert len(due) == 1, due  # a duel of alternating moves
            mover = due.pop()
            other = next(a for a in seats if a != mover)
            came[mover] += mover != last
            last = mover
            expect(seats[mover]).to_have_title(f"● Your move — {title}")
            expect(seats[other]).to_have_title(title)
            expect(seats[mover].locator(".turn-state")).to_have_text("Your move")
            name = seats[other].evaluate(f"window.affray.view.combatants.find((c) => c.id === '{mover}').name")
            expect(seats[other].locator(".turn-state")).to_have_text(f"Waiting for {name}")
            for seat in seats.values():
                status = seat.locator("#status").inner_text()
                assert ("Your move" in status) != ("Waiting for" in status), status
            seats[mover].locator("[data-act]").first.click()
            wait_for(lambda: table.version > version, 10, "the move to be taken")  # noqa: B023
            moved += 1
        assert moved == MOVES, "the duel ended before the test's moves"
        for actor, seat in seats.items():
            count = seat.evaluate("import('/static/signal.js').then((m) => m.signals.count)")
            assert count == came[actor], (actor, count, came)
            titles = [t for t in seat.evaluate("window.__titles") if t != "affray table"]
            assert titles.count(f"● Your move — {title}") == came[actor], titles
        assert not errors, errors
