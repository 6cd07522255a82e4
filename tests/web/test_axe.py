"""axe-core on every page of the table (issue: the table in the room, "For everyone"): the lobby, a player's page and
the GM's page of every ruleset, at a desktop's size and a phone's (390x844), in the light theme and the dark one
(the device's preference): no violation of impact moderate or higher (contrast, names, roles, headings...)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

from affray.cli.table import gm_link
from tests.web.axe import violations
from tests.web.browser import chromium, live_server

SIZES = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
THEMES = ("light", "dark")
#: One example of each ruleset, and its combatants people play (the others are the server's).
EXAMPLES = {
    "witchhammer": ("witchhammer/mill_ambush", ("ilse", "tomas")),
    "spellchrome": ("spellchrome/ford_duel", None),
    "warp": ("warp/knight_duel", None),
    "hud": ("hud/nerdified_duel", None),
}


def _report(found: dict[str, list[dict[str, Any]]]) -> str:
    return json.dumps({where: v for where, v in found.items() if v}, indent=1)


def _check(browser: Any, url: str, ready: str, where: str, found: dict[str, list[dict[str, Any]]]) -> None:
    for theme in THEMES:
        for size, viewport in SIZES.items():
            context = browser.new_context(viewport=viewport, color_scheme=theme)
            page = context.new_page()
            page.goto(url)
            expect(page.locator(ready).first).to_be_attached(timeout=15_000)
            assert page.evaluate("document.documentElement.dataset.theme") == theme
            found[f"{where}, {size}, {theme}"] = violations(page)
            context.close()


def test_the_lobby_has_no_moderate_or_worse_violation(tmp_path: Path) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        _check(browser, f"{server.url}/", "#example option[value]:not([value=''])", "lobby", found)
    assert not any(found.values()), _report(found)


@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_the_player_and_gm_pages_have_no_moderate_or_worse_violation(ruleset: str, tmp_path: Path) -> None:
    scenario, humans = EXAMPLES[ruleset]
    found: dict[str, list[dict[str, Any]]] = {}
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        examples = httpx.get(f"{server.url}/api/examples", timeout=10).json()
        listed = next(e for e in examples if e["name"] == scenario)
        people = humans or tuple(c["id"] for c in listed["combatants"])
        answer = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": scenario, "controllers": dict.fromkeys(people, "human")},
        )
        assert answer.status_code == 201, answer.text
        created = answer.json()
        player = created["seats"][people[0]]["link"]
        _check(browser, server.url + player, "#status h2", "player page", found)
        _check(browser, server.url + gm_link(created), "#links [data-link]", "GM page", found)
    assert not any(found.values()), _report(found)


def test_the_theme_switch_overrides_the_device_and_is_kept(tmp_path: Path) -> None:
    """The settings' theme (theme.js): the device's preference until one is chosen, then the choice, kept in this
    browser across pages, with the dark colours drawn from style.css's variables."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        page = browser.new_context(color_scheme="light").new_page()
        page.goto(f"{server.url}/")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        light = page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.locator(".prefs summary").click()
        page.select_option("#theme", "dark")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        page.reload()
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.locator("#theme").input_value() == "dark"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 23, 27)" != light
