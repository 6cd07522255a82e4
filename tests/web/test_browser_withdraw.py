"""Taking back a WitchHammer card still face down, in a real browser, from the lobby (WH-03, option
planning_withdraw; docs/witchhammer.md, "Taking back a face-down card"): Bruna's player places two cards, Tomas's
places one, and Bruna's takes back her second card with the "Take back" button by her slots. Tomas's card stays
down, Bruna's card is back in her hand, and no frame Tomas's page received names it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from affray.rulesets.witchhammer.state import WitchHammerState
from affray.table import Table
from tests.waiting import wait_for
from tests.web.browser import chromium, create_from_lobby, live_server, open_seat, synced


def place(page: Any, card: str, table: Table) -> None:
    """Click the hand's button that puts ``card`` face down in the next slot; wait for the table to take it."""
    version = table.version
    page.locator(f'[data-hand] [data-card="{card}"] [data-act]').first.click()
    wait_for(lambda: table.version > version, 10, f"{card} to be placed")


def state_of(table: Table) -> WitchHammerState:
    with table.lock:
        state = table.match.state
        assert isinstance(state, WitchHammerState)
        return state


def test_wh03_a_player_takes_back_its_second_card_with_the_button(tmp_path: Path) -> None:
    """WH-03 (planning_withdraw): after Bruna placed Sword Swing and HayMaker and Tomas placed Sword Swing, Bruna's
    "Take back" (slot 2) withdraws HayMaker: her slots hold Sword Swing only, HayMaker is back in her hand (its hand
    button shows again), Tomas keeps his card in slot 1, and the table's last record is the withdraw. Tomas's page
    never received a frame with HayMaker or Bruna's slot 2 opened; the button then offers slot 1."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(
            gm.page, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "player:B"}, seed=5
        )
        links = {s: gm.page.locator(f'[data-link="{s}"]').input_value() for s in ("bruna", "tomas")}
        seats = {"gm": gm, **{s: open_seat(browser, link) for s, link in links.items()}}
        table = server.service.table(table_id)
        synced(seats, table.version)
        bruna, tomas = seats["bruna"].page, seats["tomas"].page
        expect(bruna.locator("[data-withdraw]")).to_have_count(0)  # nothing down yet
        place(bruna, "sword_swing", table)
        synced(seats, table.version)
        place(bruna, "haymaker", table)
        synced(seats, table.version)
        place(tomas, "sword_swing", table)
        synced(seats, table.version)
        expect(tomas.locator('[data-withdraw="tomas|1"]')).to_have_count(1)
        expect(bruna.locator('[data-hand] [data-card="haymaker"]')).to_have_count(0)
        version = table.version
        bruna.locator('[data-withdraw="bruna|2"]').click()
        wait_for(lambda: table.version > version, 10, "the take back to be taken")
        synced(seats, table.version)
        s = state_of(table)
        assert [x.payload["card"] for x in s.fighters["bruna"].slots] == ["sword_swing"]
        assert [x.payload["card"] for x in s.fighters["tomas"].slots] == ["sword_swing"]
        assert s.fighters["bruna"].hand == {"sword_swing": 0, "haymaker": 1}
        assert table.match.records[-1].action == {"type": "withdraw", "slot": 2}
        expect(bruna.locator('[data-hand] [data-card="haymaker"] [data-act]')).to_have_count(1)
        expect(bruna.locator('[data-withdraw="bruna|1"]')).to_have_count(1)
        expect(bruna.locator('[data-withdraw="bruna|2"]')).to_have_count(0)
        for frame in seats["tomas"].frames:
            assert "haymaker" not in frame.lower(), frame[:300]
            for entry in json.loads(frame).get("log", []):
                assert "card" not in entry["action"] or entry["actor"] == "tomas", entry
        for seat in seats.values():
            assert not seat.errors, seat.errors
