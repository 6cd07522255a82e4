"""A ruleset registered in code at the web table: the toy of tests/core/toy.py, which no line of the server or the
page knows. Its record brings its example (the lobby lists ``toy/sealed_duel`` and opens it) and its views ask for
the generic ``facts`` panel, which the page draws from the rows the toy fills in; a player bids by clicking.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from affray.core.plugin import register, unregister
from tests.core.toy import PLUGIN
from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, live_server, open_seat, synced

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy registered in this process, where the test's table server runs, for the test only."""
    register(PLUGIN)
    try:
        yield
    finally:
        unregister("toy")


def fact(seat: Seat, label: str) -> str:
    """The value of the row ``label`` of the page's facts panel."""
    row = seat.page.locator("#detail .fact", has=seat.page.locator(f'dt:text-is("{label}")'))
    text: str = row.locator("dd").inner_text()
    return text


def test_a_ruleset_registered_in_code_opens_from_the_lobby_and_a_player_bids_by_clicking(
    toy: None, tmp_path: Path
) -> None:
    """Rule: the toy's sealed bids (tests/core/toy.py): each player bids 1..3 face down, both are revealed once
    both have bid. The page draws the toy's part with the facts panel its views declare."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        gm.page.wait_for_selector('#example option[value="toy/sealed_duel"]', state="attached")
        assert gm.page.locator('#example optgroup[label="Toy sealed bids"] option').all_inner_texts() == [
            "Toy sealed duel"
        ]
        gm.page.select_option("#example", "toy/sealed_duel")
        expect(gm.page.locator("#example-text")).to_have_text(
            "Alice and Bob each bid 1, 2 or 3 face down; the higher bid plus a die wins."
        )
        gm.page.select_option('[data-controller="a"]', "player:A")
        gm.page.select_option('[data-controller="b"]', "policy:random")
        gm.page.fill("#seed", "7")
        gm.page.click("#create")
        gm.page.wait_for_selector('[data-link="a"]')
        table = server.service.table(gm.page.url.split("/t/")[1].split("#")[0])
        assert table.match.ruleset.name == "toy"
        player = open_seat(browser, gm.page.locator('[data-link="a"]').input_value())
        synced({"a": player}, table.version)
        expect(player.page.locator("#detail h2")).to_have_text("Sealed bids")
        assert fact(player, "Alice") == "no bid yet"
        expect(player.page.locator('[data-card-of="a"] dl.facts')).to_have_text("Luck adds+0")
        player.page.screenshot(path=str(DOCS_IMG / "toy-desktop.png"), full_page=True)
        version = table.version
        player.page.get_by_role("button", name="bid 2").click()
        wait_for(lambda: table.version > version, 10, "Alice's bid to be taken")
        wait_for(lambda: table.over, 15, "Bob's bid (the random policy) and the reveal")
        synced({"a": player}, table.version)
        with table.lock:
            revealed = dict(table.match.state.revealed)
        assert revealed["a"] == 2
        expect(player.page.locator("#detail .fact", has_text="Bob").locator("dd")).to_have_text(f"bid {revealed['b']}")
        assert fact(player, "Alice") == "bid 2"
        expect(player.page.locator("#end")).to_contain_text("The fight is over")
        # The dice check reads as a sentence: "1 die", never "1 dice".
        expect(player.page.locator("#verdict")).to_have_text(
            re.compile(r"^verified: (1 die|(0|[2-9]|\d\d+) dice) re-derived from the seed$"), timeout=20_000
        )
        player.page.set_viewport_size(PHONE)
        player.page.screenshot(path=str(DOCS_IMG / "toy-phone.png"), full_page=True)
        assert not player.errors and not gm.errors, (player.errors, gm.errors)
