"""The web table in a real browser, Spellchrome: the GM uploads a scenario file in the lobby, and
a GM and two players, each in their own browser context, fight it out on the SVG board by clicking: moves on the
board, a move whose path preview warns of an attack of opportunity (SC-26, SC-27) and the GM taking that attack,
targets clicked on the board. Mid-fight a player closes the tab and reopens the link (same state), and the GM takes
an action back from the GM page (every page follows). The end panel says "verified".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, due, live_server, open_seat, synced

SCENARIO = Path(__file__).parent / "data" / "ford_two_players.yaml"
MAX_CLICKS = 300
REOPEN_AT, TAKE_BACK_AT = 6, 10


def upload_from_lobby(page: Any, path: Path, seed: int) -> str:
    page.wait_for_selector("#example option[value]", state="attached")
    page.set_input_files("#upload", str(path))
    expect(page.locator("#upload-name")).to_contain_text("spellchrome")
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("[data-link]")
    return str(page.url.split("/t/")[1].split("#")[0])


def approach_square(page: Any) -> str | None:
    """The legal square (data-square) nearest a standing foe, if it is nearer than where the actor stands."""
    key: str | None = page.evaluate("""() => {
      const a = window.affray, v = a.envelope(a.msg.view);
      const me = v.combatants.find((c) => c.id === Object.keys(a.msg.legal)[0]);
      const foes = v.combatants.filter((c) => c.side !== me.side && !c.down && c.position);
      const d = (x, y) => Math.min(...foes.map((f) =>
        Math.max(Math.abs(f.position.x - x), Math.abs(f.position.y - y))));
      let best = null, bestD = d(me.position.x, me.position.y);
      for (const el of document.querySelectorAll("[data-square]")) {
        const [x, y] = el.dataset.square.split(",").map(Number);
        if (d(x, y) < bestD) { best = el.dataset.square; bestD = d(x, y); }
      }
      return best;
    }""")
    return key


def choose(seat: Seat) -> str:
    """One click of a fighter who wants the fight over: take an attack of opportunity, attack a foe clicked on the
    board, walk towards the nearest foe (clicking the square), or end the turn."""
    page = seat.page
    actions = page.locator("#actions")
    if actions.locator('[data-type="attack_of_opportunity"]').count():
        actions.locator('[data-type="attack_of_opportunity"]').first.click()
        return "attack_of_opportunity"
    foe = page.evaluate("""() => { const legal = Object.values(window.affray.msg.legal).flat();
      return legal.find((s) => s.action.type === "attack" && s.action.target)?.action.target ?? null; }""")
    if foe is not None:
        page.locator(f'[data-target="{foe}"]').click()
        actions.locator('[data-type="attack"]').first.click()
        return "attack"
    square = approach_square(page) if page.locator("[data-square]").count() else None
    if square is not None:
        page.locator(f'[data-square="{square}"]').click()
        safe = actions.locator('[data-type="step"], [data-type="withdraw"], [data-type="move"]')
        safe.first.click()
        return "move"
    end = actions.locator('[data-type="end_turn"]')
    (end if end.count() else actions.locator("[data-act]")).first.click()
    return "end_turn"


def provoking_move(tamsin: Seat, gm: Seat) -> None:
    """Tamsin walks away from the cutthroat: the path preview warns of the attack of opportunity (SC-26); the GM
    sees the prompt and takes it (SC-27)."""
    page = tamsin.page
    page.locator(".sq.target.provokes").first.click()
    expect(page.locator("#actions .preview")).to_contain_text("provokes an attack of opportunity")
    expect(page.locator("svg .path.provokes")).to_have_count(1)
    page.screenshot(path=str(DOCS_IMG / "table-spellchrome.png"), full_page=True)
    move = page.locator('#actions [data-type="move"]').first
    expect(move).to_contain_text("provokes an attack of opportunity from Bandit Cutthroat")
    move.click()
    taken = gm.page.locator('#actions [data-type="attack_of_opportunity"]')
    expect(taken).to_have_count(1, timeout=10_000)
    taken.click()
    expect(gm.page.locator("#log")).to_contain_text("attack of opportunity", timeout=10_000)


def test_gm_and_two_players_fight_on_the_spellchrome_board_by_clicking(tmp_path: Path) -> None:
    """Rules: SC-15 (move and standard actions), SC-21 (5-foot step), SC-26, SC-27 (attacks of opportunity)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = upload_from_lobby(gm.page, SCENARIO, seed=3)
        links = {s: gm.page.locator(f'[data-link="{s}"]').input_value() for s in ("tamsin", "oriel")}
        seats = {"gm": gm, **{s: open_seat(browser, link) for s, link in links.items()}}
        table = server.service.table(table_id)
        seen: dict[int, dict[str, str]] = {}
        done: set[str] = set()
        for clicks in range(MAX_CLICKS):
            synced(seats, table.version)
            seen[table.version] = {n: s.page.locator("#combatants").inner_text() for n, s in seats.items()}
            if table.over:
                break
            if clicks >= REOPEN_AT and "reopen" not in done:
                reopen(seats, "oriel", links["oriel"], table.version)
                done.add("reopen")
            if clicks >= TAKE_BACK_AT and "aoo" in done and "take back" not in done:
                take_back(seats, table.version, seen)
                done.add("take back")
                continue
            mover = next(name for name, seat in seats.items() if due(seat.page))
            version = table.version
            if mover == "tamsin" and "aoo" not in done and seats["tamsin"].page.locator(".sq.provokes").count():
                provoking_move(seats["tamsin"], gm)
                done.add("aoo")
            else:
                choose(seats[mover])
            wait_for(lambda: table.version > version, 10, f"{mover}'s click to be taken")  # noqa: B023
        assert table.over, "the fight did not end"
        assert done == {"aoo", "reopen", "take back"}
        for seat in seats.values():
            expect(seat.page.locator("#verdict")).to_have_text(re.compile(r"^verified: \d+ dice"), timeout=20_000)
            assert not seat.errors, seat.errors


def reopen(seats: dict[str, Seat], name: str, link: str, version: int) -> None:
    """A player closes the tab and opens the link again: the same state (combatants, log, version)."""
    old = seats[name].page
    before = (old.locator("#combatants").inner_text(), old.locator("#log").inner_text())
    context = old.context
    old.close()
    fresh = Seat(context.new_page())
    fresh.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: fresh.frames.append(str(p))))
    fresh.page.on("pageerror", lambda exc: fresh.errors.append(str(exc)))
    fresh.page.goto(link)
    seats[name] = fresh
    synced({name: fresh}, version)
    assert (fresh.page.locator("#combatants").inner_text(), fresh.page.locator("#log").inner_text()) == before


def take_back(seats: dict[str, Seat], version: int, seen: dict[int, dict[str, str]]) -> None:
    """The GM takes the last action back (after the confirmation); every page shows the state before it."""
    gm = seats["gm"].page
    to = version - 1
    gm.select_option("#gm-to", str(to))
    gm.click('[data-gm="rewind"]')
    expect(gm.locator("#gm-confirm")).to_contain_text(f"back to before move {to + 1}")
    gm.fill("#gm-reason", "try that again")
    gm.click('[data-gm="confirm"]')
    synced(seats, version + 1)
    for name, seat in seats.items():
        assert seat.page.locator("#combatants").inner_text() == seen[to][name]
        expect(seat.page.locator("#log")).to_contain_text(
            f"The GM takes the fight back to how it stood before move {to + 1}."
        )
