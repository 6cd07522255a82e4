"""A whole turn by keyboard: from the status line, each move in at most a dozen key presses, the focus kept in place.

A player who uses no mouse opens their link, puts the focus on the status line ("Your move") and plays the seat's
moves by keyboard alone: Tab into the choices, the arrow keys along a list of choices (a step's: the action, then
its target, then the second action...), Enter to choose, Escape for Back. What they choose is what the ruleset's
heuristic policy would (the test's person knows what they want). Each move takes at most a dozen key presses, and
after each move the focus is not lost to the page's top: it is on the next move's first choice, or on the status
line while the seat waits, so the next move starts where the last one ended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from affray.core.rng import FastRNG
from tests.waiting import wait_for
from tests.web.browser import chromium, create_from_lobby, live_server, open_seat
from tests.web.test_browser_group import wanted
from tests.web.test_browser_phone_all import PATH_TO, legal_index

MOST_KEYS = 12
MOVES = 6  # the seat's moves played by keyboard (the HuD duel's declarations, defences and ripostes among them)

# Where the focus is: the status line, a choice of a list (its index, the list's length, its step or action key),
# or elsewhere.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {where: "nowhere"};
  if (el.id === "status") return {where: "status"};
  const list = el.closest("[data-choices]");
  if (!list || el.tagName !== "BUTTON") return {where: el.id || el.tagName, html: el.outerHTML.slice(0, 80)};
  const buttons = [...list.querySelectorAll("button")];
  return {where: "choice", index: buttons.indexOf(el), size: buttons.length,
          keys: buttons.map((b) => b.dataset.step || b.dataset.act || "")};
}"""


def keyboard_move(page: Any, actor: str, action: dict[str, Any], version_moved: Any) -> int:
    """Take ``action`` by keyboard from wherever the focus is; the key presses it took."""
    route = page.evaluate(PATH_TO, [actor, action])
    assert route is not None, "no steps for the seat"
    path: list[str] = route["path"]
    leaf = f"{actor}:{legal_index(page, actor, route['action'])}"
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        page.keyboard.press(key)
        presses += 1

    while not version_moved():
        assert presses <= 3 * MOST_KEYS, f"lost on the way to {action}"
        focus = page.evaluate(FOCUS)
        if focus["where"] != "choice":
            press("Tab")
            continue
        depth = len(page.evaluate("a => window.affray.path[a] || []", actor))
        if path[:depth] != page.evaluate("a => window.affray.path[a] || []", actor):
            press("Escape")  # a step that does not lead there: Back
            continue
        want = leaf if depth == len(path) - 1 else f"{actor}|{'.'.join(path[: depth + 1])}"
        assert want in focus["keys"], f"{want} is not among the choices {focus['keys']}"
        offset = (focus["keys"].index(want) - focus["index"]) % focus["size"]
        if offset <= focus["size"] - offset:
            for _ in range(offset):
                press("ArrowDown")
        else:
            for _ in range(focus["size"] - offset):
                press("ArrowUp")
        press("Enter")
        if want == leaf:
            wait_for(version_moved, 10, "the move chosen by keyboard")
    return presses


@pytest.mark.parametrize(
    ("example", "seat", "others", "seed", "size"),
    [
        ("hud/nerdified_night_widow", "ilka", ("vesna", "widow"), 2, {"width": 1280, "height": 800}),
        ("warp/melee_brawl", "theo", ("dana", "thug1", "thug2", "thug3"), 4, {"width": 390, "height": 844}),
    ],
    ids=["hud-desktop", "warp-phone"],
)
def test_a_whole_turn_by_keyboard_from_the_status_line(
    example: str, seat: str, others: tuple[str, ...], seed: int, size: dict[str, int], tmp_path: Path
) -> None:
    """Each of the seat's moves in at most a dozen key presses from where the last one left the focus; the first
    from the status line."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        ai = {actor: "policy:heuristic" for actor in others}
        table_id = create_from_lobby(gm.page, example, {seat: "player:A", **ai}, seed=seed)
        link = gm.page.locator(f'[data-link="{seat}"]').input_value()
        gm.page.context.close()
        player = open_seat(browser, link, width=size["width"])
        page = player.page
        page.set_viewport_size(size)
        table = server.service.table(table_id)
        rng = FastRNG(seed)
        presses: list[int] = []
        page.wait_for_selector("#status")
        page.focus("#status")
        while len(presses) < MOVES and not table.over:
            with table.lock:
                window = table.match.pending()
            if window is None or seat not in window.actors:
                version = table.version
                wait_for(lambda: table.version > version or table.over, 15, "the AI to move")  # noqa: B023
                continue
            page.wait_for_function(
                "([v, a]) => { const m = window.affray.msg; return m && m.version >= v && m.legal[a]; }",
                arg=[table.version, seat],
                timeout=15_000,
                polling=20,
            )
            focus = page.evaluate(FOCUS)
            assert focus["where"] in ("status", "choice"), f"move {len(presses) + 1}: the focus is on {focus}"
            version = table.version
            action = wanted(table, seat, rng)
            presses.append(keyboard_move(page, seat, action, lambda: table.version > version))  # noqa: B023
            # the move's answer drawn: the focus where the choices are, or on the status line
            page.wait_for_function("v => window.affray.msg.version > v", arg=version, timeout=10_000, polling=20)
            focus = page.evaluate(FOCUS)
            assert focus["where"] in ("status", "choice"), f"after move {len(presses)}: the focus is on {focus}"
        assert len(presses) == MOVES, f"only {len(presses)} moves played"
        assert max(presses) <= MOST_KEYS, f"key presses per move: {presses}"
        print(example, presses)
        assert not player.errors, player.errors


def test_sc15_a_move_on_the_map_by_keyboard_and_escape_for_back(tmp_path: Path) -> None:
    """Rule: SC-15 (a move action). The map's moves are one Tab stop: the arrow keys go from legal square to legal
    square (the nearest one that way), Enter chooses the square and puts the focus on the moves there, Enter takes
    one. A step opened with Enter closes with Escape (Back), the focus on the first choice again."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        ai = {"vell": "policy:heuristic"}
        table_id = create_from_lobby(gm.page, "spellchrome/ford_duel", {"tamsin": "player:A", **ai}, seed=3)
        link = gm.page.locator('[data-link="tamsin"]').input_value()
        gm.page.context.close()
        player = open_seat(browser, link, width=1280)
        page = player.page
        table = server.service.table(table_id)
        page.wait_for_function("() => window.affray.msg && window.affray.msg.legal.tamsin", timeout=15_000, polling=20)
        assert page.locator("[data-square][tabindex='0']").count() == 1, "the map's moves are one Tab stop"
        # a step opened, and closed again with Escape
        page.focus("#status")
        page.keyboard.press("Tab")
        move = page.locator("#actions [data-step]", has_text="Move")
        for _ in range(12):
            if page.evaluate("() => document.activeElement.textContent.startsWith('Move')"):
                break
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        assert page.evaluate("() => (window.affray.path.tamsin || []).length") == 1
        expect(move).to_have_count(0)
        page.keyboard.press("Escape")
        assert page.evaluate("() => (window.affray.path.tamsin || []).length") == 0
        assert page.evaluate(FOCUS)["where"] == "choice", "after Back, the focus is on the first choice"
        # the map: Tab to its one square, then the arrow keys
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.dataset.square !== undefined"):
                break
        start = page.evaluate("() => document.activeElement.dataset.square")
        legal = set(page.evaluate("() => [...document.querySelectorAll('[data-square]')].map((e) => e.dataset.square)"))
        x, y = (int(n) for n in start.split(","))
        key, expected = next(
            (k, sq)
            for k, sq in (("ArrowRight", f"{x + 1},{y}"), ("ArrowLeft", f"{x - 1},{y}"), ("ArrowDown", f"{x},{y + 1}"))
            if sq in legal
        )
        page.keyboard.press(key)
        assert page.evaluate("() => document.activeElement.dataset.square") == expected
        assert page.locator("[data-square][tabindex='0']").count() == 1
        assert page.locator(f'[data-square="{expected}"]').get_attribute("tabindex") == "0"
        page.keyboard.press("Enter")
        expect(page.locator("#actions .preview")).to_contain_text(f"To square ({expected.replace(',', ', ')})")
        assert page.evaluate("() => document.activeElement.dataset.act") is not None, "the moves there have the focus"
        version = table.version
        page.keyboard.press("Enter")
        wait_for(lambda: table.version > version, 10, "the move chosen by keyboard")
        with table.lock:
            record = table.match.records[-1]
        assert record.action["to"] == [int(n) for n in expected.split(",")]
        assert not player.errors, player.errors
