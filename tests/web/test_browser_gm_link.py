"""The GM page opened from the link `affray table new` prints: its fragment carries every seat's token after the
GM's own, the page lists those links (with their copy and QR buttons), and the address bar is left with the GM's
token only. No token is ever in a request's path or query."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2 as httpx
from playwright.sync_api import expect

from affray.cli.table import gm_link
from tests.web.browser import chromium, live_server


def test_the_printed_gm_link_shows_every_seats_link_once_on_the_gm_page(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        answer = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "witchhammer/mill_ambush", "controllers": {"ilse": "human", "tomas": "human"}},
        )
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        requests: list[str] = []
        context = browser.new_context()
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        page.goto(server.url + gm_link(created))
        for seat in ("ilse", "tomas", "spectator"):
            link = page.locator(f'[data-link="{seat}"]')
            expect(link).to_have_value(f"{server.url}{created['seats'][seat]['link']}")
            expect(page.locator(f'[data-seat-row="{seat}"] [data-gm="qr"]')).to_have_count(1)
        assert page.evaluate("location.hash") == f"#{created['gm']['token']}"
        tokens = [created["gm"]["token"], *(s["token"] for s in created["seats"].values())]
        assert not [url for url in requests for token in tokens if token in url.split("#")[0]]
