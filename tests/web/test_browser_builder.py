"""Build a fight on the page (docs/table.md, "Building a fight"), in a real browser, from the lobby: no file of the
test's and no API call, only what a GM clicks, drags, types and pastes.

A GM builds a Spellchrome fight: two party members and three Ash Jackals from the library (numbered "Ash Jackal 1..3"
with ids ash_jackal_1..3), walls painted by dragging over squares, a token dragged to its square and another moved
with the keyboard; reads its odds; downloads the YAML (which ``affray sim`` reads, agreeing with the page's odds
within their intervals); creates the table with a map image; two players take their seats, one on a 390x844 phone,
and play until a player has taken a turn. A WaRP fight and a WitchHammer fight are built from a player's character
sheet, pasted and uploaded, with a problem shown at the combatant it names. The builder is photographed at desktop and
phone size.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.web.axe import violations
from tests.web.browser import DOCS_IMG, Seat, chromium, due, live_server, open_seat, synced
from tests.web.test_browser_spellchrome import choose

ROOT = Path(__file__).parents[2]
CHARACTERS = ROOT / "examples" / "characters"
PHONE = {"width": 390, "height": 844}
ODDS = re.compile(r"^The party wins (\d+)% \((\d+)–(\d+)%\), [\d.]+ rounds; most at risk: .+ \(down \d+%\)")
ODDS_WAIT = 120_000  # ms: a few hundred simulated fights on a machine shared with other work
MAX_CLICKS = 60


def png(width: int, height: int) -> bytes:
    """A small grey PNG picture: the GM's map image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def build_page(gm: Seat) -> Any:
    """The GM's lobby, then its Build-a-fight entry."""
    page = gm.page
    page.get_by_role("link", name="Build a fight").click()
    page.wait_for_url("**/build")
    expect(page.locator("#headline")).to_have_text("build a fight")
    return page


def add_from_library(page: Any, search: str, name: str) -> None:
    page.get_by_label("Search by name").fill(search)
    page.get_by_role("button", name=f"Add {name}", exact=True).click()
    expect(page.locator(".b-entry h3", has_text=name)).to_have_count(1)


def checked(page: Any) -> None:
    expect(page.locator("#b-check")).to_have_text("The server checked this fight: it can be played.", timeout=20_000)


def cell(page: Any, x: int, y: int) -> Any:
    return page.locator(f'#b-board [data-x="{x}"][data-y="{y}"]')


def drag(page: Any, start: Any, end: Any) -> None:
    """Press on ``start``, move to ``end`` and let go, the board in view (a mouse reaches the screen only)."""
    page.locator("#b-board").evaluate("e => e.scrollIntoView({block: 'center'})")
    a, b = start.bounding_box(), end.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def test_sc23_a_gm_builds_a_jackal_fight_reads_its_odds_and_two_players_play_it(tmp_path: Path) -> None:
    """Rules: SC-23 (the square grid), SC-17 (terrain slows a move), SC-15 (a turn's actions)."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/", width=1280)
        page = build_page(gm)
        page.get_by_label("Ruleset").select_option("spellchrome")
        page.get_by_label("Title").fill("Jackals at the ford")
        add_from_library(page, "oriel", "Oriel Vantasse")
        add_from_library(page, "kestrin", "Kestrin Moll")
        add_from_library(page, "jackal", "Ash Jackal")
        jackals = page.locator(".b-entry", has_text="Ash Jackal")
        jackals.get_by_label("How many").fill("3")
        jackals.get_by_label("How many").press("Tab")
        expect(jackals.get_by_role("button", name=re.compile(r"^Place Ash Jackal \d"))).to_have_count(3)
        expect(page.locator("#b-cast")).to_contain_text("Ash Jackal 3")
        # Walls painted by dragging down a column; the party's Oriel dragged to her square; a jackal moved by keys.
        page.get_by_label("paint: wall (#)").check()
        drag(page, cell(page, 5, 2), cell(page, 5, 6))
        for y in range(2, 7):
            expect(cell(page, 5, y)).to_have_attribute("aria-label", re.compile(rf"^column 5, row {y}: wall"))
        page.get_by_label("paint: half speed (~)").check()
        cell(page, 7, 7).click()
        expect(cell(page, 7, 7)).to_have_attribute("aria-label", "column 7, row 7: half speed")
        page.get_by_label("place and move tokens").check()
        oriel = page.locator("#b-board [aria-label$='Oriel Vantasse, token OV']")
        drag(page, oriel, cell(page, 2, 4))
        expect(cell(page, 2, 4)).to_have_attribute("aria-label", "column 2, row 4: open, Oriel Vantasse, token OV")
        page.get_by_role("button", name=re.compile(r"^Place Ash Jackal 2")).click()
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowDown")
        expect(page.get_by_role("button", name=re.compile(r"^Place Ash Jackal 2"))).to_contain_text("(10, 2)")
        expect(cell(page, 10, 2)).to_have_attribute("aria-label", "column 10, row 2: open, Ash Jackal 2, token AJ2")
        checked(page)
        odds = page.locator("#b-odds-line")
        expect(odds).to_have_text(ODDS, timeout=ODDS_WAIT)
        match = ODDS.match(odds.inner_text())
        assert match is not None
        win, low, high = (int(g) / 100 for g in match.groups())
        expect(page.locator("#b-odds")).to_contain_text("heuristic plays Oriel Vantasse, Kestrin Moll, Ash Jackal 1")
        assert violations(page) == []  # axe-core: labels, names, roles of the builder as built
        page.screenshot(path=str(DOCS_IMG / "build-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(DOCS_IMG / "build-phone.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})

        with page.expect_download() as download:
            page.get_by_role("button", name="Download YAML").click()
        built = tmp_path / "jackals_at_the_ford.yaml"
        download.value.save_as(built)
        assert download.value.suggested_filename == "jackals_at_the_ford.yaml"
        text = built.read_text()
        lines = text.splitlines()
        start = lines.index("map: |")
        assert lines[start + 1 : start + 11] == [
            f"  {row}" for row in ["............"] * 2 + [".....#......"] * 5 + [".......~...."] + ["............"] * 2
        ]
        for line in ("ruleset: spellchrome", "      - id: ash_jackal_3", '        name: "Ash Jackal 3"'):
            assert line in lines, line
        sim = subprocess.run(
            [sys.executable, "-m", "affray", "sim", str(built), "-n", "300", "--seed", "11", "--json"],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert sim.returncode == 0, sim.stderr
        party = json.loads(sim.stdout)["sides"]["party"]
        sim_low, sim_high = party["ci95"]
        assert sim_low <= high and low <= sim_high, (win, low, high, party)  # the two intervals agree

        # Who plays whom: the party's two by players A and B, the jackals by the server; a map image; then the table.
        page.get_by_label("who plays Kestrin Moll").select_option("player:B")
        page.get_by_label(re.compile("^Map image")).set_input_files(
            {"name": "ford.png", "mimeType": "image/png", "buffer": png(12, 10)}
        )
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_url("**/t/**")
        page.wait_for_selector("[data-link]")
        table_id = page.url.split("/t/")[1].split("#")[0]
        links = {s: page.locator(f'[data-link="{s}"]').input_value() for s in ("oriel_vantasse", "kestrin_moll")}
        table = server.service.table(table_id)
        page.wait_for_function("() => window.affray.msg && window.affray.msg.map", timeout=15_000, polling=50)
        oriel_seat = open_seat(browser, links["oriel_vantasse"])
        phone = open_seat(browser, links["kestrin_moll"], width=PHONE["width"])
        phone.page.set_viewport_size(PHONE)
        seats = {"gm": gm, "oriel_vantasse": oriel_seat, "kestrin_moll": phone}
        played = None
        for _ in range(MAX_CLICKS):
            synced(seats, table.version)
            mover = next((n for n in ("oriel_vantasse", "kestrin_moll") if due(seats[n].page)), None)
            if mover is None:
                assert not table.over
                seats["gm"].page.wait_for_function(
                    "v => window.affray.msg.version > v", arg=table.version, timeout=15_000, polling=20
                )
                continue
            version = table.version
            choose(seats[mover])
            seats[mover].page.wait_for_function(
                "v => window.affray.msg.version > v", arg=version, timeout=15_000, polling=20
            )
            played = mover
            break
        assert played is not None, "no player was due within the clicks"
        # The lobby lists the table for its GM, with the GM link.
        gm.page.goto(server.url + "/")
        expect(gm.page.locator(f'[data-owned-table="{table_id}"]')).to_contain_text("Jackals at the ford")
        assert not gm.errors and not oriel_seat.errors and not phone.errors


def test_wr03_wh31_fights_built_from_a_players_sheet_pasted_and_uploaded(tmp_path: Path) -> None:
    """Rules: WR-03 (a WaRP character's traits and dice), WH-31 (a WitchHammer character's points): the sheet as
    ``affray character new`` writes it, checked by the server in the fight."""
    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/", width=1280)
        page = build_page(gm)
        page.get_by_label("Ruleset").select_option("warp")
        page.get_by_label("Title").fill("The alley")
        # A sheet of another ruleset is refused in a sentence at the sheet's field.
        page.get_by_label("or paste the sheet").fill((CHARACTERS / "hilde.yaml").read_text())
        page.get_by_role("button", name="Add from the sheet").click()
        expect(page.locator("#b-sheet-problem")).to_have_text(
            re.compile(r"^This sheet is a witchhammer character; the fight is WaRP")
        )
        page.get_by_label("or paste the sheet").fill((CHARACTERS / "dana.yaml").read_text())
        page.get_by_role("button", name="Add from the sheet").click()
        expect(page.locator(".b-entry h3", has_text="Dana Reyes")).to_contain_text("(a character sheet)")
        add_from_library(page, "thug", "Dock Thug")
        page.locator(".b-entry", has_text="Dock Thug").get_by_label("Side").select_option("foes")
        page.get_by_label("Dock Thug stands at").fill("4")
        # A combatant written in place whose library id is wrong: the problem is shown at it, in words.
        page.get_by_label("Its name").fill("Ghost")
        page.get_by_label(re.compile("^Its YAML")).fill("use: no_such_thug\n")
        page.get_by_role("button", name="Add this combatant").click()
        ghost = page.locator(".b-entry", has_text="Ghost")
        expect(ghost.locator(".field-problem")).to_contain_text("Ghost, library entry:", timeout=20_000)
        expect(page.locator("#b-problems")).to_have_text("")
        ghost.get_by_role("button", name="Remove Ghost").click()
        checked(page)
        expect(page.locator("#b-odds-line")).to_have_text(re.compile(r"^The party wins \d+%"), timeout=ODDS_WAIT)
        page.get_by_role("button", name="Save the fight").click()
        expect(page.locator("#b-saved")).to_have_text('Saved as "The alley"; the lobby lists it.')
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_url("**/t/**")
        expect(page.locator('[data-link="dana_reyes"]')).to_have_count(1)

        # WitchHammer: Hilde's sheet uploaded as a file, two hidden bog hounds numbered.
        page = build_page(open_seat(browser, server.url + "/", width=1280))
        page.get_by_label("Ruleset").select_option("witchhammer")
        page.get_by_label("Title").fill("Hounds at the ford")
        page.get_by_label("Sheet file").set_input_files(str(CHARACTERS / "hilde.yaml"))
        expect(page.get_by_label("or paste the sheet")).to_have_value(re.compile("format: affray-sheet/1"))
        page.get_by_role("button", name="Add from the sheet").click()
        add_from_library(page, "hound", "Bog Hound")
        hounds = page.locator(".b-entry", has_text="Bog Hound")
        hounds.get_by_label("How many").fill("2")
        hounds.get_by_label("How many").press("Tab")
        hounds.get_by_label("Hidden from the players").check()
        expect(page.locator("#b-cast")).to_contain_text("Bog Hound 2")
        checked(page)
        with page.expect_download() as download:
            page.get_by_role("button", name="Download YAML").click()
        text = Path(download.value.path()).read_text()
        assert (
            "      - id: bog_hound_2\n" in text
            and "        hidden: true\n" in text
            and "          format: affray-sheet/1\n" in text
        )
        page.get_by_role("button", name="Create the table").click()
        page.wait_for_url("**/t/**")
        expect(page.locator('[data-link="hilde_brandt"]')).to_have_count(1)
        # The saved WaRP fight is in the first GM's lobby list: copied, deleted, and opened again in the builder.
        lobby = gm.page
        lobby.goto(server.url + "/")
        expect(lobby.locator("#owned-fights li")).to_have_count(1)
        lobby.get_by_role("button", name="Copy The alley").click()
        expect(lobby.locator("#owned-fights")).to_contain_text("The alley (copy)")
        lobby.get_by_role("button", name="Delete The alley (copy)").click()
        expect(lobby.locator("#owned-fights li")).to_have_count(1)
        lobby.locator("#owned-fights").get_by_role("link", name="Open").click()
        lobby.wait_for_url("**/build?fight=*")
        expect(lobby.get_by_label("Title")).to_have_value("The alley")
        expect(lobby.locator(".b-entry h3")).to_have_text(
            ["Dana Reyes (a character sheet)", "Dock Thug (library: thug)"]
        )
        checked(lobby)
        # The other GM's browser (another owner) lists none of it.
        other = open_seat(browser, server.url + "/", width=1280).page
        expect(other.locator("#owned-fights")).to_contain_text("None yet")
