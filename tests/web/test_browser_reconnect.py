"""A seat's page comes back by itself (docs/table.md, "The web table"): a refusal that time mends (the table's database
not answering, too many requests) makes the page wait and try again, saying what it waits for and for how long; only a
token the server says is wrong stops it.

Two processes of the table server share a PostgreSQL of the test's own, behind a relay (the network and balancer
between browser and servers). The seat's page is served by the first; the test stops PostgreSQL, points the relay at
the second and cuts the page's connection (a deploy, a balancer, a network blip: the page's next socket reaches a
process that does not hold the table and must ask the database for the seat), and that socket is refused
``store_unavailable``. The page says the database is not answering and when it tries again, keeping the table it
shows; once PostgreSQL is back it is served again without a reload, and the seat's next move is taken.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.pg import postgres_server, start_again, stop
from tests.waiting import wait_for
from tests.web.browser import Relay, chromium, create_from_lobby, live_server, open_seat

WAITING = re.compile(r"^The table's database is not answering; trying again in \d+ s$")
BACK = 15_000  # ms: the page's waits double from 1 s; the database is back within the third


def test_a_seats_page_waits_out_a_database_outage_and_plays_on(tmp_path: Path) -> None:
    """The page's socket, refused ``store_unavailable`` while PostgreSQL is down, retries until it is served."""
    with postgres_server() as pg:
        url = pg.create_database()
        with live_server(url) as first, live_server(url) as second, chromium() as browser:
            relay = Relay(first.url)
            try:
                gm = open_seat(browser, first.url + "/")
                table_id = create_from_lobby(
                    gm.page, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "policy:steady"}, seed=5
                )
                link = gm.page.locator('[data-link="bruna"]').input_value().replace(first.url, relay.url)
                gm.page.context.close()
                seat = open_seat(browser, link)
                page = seat.page
                conn = page.locator("#conn")
                expect(conn).to_have_text("connected", timeout=10_000)
                hand = page.locator("[data-hand] [data-act]")
                expect(hand.first).to_be_visible(timeout=10_000)

                stop(pg)
                relay.to(second.url)
                relay.cut()
                expect(conn).to_have_text(WAITING, timeout=10_000)
                assert "bad" in (conn.get_attribute("class") or "")
                expect(hand.first).to_be_visible()  # the page keeps the table it had while it waits

                start_again(pg)
                expect(conn).to_have_text("connected", timeout=BACK)
                table = second.service.table(table_id)
                version = table.version
                hand.first.click()
                wait_for(lambda: table.version > version, 10, "the seat's move to be taken after the outage")
                expect(page.locator("#error")).to_be_hidden()
                assert not seat.errors, seat.errors
            finally:
                relay.close()


def test_a_wrong_token_stops_the_page(tmp_path: Path) -> None:
    """The one refusal no wait mends: the page says so, and in the two minutes after (on the page's clock, run
    forward) opens no other socket."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(
            gm.page, "witchhammer/yard_duel", {"bruna": "player:A", "tomas": "policy:steady"}, seed=5
        )
        page = browser.new_context().new_page()
        page.clock.install()
        sockets: list[Any] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(f"{server.url}/t/{table_id}#{'x' * 43}")
        expect(page.locator("#conn")).to_have_text("This token does not open a seat at this table.", timeout=10_000)
        page.clock.run_for(120_000)
        assert len(sockets) == 1
