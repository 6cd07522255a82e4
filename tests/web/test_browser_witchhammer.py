"""The web table in a real browser, WitchHammer: a GM and two players, each in their own browser
context, play a whole vignette sequence of the yard duel by clicking, from the lobby to the end panel.

Face-down cards (WH-02, WH-03) are sealed: before its reveal, a card placed by one seat is on no other page, the
GM's included: not in its DOM (there it is a card back showing its seal) and not in any WebSocket frame it received.
At the end every page re-derives every die in the browser and says "verified"; when the test alters one die of the
log on its way to a page, that page names the die that differs. A card's text the phone's player opens stays open
while another seat's click redraws the cards panel.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from affray.table import Table
from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, create_from_lobby, due, live_server, open_seat, synced

MAX_CLICKS = 200


def seal_of(owner: str, payload: dict[str, Any]) -> str:
    """The seal a face-down card is committed under (WH-02 Psych card: slot 0; WH-03 slots 1 and 2)."""
    if "seal" in payload:
        return str(payload["seal"])
    slot = payload["slot"]
    return f"v{payload['vignette']}.{owner}.{'psych' if slot == 0 else f'slot{slot}'}"


def hidden_cards(table: Table, seat: str) -> list[tuple[str, dict[str, Any]]]:
    """The face-down cards ``seat`` may not open now (the ruleset's ``secrets`` hook)."""
    with table.lock:
        match = table.match
        viewer = match.viewer(seat)
        cards: list[tuple[str, dict[str, Any]]] = []
        for owner, payload in match.ruleset.secrets(match.state):
            if not viewer.may_open(owner):
                assert isinstance(payload, dict), payload  # a WitchHammer secret is a face-down card
                cards.append((owner, payload))
        return cards


def walk(value: Any) -> Any:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def assert_sealed(name: str, seat: Seat, table: Table) -> int:
    """No trace of another seat's face-down card on ``seat``'s page: the DOM shows the card back with its seal, and
    no frame opens the seal (a face-down entry with its card, a reveal, a log entry naming the cards)."""
    hidden = hidden_cards(table, name)
    frames = [json.loads(f) for f in seat.frames]
    for owner, payload in hidden:
        seal = seal_of(owner, payload)
        expect(seat.page.locator(f'[data-seal="{seal}"]')).to_have_count(1)
        assert seat.page.locator(f'[data-seal="{seal}"] [data-card]').count() == 0
        for frame in frames:
            for node in walk(frame):
                if isinstance(node, dict) and node.get("seal") == seal:
                    assert node.get("card") is None and node.get("type") != "revealed", f"{name} saw {seal}: {node}"
            for entry in frame.get("log", []):
                sealed = any(e.get("seal") == seal for e in entry["events"])
                assert not sealed or ("cards" not in entry["action"] and "card" not in entry["action"]), (
                    f"{name} saw {owner}'s face-down choice in the log: {entry['action']}"
                )
    return len(hidden)


PHONE = {"width": 390, "height": 844}
MAX_BUTTONS = 20


def check_planning(seats: dict[str, Seat]) -> int:
    """Rule: WH-03 (two Action cards, in order). In Planning a player places one card at a time: each card of the hand
    has one button, with "ready" beside them, never a button for every ordered pair of cards: at most about 20
    buttons show on a page; and the phone's page is no taller than three of its screens."""
    for name in ("bruna", "tomas"):
        page = seats[name].page
        shown = page.locator("#main button:visible").count()
        assert shown <= MAX_BUTTONS, f"{name}'s page shows {shown} buttons in Planning"
        assert page.locator('#actions [data-type="commit"]').count() == 0
    height = seats["tomas"].page.evaluate("document.documentElement.scrollHeight")
    assert height <= 3 * PHONE["height"], f"the phone's page is {height} px tall in Planning"
    return 1


def choose(seat: Seat) -> None:
    """A player's click: a card from the hand while there are any to place, else the first action (ready)."""
    hand = seat.page.locator("[data-hand] [data-act]")
    button = hand.first if hand.count() else seat.page.locator("#actions [data-act]").first
    button.click()


def altered(route: Any) -> None:
    """The full log with the first die of the first roll changed, as a forger would send it."""
    response = route.fetch()
    data = response.json()
    for record in data["records"]:
        rolls = [e for e in record["events"] if e["type"] == "rolled" and e["roll"]["dice"]]
        if rolls:
            die = rolls[0]["roll"]["dice"][0]
            die["value"] = die["value"] % die["sides"] + 1
            break
    route.fulfill(
        response=response, body=json.dumps(data), headers={**response.headers, "content-type": "application/json"}
    )


@dataclass
class Reading:
    """A player opens the first thing of the moves panel that opens (a card's text, the other cards in the hand) and
    marks the element; after another seat's click has redrawn the panel, it is a new element, and open."""

    page: Any
    key: str
    version: int
    done: bool = False

    @classmethod
    def start(cls, page: Any, version: int) -> Reading | None:
        summary = page.locator("#actions details[data-open] > summary").first
        if not summary.count():
            return None
        key: str = summary.evaluate("s => s.parentElement.dataset.open")
        summary.click()
        expect(page.locator(f'details[data-open="{key}"]')).to_have_attribute("open", "")
        page.evaluate("k => { document.querySelector(`details[data-open='${k}']`).kept = true; }", key)
        return cls(page, key, version)

    def check(self) -> None:
        box = self.page.locator(f'details[data-open="{self.key}"]')
        if box.count() and box.evaluate("b => b.kept") is None:  # redrawn (a panel that did not change is kept)
            expect(box).to_have_attribute("open", "")
            self.done = True


def test_gm_and_two_players_play_a_witchhammer_vignette_sequence_by_clicking(tmp_path: Path) -> None:
    """Rules: WH-02, WH-03 (face-down cards, sealed until the reveal), X-1 (verifiable dice)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(
            gm.page, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"}, seed=5
        )
        links = {s: gm.page.locator(f'[data-link="{s}"]').input_value() for s in ("bruna", "tomas")}
        seats = {
            "gm": gm,
            **{s: open_seat(browser, link, width=390 if s == "tomas" else 1200) for s, link in links.items()},
        }
        seats["tomas"].page.set_viewport_size(PHONE)
        table = server.service.table(table_id)
        expect(gm.page.locator("#commitment")).to_have_text(table.match.commitment)
        sealed_checks = clicks = planning_checks = 0
        reading: Reading | None = None
        while not table.over:
            assert clicks < MAX_CLICKS, "the fight did not end"
            synced(seats, table.version)
            sealed_checks += sum(assert_sealed(name, seat, table) for name, seat in seats.items())
            if reading is not None and not reading.done and table.version > reading.version:
                reading.check()
            if clicks == 3:
                seats["tomas"].page.screenshot(path=str(DOCS_IMG / "table-witchhammer.png"), full_page=True)
            mover = next(name for name, seat in seats.items() if due(seat.page))
            planning = table.match.pending()
            if planning is not None and planning.phase == "planning":
                planning_checks += check_planning(seats)
            version = table.version
            if reading is None and mover == "bruna":  # tomas reads a card while bruna's click redraws his panel
                reading = Reading.start(seats["tomas"].page, version)
            choose(seats[mover])
            wait_for(lambda: table.version > version, 10, f"{mover}'s click to be taken")  # noqa: B023
            clicks += 1
        synced(seats, table.version)
        assert reading is not None and reading.done, "no card's text was read across a redraw"
        assert sealed_checks > 0, "no face-down card was ever checked"
        assert planning_checks > 0, "no page was ever looked at in Planning"
        for seat in seats.values():
            expect(seat.page.locator("#verdict")).to_have_text(re.compile(r"^verified: \d+ dice"), timeout=20_000)
            assert seat.page.locator("#revealed-seed").inner_text() == table.seed_hex
            assert not seat.errors, seat.errors
        forged = seats["bruna"].page
        forged.route(re.compile(r".*/api/tables/[^/]+/log$"), altered)
        forged.click("[data-verify]")
        differs = r"^not verified: draw \d+ \(a d\d+, .*\) is recorded as \d+ but the seed gives \d+"
        expect(forged.locator("#verdict")).to_have_text(re.compile(differs), timeout=20_000)
