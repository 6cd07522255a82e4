"""The player page on a phone, in every ruleset: the seat's choices start on the first screen on every one of its moves.

For each ruleset a player opens the link the GM's lobby gives them on a 390×844 phone and plays a whole fight by
tapping, the AI playing everyone else; what the player taps is what the ruleset's heuristic policy would choose,
found the way a person finds it: through the steps of the seat's choices where the server sends them (the action,
then its target, then its weapon...), a card of the hand, a square of the map. On every move of the seat, and after
every step it opens, its first choice lies wholly within the first screen as the page put itself (the test never
scrolls: a tap scrolls to what it taps, as a finger would, and the page puts itself back on its choices). On the
maps, every square and token is at least 32 px to touch, and the map carries its coordinates. The phone page late
in each fight is photographed (and the desktop page of the same seat at the same moment).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from affray.core.rng import FastRNG
from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, create_from_lobby, live_server, open_seat
from tests.web.test_browser_group import click_for, one_step, wanted

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
MAX_MOVES = 120
TOUCH = 32  # px: the least a square or a token measures on a phone


@dataclass(frozen=True)
class Fight:
    """An example, the combatant the phone's player plays (the AI plays the rest), a seed, and the move of the
    player's from which its page is photographed ("late in the fight")."""

    example: str
    phone: str
    others: tuple[str, ...]
    seed: int
    late: int


FIGHTS = {
    "witchhammer": Fight("witchhammer/mill_ambush", "tomas", ("ilse", "hob", "wat", "dick"), 3, 6),
    "spellchrome": Fight("spellchrome/crossroads_2v2", "kestrin", ("oriel", "cut1", "cut2"), 5, 10),
    "hud": Fight("hud/nerdified_night_widow", "ilka", ("vesna", "widow"), 2, 6),
    "warp": Fight("warp/melee_brawl", "theo", ("dana", "thug1", "thug2", "thug3"), 4, 6),
}

# The seat's first choice, as the page draws it: the first button of its moves (a step, a move, a card's), else the
# first square or foe of the map to choose, in the page's order; its box in the screen's coordinates.
FIRST_CHOICE = """() => {
  const sel = '#actions [data-choices] button, #actions [data-act], '
    + '#board [data-square][tabindex="0"], #board [data-target]';
  const el = [...document.querySelectorAll(sel)].find((e) => e.getClientRects().length);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, text: el.textContent.trim().slice(0, 60) || el.getAttribute('aria-label')};
}"""

# An action as JSON with its keys sorted (the page's own comparison of a step's leaf and a legal action).
CANON = """(v) => Array.isArray(v) ? `[${v.map(canon).join(",")}]` : v && typeof v === "object"
  ? `{${Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",")}}` : JSON.stringify(v)"""

# The path of step ids to the leaf whose action is `action` (or, failing that, the nearest of the same type) in the
# actor's tree; null where the seat message carries no tree for the actor.
PATH_TO = """([actor, action]) => {
  const tree = (window.affray.msg.steps || {})[actor];
  if (!tree) return null;
  const canon = CANON;
  const want = canon(action);
  const found = [];
  const walk = (step, path) => { for (const c of step.choices) {
    const p = [...path, c.id];
    if (c.action) found.push([p, c.action]); else walk(c.step, p);
  } };
  walk(tree, []);
  const hit = found.find(([, a]) => canon(a) === want) || found.find(([, a]) => a.type === action.type) || found[0];
  return hit ? {path: hit[0], action: hit[1]} : null;
}""".replace("CANON", CANON)


def legal_index(page: Any, actor: str, action: dict[str, Any]) -> int:
    """The index of ``action`` in the seat message's legal list of ``actor`` (-1 when it is not there)."""
    index: int = page.evaluate(
        "([actor, action]) => { const canon = CANON;"
        " return window.affray.msg.legal[actor].findIndex((s) => canon(s.action) === canon(action)); }".replace(
            "CANON", CANON
        ),
        [actor, action],
    )
    return index


def first_on_screen(page: Any, where: str) -> None:
    """The seat's first choice lies wholly within the first screen of the phone (as the page put itself)."""
    box = page.evaluate(FIRST_CHOICE)
    assert box is not None, f"{where}: no choice on the page"
    assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], (
        f"{where}: the first choice ({box['text']!r}) lies at {box['top']:.0f}..{box['bottom']:.0f} px"
    )


def touch_sizes(page: Any, where: str) -> None:
    """Where the seat's choices are on the map (squares, foes), its every square and token measures at least
    :data:`TOUCH` px both ways, and the map names its columns and rows beside it."""
    if not page.locator("#board [data-square], #board [data-target]").count():
        return
    sizes = page.evaluate("""() => [...document.querySelectorAll(
      'svg.board.grid rect.sq, svg.board.grid [data-token] circle')]
      .map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })""")
    if not sizes:
        return
    assert min(sizes) >= TOUCH, f"{where}: a square or token of {min(sizes):.1f} px"
    axes = page.locator("#board .ruler.cols span:visible").all_text_contents()
    assert axes[:3] == ["0", "1", "2"], f"{where}: the map's coordinates {axes[:3]}"
    # the rulers show the coordinates of the squares in sight: they follow the map's panning
    panned = page.evaluate("""() => { const w = document.querySelector('[data-board-wrap]'), f = w.parentElement;
      const cols = f.querySelector('.ruler.cols'), rows = f.querySelector('.ruler.rows');
      return [w.scrollLeft, w.scrollTop, cols.scrollLeft, rows.scrollTop]; }""")
    assert panned[:2] == panned[2:], f"{where}: the map is panned to {panned[:2]}, its rulers to {panned[2:]}"


def take(seat: Seat, actor: str, action: dict[str, Any], where: str) -> None:
    """Tap what a person taps for ``action``: its steps one after the other (each step's first choice on the first
    screen), then the leaf; where there are no steps (a hand of cards), the card's button or the square and move."""
    page = seat.page
    route = page.evaluate(PATH_TO, [actor, action]) if page.locator("#actions .step-prompt").count() else None
    if route is None:
        click_for(seat, actor, action)
        return
    path: list[str] = route["path"]
    for depth in range(1, len(path)):
        page.locator(f'#actions [data-step="{actor}|{".".join(path[:depth])}"]').click()
        first_on_screen(page, f"{where}, step {depth}")
    index = legal_index(page, actor, route["action"])
    assert index >= 0, f"{where}: the leaf {json.dumps(route['action'])} is not among the legal actions"
    page.locator(f'#actions [data-choices] [data-act="{actor}:{index}"]').click()


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_the_phones_first_choice_is_on_the_first_screen_on_every_move(ruleset: str, tmp_path: Path) -> None:
    fight = FIGHTS[ruleset]
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        others = {actor: "policy:heuristic" for actor in fight.others}
        table_id = create_from_lobby(gm.page, fight.example, {fight.phone: "player:A", **others}, seed=fight.seed)
        link = gm.page.locator(f'[data-link="{fight.phone}"]').input_value()
        gm.page.context.close()
        seat = open_seat(browser, link, width=PHONE["width"])
        page = seat.page
        page.set_viewport_size(PHONE)
        table = server.service.table(table_id)
        rng = FastRNG(fight.seed)
        moves, stepped = 0, 0
        while not table.over:
            with table.lock:
                window = table.match.pending()
            if window is None or fight.phone not in window.actors:
                version = table.version
                wait_for(lambda: table.version > version or table.over, 15, "the AI to move")  # noqa: B023
                continue
            assert moves < MAX_MOVES, f"the fight did not end in {MAX_MOVES} moves of the phone's seat"
            page.wait_for_function(
                "([v, a]) => { const m = window.affray.msg; return m && m.version >= v && m.legal[a]; }",
                arg=[table.version, fight.phone],
                timeout=15_000,
                polling=20,
            )
            where = f"{ruleset}, move {moves + 1} ({window.phase})"
            first_on_screen(page, where)
            touch_sizes(page, where)
            if moves == fight.late:
                page.screenshot(path=str(DOCS_IMG / f"phone-{ruleset}-late.png"), full_page=True)
                desk = open_seat(browser, link, width=DESKTOP["width"])
                desk.page.set_viewport_size(DESKTOP)
                desk.page.wait_for_selector("#actions [data-choices] button, #actions [data-act]", timeout=10_000)
                desk.page.screenshot(path=str(DOCS_IMG / f"desktop-{ruleset}-late.png"), full_page=True)
                desk.page.context.close()
            action = one_step(wanted(table, fight.phone, rng), window.phase)
            stepped += page.locator("#actions .step-prompt").count() > 0
            version = table.version
            take(seat, fight.phone, action, where)
            wait_for(lambda: table.version > version, 10, "the seat's tap to be taken")  # noqa: B023
            moves += 1
        assert moves > fight.late, f"{ruleset}: only {moves} moves of the phone's seat"
        if ruleset != "witchhammer":  # WitchHammer's planning keeps its hand of cards
            assert stepped == moves, f"{ruleset}: {moves - stepped} of {moves} moves without steps"
        assert not seat.errors, seat.errors
