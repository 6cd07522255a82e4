"""A group at the web table, for each of the four rulesets: the GM opens the lobby in a browser, chooses the example
and who plays whom (two players, the GM or the AI for the rest), creates the table and sends the links; two players
open them, one on a phone, and the fight is played to its end only by clicking. No console error on any page; the
story holds no JSON and no ids, and its first entry is never drawn again (a push puts in only new and changed
entries); no page at the end shows JSON or an id anywhere; a sheet the phone's player opens stays open to the end,
and so does one the GM opens just as a push redraws it; every page verifies the dice at the end; the test reports
clicks per fight.

What a player clicks is what the ruleset's heuristic policy would choose for them, found on the page the way a person
finds it: a card of the hand, a square of the board then a move, a foe then an attack, or a button of the moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from affray.ai.base import get_policy
from affray.core.rng import FastRNG
from affray.table import Table
from tests.waiting import wait_for
from tests.web.browser import DOCS_IMG, Seat, chromium, live_server, open_seat, synced

PHONE = {"width": 390, "height": 844}
MAX_CLICKS = 600


@dataclass(frozen=True)
class Group:
    """An example played by a group: ``players`` (combatant -> player letter), what the GM's seat plays by clicking
    (``gm_plays``), and what the AI plays; ``phone``: the player at phone size."""

    example: str
    players: dict[str, str]
    gm_plays: tuple[str, ...]
    ai: tuple[str, ...]
    phone: str
    seed: int


GROUPS = {
    "witchhammer": Group("witchhammer/mill_ambush", {"ilse": "A", "tomas": "B"}, ("hob",), ("wat", "dick"), "tomas", 3),
    "spellchrome": Group(
        "spellchrome/crossroads_2v2", {"oriel": "A", "kestrin": "B"}, ("cut1",), ("cut2",), "kestrin", 5
    ),
    "hud": Group("hud/nerdified_night_widow", {"vesna": "A", "ilka": "B"}, ("widow",), (), "ilka", 2),
    "warp": Group("warp/melee_brawl", {"dana": "A", "theo": "B"}, ("thug1",), ("thug2", "thug3"), "theo", 4),
}


def console_errors(seat: Seat) -> None:
    seat.page.on("console", lambda m: seat.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)


def seat_from_lobby(gm: Seat, group: Group) -> str:
    """The GM chooses the example and who plays whom in the lobby, and creates the table; the table id."""
    page = gm.page
    page.wait_for_selector("#example option[value]", state="attached")
    page.select_option("#example", group.example)
    page.wait_for_selector("[data-controller]")
    for actor, letter in group.players.items():
        page.select_option(f'[data-controller="{actor}"]', f"player:{letter}")
    for actor in group.gm_plays:
        page.select_option(f'[data-controller="{actor}"]', "gm")
    for actor in group.ai:
        page.select_option(f'[data-controller="{actor}"]', "policy:heuristic")
    summary = page.locator("#cast-summary")
    for letter in sorted(set(group.players.values())):
        expect(summary).to_contain_text(f"Player {letter} plays")
    page.fill("#seed", str(group.seed))
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("[data-link]")
    return str(page.url.split("/t/")[1].split("#")[0])


def wanted(table: Table, actor: str, rng: FastRNG) -> dict[str, Any]:
    """What the heuristic policy would do for ``actor`` now (the choice the test's person makes)."""
    with table.lock:
        match = table.match
        policy = get_policy(match.ruleset.name, "heuristic")
        action: dict[str, Any] = policy.choose(match.observe(actor), match.choices(actor), rng)
        return action


def one_step(action: dict[str, Any], phase: str) -> dict[str, Any]:
    """A commit of several cards is placed one card at a time on the page (WH-03: slot 1, then slot 2, then ready):
    its first card is the next click."""
    if action.get("type") == "commit":
        cards = action.get("cards") or []
        if not cards:
            return {"type": "ready"}
        return {"type": "psych" if phase == "psych" else "place", "card": cards[0]}
    return action


def click_for(seat: Seat, actor: str, action: dict[str, Any]) -> None:
    """Click what a person clicks to take ``action``: the spec's button, after its square or its foe on the board."""
    page = seat.page
    # the page shows the moves once its push has come (an AI may have moved since the test looked)
    page.wait_for_function(
        "a => window.affray.msg && window.affray.msg.legal[a]", arg=actor, polling=50, timeout=10_000
    )
    index: int = page.evaluate(
        """([actor, action]) => {
      const specs = window.affray.msg.legal[actor] || [];
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      let i = specs.findIndex((s) => same(s.action, action));
      const near = (s) => s.action.type === action.type && (s.action.card ?? null) === (action.card ?? null)
                          && JSON.stringify(s.action.to ?? null) === JSON.stringify(action.to ?? null);
      if (i < 0) i = specs.findIndex(near);
      if (i < 0) i = specs.findIndex((s) => s.action.type === action.type);
      return i < 0 ? 0 : i;
    }""",
        [actor, action],
    )
    key = f"{actor}:{index}"
    spec = page.evaluate("([actor, i]) => window.affray.msg.legal[actor][i]", [actor, index])
    button = page.locator(f'[data-act="{key}"]')
    if not button.count():
        to = spec["action"].get("to")
        if isinstance(to, list):
            page.locator(f'[data-square="{to[0]},{to[1]}"]').click()
        else:  # behind the steps of the seat's choices: the action, then its target...: each step in turn
            for step in page.evaluate(STEPS_TO, [actor, spec["action"]]):
                page.locator(f'#actions [data-step="{actor}|{step}"]').click()
        button = page.locator(f'[data-act="{key}"]')
    button.first.click()


# The steps (full ids) a person opens to reach the leaf that takes `action` in the actor's tree (docs/table.md).
STEPS_TO = """([actor, action]) => {
  const canon = (v) => Array.isArray(v) ? `[${v.map(canon).join(",")}]` : v && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",")}}` : JSON.stringify(v);
  const walk = (step, path) => {
    for (const c of step.choices) {
      const full = path ? `${path}.${c.id}` : c.id;
      if (c.action && canon(c.action) === canon(action)) return [];
      const deeper = c.step && walk(c.step, full);
      if (deeper) return [full, ...deeper];
    }
    return null;
  };
  const tree = (window.affray.msg.steps || {})[actor];
  return (tree && walk(tree, "")) || [];
}"""


def story_ids(table: Table) -> set[str]:
    """The ids no sentence of the story may show: the combatants' and every content id the setup names (cards,
    weapons, traits), except an id that is also a word of some name ("baseball" of "baseball bat")."""
    setup = table.match.setup_data
    ids = {c["id"] for c in setup.get("combatants", [])}
    names: list[str] = [c["name"] for c in setup.get("combatants", [])]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in ("id", "use", "card", "weapon", "trait") and isinstance(v, str):
                    ids.add(v)
                if k == "name" and isinstance(v, str):
                    names.append(v)
                if k in ("cards", "deck", "hand", "weapons", "traits") and isinstance(v, dict):
                    ids.update(str(x) for x in v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(setup)
    spoken = " ".join(names).lower()
    return {i for i in ids if "_" in i or (i.islower() and not re.search(rf"\b{re.escape(i)}\b", spoken))}


def assert_reads(text: str, table: Table, what: str) -> None:
    """``text`` (the story, a sheet) reads as words: no JSON, no true/false and no id."""
    assert "{" not in text and "}" not in text and '"' + "type" not in text, text[:500]
    assert not re.search(r"\b(true|false)\b", text), f"{what} shows a flag as true/false: {text[:500]}"
    for token in story_ids(table):
        assert not re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text), f"{what} shows the id {token!r}"


@pytest.mark.parametrize("ruleset", sorted(GROUPS))
def test_a_group_seats_itself_from_the_lobby_and_plays_to_the_end_by_clicking(ruleset: str, tmp_path: Path) -> None:
    group = GROUPS[ruleset]
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        console_errors(gm)
        table_id = seat_from_lobby(gm, group)
        table = server.service.table(table_id)
        seats: dict[str, Seat] = {"gm": gm}
        for actor in group.players:
            link = gm.page.locator(f'[data-link="{actor}"]').input_value()
            seats[actor] = open_seat(browser, link, width=PHONE["width"] if actor == group.phone else 1200)
            if actor == group.phone:
                seats[actor].page.set_viewport_size(PHONE)
            console_errors(seats[actor])
        for actor in group.players:
            expect(gm.page.locator(f'[data-seat-row="{actor}"] .online')).to_have_text("connected", timeout=10_000)
        rng = FastRNG(group.seed)
        plays = {a: "gm" if a in group.gm_plays else a for a in (*group.players, *group.gm_plays)}
        clicks = 0
        while not table.over:
            assert clicks < MAX_CLICKS, f"the fight did not end in {MAX_CLICKS} clicks"
            synced(seats, table.version)
            with table.lock:
                window = table.match.pending()
            due = [a for a in (window.actors if window else ()) if a in plays]
            if not due:
                version = table.version
                wait_for(lambda: table.version > version or table.over, 15, "the AI to move")  # noqa: B023
                continue
            actor = due[0]
            version = table.version
            click_for(seats[plays[actor]], actor, one_step(wanted(table, actor, rng), window.phase if window else ""))
            clicks += 1
            if clicks == 5:  # the story's first entry, marked: a push draws only new and changed entries
                gm.page.evaluate("document.querySelector('#log ol.log > li.entry:last-child').kept = true")
                # the phone's player opens a combatant's sheet to read it; the fight goes on around it
                phone = seats[group.phone].page
                sheet_of = phone.locator("#combatants [data-card-of]:has(details)").first.get_attribute("data-card-of")
                # that combatant's sheet, named: a push may redraw the cards between reading and clicking, and the
                # first card with a sheet is then perhaps another (a combatant whose sheet changed)
                sheet = phone.locator(f'#combatants [data-card-of="{sheet_of}"] details[data-sheet]')
                for _ in range(3):  # a click that landed as a push moved the cards missed: the player clicks again
                    sheet.locator("summary").click()
                    if sheet.get_attribute("open") is not None:  # the click's own render opened it, at once
                        break
                # the GM opens one just as a push comes: the push's redraw replaces the sheet before the browser's
                # toggle event, which then never reaches the page (the element is gone); it must stay open all the same
                gm_sheet_of = gm.page.evaluate("""() => {
                  const box = document.querySelector('#combatants [data-card-of] details[data-sheet]');
                  box.querySelector('summary').click();
                  box.remove(); // what a redraw does to the element the click toggled
                  return box.dataset.sheet; }""")
            wait_for(lambda: table.version > version, 10, f"{actor}'s click to be taken")  # noqa: B023
        synced(seats, table.version)
        for name, seat in seats.items():  # protocol 2: moves over the seat's socket, every change as a patch
            assert not [r for r in seat.requests if r.endswith("/actions")], f"{name}'s moves went over HTTP"
            pushes = [frame for frame in seat.frames if '"reply"' not in frame[:10]]
            assert '"patch"' not in pushes[0] and all('"patch"' in push for push in pushes[1:]), name
        acted = sum('"act"' in frame for seat in seats.values() for frame in seat.sent)
        assert acted >= clicks, f"{clicks} clicks, {acted} actions sent over the sockets"
        for name, seat in seats.items():
            expect(seat.page.locator("#verdict")).to_have_text(re.compile(r"^verified: \d+ dice"), timeout=20_000)
            assert_reads(seat.page.locator("#log").inner_text(), table, "the story")
            assert_reads(seat.page.locator("body").inner_text(), table, f"{name}'s page")
            assert not seat.errors, (name, seat.errors)
        assert gm.page.evaluate("document.querySelector('#log ol.log > li.entry:last-child').kept === true"), (
            "the story was drawn again whole"
        )
        expect(seats[group.phone].page.locator(f'#combatants [data-card-of="{sheet_of}"] details')).to_have_attribute(
            "open", ""
        )  # still open at the end, though every push since redrew the cards
        expect(gm.page.locator(f'#combatants [data-card-of="{gm_sheet_of}"] details')).to_have_attribute("open", "")
        assert_reads(
            seats[group.phone].page.locator(f'#combatants [data-card-of="{sheet_of}"] details').inner_text(),
            table,
            "the sheet",
        )
        seats[group.phone].page.screenshot(path=str(DOCS_IMG / f"group-{ruleset}-phone.png"), full_page=True)
        gm.page.screenshot(path=str(DOCS_IMG / f"group-{ruleset}-gm.png"), full_page=True)
        print(f"{ruleset}: {clicks} clicks by the group to the end of {group.example}")
