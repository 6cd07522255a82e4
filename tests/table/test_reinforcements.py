"""Reinforcements: the GM adds a combatant mid-fight (docs/table.md, "Reinforcements").

``POST /api/tables/ID/gm/adjust`` with a change ``{"add": COMBATANT, "side": SIDE, "place": ...}``, the combatant as a
scenario writes it: a GM record holding the resolved setup entry, narrated to every seat, entering the turn order as
the ruleset's rules say (Spellchrome: its own initiative roll, SC-16), replayed by ``affray verify`` (X-1), undone by
the GM's take back; a refusal changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from affray.store import Store
from affray.table import TableService
from tests.cli_run import affray
from tests.web.helpers import auth, make_app, tokens_of
from tests.web.inprocess import InProcessClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
JACKALS = {"oriel": "human", "kestrin": "human", "ambry": "human", "jackal1": "gm", "jackal2": "gm", "jackal3": "gm"}
JACKAL_4 = {"id": "jackal_4", "use": "ash_jackal", "name": "Ash Jackal 4"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableService, TestClient]]:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service, app = make_app(store)
        with InProcessClient(app) as client:
            yield service, client
        service.close()


def open_table(client: TestClient, seed: int = 5) -> tuple[str, dict[str, str]]:
    text = (EXAMPLES / "spellchrome/jackal_pack.yaml").read_text()
    answer = client.post("/api/tables", json={"scenario": text, "seed": seed, "controllers": JACKALS})
    assert answer.status_code == 201, answer.text
    return answer.json()["table"], tokens_of(answer.json())


def get(client: TestClient, table: str, token: str, path: str = "") -> Any:
    answer = client.get(f"/api/tables/{table}{path}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def adjust(client: TestClient, table: str, gm: str, *changes: dict[str, Any], reason: str = "") -> Any:
    version = get(client, table, gm)["version"]
    return client.post(
        f"/api/tables/{table}/gm/adjust",
        headers=auth(gm),
        json={"version": version, "reason": reason, "changes": changes},
    )


def test_sc16_a_jackal_joins_with_its_own_initiative_every_seat_reads_it_and_the_log_verifies(
    served: tuple[TableService, TestClient], tmp_path: Path
) -> None:
    """SC-16, X-1: Ash Jackal 4 joins the pack on [3, 4] with the library's stats (full 13 HP), rolls its own
    initiative from the table's dice and enters the order by it after the turn in progress; every seat reads "Ash
    Jackal 4 joins the fight for the pack.", the GM's seat plays it, the record holds its resolved entry, and the
    ended fight's log passes ``affray verify``."""
    service, client = served
    table, tokens = open_table(client)
    gm = tokens["gm"]
    assert get(client, table, gm, "/gm/adjust")["joins"] == "square"
    before = get(client, table, gm)["view"]
    answer = adjust(client, table, gm, {"add": JACKAL_4, "side": "pack", "place": [3, 4]}, reason="the howl carries")
    assert answer.status_code == 200, answer.text
    for seat, token in tokens.items():
        message = get(client, table, token)
        jackal = next(c for c in message["view"]["combatants"] if c["id"] == "jackal_4")
        assert (jackal["name"], jackal["position"]["x"], jackal["position"]["y"]) == ("Ash Jackal 4", 3, 4), seat
        assert [b["value"] for b in jackal["bars"] if b["name"] == "HP"] == [13], seat
        told = [e["text"] for e in message["log"][-1]["events"]]
        assert told == [
            "Ash Jackal 4 rolls initiative: 1d20+2 [14] +2 = 16",
            "Ash Jackal 4 joins the fight for the pack.",
        ]
    view = get(client, table, gm)["view"]
    # d20 14 + Dex +2 = 16: after Ambry's 20, before Ash Jackal Scar's 11 (Kestrin's turn goes on)
    assert view["order"] == ["kestrin", "ambry", "jackal_4", "jackal1", "jackal3", "jackal2", "oriel"]
    assert view["turn"] == "kestrin"
    assert before["order"] == [a for a in view["order"] if a != "jackal_4"]
    live, _ = service.authenticate(table, gm)
    with live.lock:
        record: Any = live.match.records[-1].to_dict()
        assert live.match.state.combatants["jackal_4"].initiative == 16
        assert live.match.seats["jackal_4"] == "gm"
    for seat in ("kestrin", "ambry"):  # their turns pass: the jackal's comes, and the GM's seat plays it
        message = get(client, table, tokens[seat])
        ends = [s["action"] for s in message["legal"][seat] if s["action"]["type"] == "end_turn"]
        body = {"actor": seat, "action": ends[0], "version": message["version"]}
        assert client.post(f"/api/tables/{table}/actions", json=body, headers=auth(tokens[seat])).status_code == 200
    assert get(client, table, gm)["view"]["turn"] == "jackal_4"
    assert list(get(client, table, gm)["legal"]) == ["jackal_4"]
    entry = record["action"]["changes"][0]["add"]
    assert (entry["id"], entry["name"], entry["position"]) == ("jackal_4", "Ash Jackal 4", [3, 4])
    assert entry["abilities"]["dexterity"] and "use" not in entry  # resolved: stats, not a library reference
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    saved = tmp_path / "log.json"
    saved.write_text(json.dumps(get(client, table, gm, "/log")))
    done = affray("verify", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr


def test_x1_the_gms_take_back_removes_the_reinforcement(served: tuple[TableService, TestClient]) -> None:
    """The GM takes the fight back to before the addition: the jackal is gone from every view, the order and the
    seats, and the same id may join again."""
    service, client = served
    table, tokens = open_table(client)
    gm = tokens["gm"]
    before = get(client, table, gm)
    answer = adjust(client, table, gm, {"add": JACKAL_4, "side": "pack", "place": [3, 4]})
    assert answer.status_code == 200, answer.text
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": before["version"], "version": before["version"] + 1, "confirm": True},
    )
    assert back.status_code == 200, back.text
    after = get(client, table, gm)
    assert after["view"]["order"] == before["view"]["order"]
    assert "jackal_4" not in json.dumps(after["view"])
    live, _ = service.authenticate(table, gm)
    with live.lock:
        assert "jackal_4" not in live.match.seats
    assert adjust(client, table, gm, {"add": JACKAL_4, "side": "pack", "place": [3, 4]}).status_code == 200


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        (
            {"add": JACKAL_4, "side": "wolves", "place": [3, 4]},
            "unknown_side",
            "There is no side 'wolves' in this fight (there are pack, party).",
        ),
        (
            {"add": {**JACKAL_4, "id": "jackal1"}, "side": "pack", "place": [3, 4]},
            "id_taken",
            "The id 'jackal1' is Ash Jackal Scar's already: choose another.",
        ),
        (
            {"add": JACKAL_4, "side": "pack", "place": [6, 5]},
            "occupied",
            "Oriel Vantasse stands on [6, 5] (no move ends on a square someone able stands on).",
        ),
        (
            {"add": JACKAL_4, "side": "pack", "place": [30, 4]},
            "bad_combatant",
            "add.position: a square inside the 14×10 map (got [30, 4]).",
        ),
        (
            {"add": {**JACKAL_4, "use": "ash_jackalz"}, "side": "pack", "place": [3, 4]},
            "bad_combatant",
            "add.use: ",
        ),
    ],
)
def test_x1_a_refused_addition_changes_nothing(
    served: tuple[TableService, TestClient], change: dict[str, Any], code: str, message: str
) -> None:
    """An unknown side, an id in use, an occupied or off-map square, a broken combatant: refused with a code and a
    sentence naming the field, and the fight is as it was."""
    _, client = served
    table, tokens = open_table(client)
    gm = tokens["gm"]
    before = get(client, table, gm)
    answer = adjust(client, table, gm, change)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == code
    assert answer.json()["message"].startswith(message), answer.json()["message"]
    after = get(client, table, gm)
    assert (after["version"], after["view"]) == (before["version"], before["view"])


def test_x1_a_ruleset_without_reinforcements_refuses_the_addition(
    served: tuple[TableService, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruleset whose adjuster is no ``Joiner`` (HuD's without its ``add``): ``no_reinforcements`` with a sentence,
    and the fight is unchanged."""
    from affray.rulesets.hud.adjust import HudAdjuster

    monkeypatch.delattr(HudAdjuster, "add")
    _, client = served
    text = (EXAMPLES / "hud/simplified_ambush.yaml").read_text()
    people = {"ilka": "human", "drowner1": "gm", "drowner2": "gm"}
    opened = client.post("/api/tables", json={"scenario": text, "seed": 5, "controllers": people})
    assert opened.status_code == 201, opened.text
    table, gm = opened.json()["table"], tokens_of(opened.json())["gm"]
    before = get(client, table, gm)
    answer = adjust(client, table, gm, {"add": {"id": "drowner3", "use": "drowner"}, "side": "drowners"})
    assert answer.status_code == 422, answer.text
    assert (answer.json()["code"], answer.json()["message"]) == (
        "no_reinforcements",
        "This ruleset takes no reinforcements yet.",
    )
    assert get(client, table, gm, "/gm/adjust")["joins"] is None  # the GM page offers no form
    after = get(client, table, gm)
    assert (after["version"], after["view"]) == (before["version"], before["view"])


def test_sc16_the_gm_page_adds_a_jackal_from_the_library_on_a_clicked_square(tmp_path: Path) -> None:
    """In a real browser from the lobby: the GM's "Add a combatant" finds the Ash Jackal in the library, takes a
    square clicked on the board and a reason, and every seat's log reads that it joins (SC-16: its initiative roll)."""
    from playwright.sync_api import expect

    from tests.web.browser import chromium, create_from_lobby, live_server, open_seat, synced

    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(gm.page, "spellchrome/jackal_pack", {"oriel": "player:A"}, seed=8)
        table = server.service.table(table_id)
        synced({"gm": gm}, table.version)
        page = gm.page
        page.locator('[data-add-do="open"]').click()
        page.fill("#add-use", "jackal")
        page.locator('[data-add-do="search"]').click()
        expect(page.locator("#add-note")).to_have_text("1 found.")
        page.fill("#add-use", "ash_jackal")
        page.fill("#add-id", "jackal_4")
        page.fill("#add-name", "Ash Jackal 4")
        page.select_option("#add-side", "pack")
        page.locator('[data-add-do="place"]').click()
        page.locator('[data-xy="3,4"]').click()
        expect(page.locator(".add-combatant")).to_contain_text("Square: (3, 4)")
        page.fill("#add-reason", "the howl carries")
        page.locator('[data-add-do="add"]').click()
        expect(page.locator("#log")).to_contain_text("Ash Jackal 4 joins the fight for the pack.", timeout=10_000)
        assert table.match.state.combatants["jackal_4"].pos == (3, 4)
        # then one written in place, as YAML text of a scenario's combatant, on another square
        page.fill("#add-written", "id: grey_jackal\nname: The Grey One\nuse: ash_jackal\n")
        page.select_option("#add-side", "pack")
        page.locator('[data-add-do="place"]').click()
        page.locator('[data-xy="3,5"]').click()
        page.fill("#add-reason", "out of the smoke")
        page.locator('[data-add-do="add"]').click()
        expect(page.locator("#log")).to_contain_text("The Grey One joins the fight for the pack.", timeout=10_000)
        assert table.match.state.combatants["grey_jackal"].pos == (3, 5)
        assert not gm.errors, gm.errors


WARP_PEOPLE = {"dana": "human", "theo": "human", "thug1": "gm", "thug2": "gm", "thug3": "gm"}
THUG_4 = {"id": "thug4", "use": "thug", "name": "Dock Thug 4"}
THUG_4_INITIATIVE = 4
# 2d6 [2 2] = 4: last, after Dock Thug Who Hums's 5
THUG_4_ORDER = ["dana", "thug1", "theo", "thug2", "thug3", "thug4"]


def warp_table(client: TestClient) -> tuple[str, dict[str, str]]:
    text = (EXAMPLES / "warp/melee_brawl.yaml").read_text()
    opened = client.post("/api/tables", json={"scenario": text, "seed": 5, "controllers": WARP_PEOPLE})
    assert opened.status_code == 201, opened.text
    return opened.json()["table"], tokens_of(opened.json())


def first_moves_until_turns(client: TestClient, table: str, tokens: dict[str, str]) -> None:
    """Each due seat takes its first legal choice until the first round's turns begin (initiative rolled)."""
    for _ in range(10):
        for token in tokens.values():
            state = get(client, table, token)
            for actor, specs in state["legal"].items():
                if specs and state["view"]["phase"] == "initiative":
                    body = {"actor": actor, "action": specs[0]["action"], "version": state["version"]}
                    answer = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
                    assert answer.status_code == 200, answer.text
        if get(client, table, tokens["gm"])["view"]["phase"] != "initiative":
            return


def test_wr05_a_thug_joins_from_the_next_round_with_its_own_initiative_and_the_log_verifies(
    served: tuple[TableService, TestClient], tmp_path: Path
) -> None:
    """WR-05, WR-03: mid-round, Dock Thug 4 joins the dockers at 6 m, rolls its own initiative (2 dice, no trait)
    from the table's dice and enters the order by it, but acts from the next round (its turn this round is done);
    every seat reads that it joins; the GM's take back removes it; added again, the ended log verifies."""
    service, client = served
    table, tokens = warp_table(client)
    gm = tokens["gm"]
    first_moves_until_turns(client, table, tokens)
    before = get(client, table, gm)
    answer = adjust(client, table, gm, {"add": THUG_4, "side": "dockers", "place": 6})
    assert answer.status_code == 200, answer.text
    live, _ = service.authenticate(table, gm)
    with live.lock:
        state = live.match.state
        thug = state.fighters["thug4"]
        assert (thug.position, thug.turn_done, thug.initiative) == (6.0, True, THUG_4_INITIATIVE)
        assert state.order == THUG_4_ORDER
        assert state.order[state.turn_index] == "dana"  # Dana's turn goes on
    for token in tokens.values():
        told = [e["text"] for e in get(client, table, token)["log"][-1]["events"]]
        assert told == [
            "Dock Thug 4 rolls initiative with the default 2 dice: 2d6 [2 2] = 4",
            "Dock Thug 4 joins the fight for the dockers.",
        ], told
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": before["version"], "version": before["version"] + 1, "confirm": True},
    )
    assert back.status_code == 200, back.text
    assert get(client, table, gm)["view"] == before["view"]
    assert adjust(client, table, gm, {"add": THUG_4, "side": "dockers", "place": 6}).status_code == 200
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    saved = tmp_path / "log.json"
    saved.write_text(json.dumps(get(client, table, gm, "/log")))
    done = affray("verify", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr


def test_x1_a_table_rebuilt_from_its_snapshot_or_its_log_seats_the_reinforcement_at_the_gms_seat() -> None:
    """A match with a reinforcement, rebuilt from its snapshot (table/snapshot.py) or replayed from its log, holds
    the same state and seats the newcomer at the GM's seat, as the live match does."""
    from affray.api import scenario_from_data
    from affray.core.match import Match
    from affray.table.snapshot import load, take

    scenario = scenario_from_data(yaml.safe_load((EXAMPLES / "spellchrome/jackal_pack.yaml").read_text()))
    match = Match(scenario.plugin, scenario.setup, scenario.options, seed=bytes(range(32)), seats=scenario.seats)
    entry = next(c for c in scenario.setup["combatants"] if c["id"] == "jackal3")
    change: dict[str, Any] = {
        "add": {**entry, "id": "jackal_4", "name": "Ash Jackal 4"},
        "side": "pack",
        "place": [3, 4],
    }
    assert not hasattr(match.rule("gm", {"type": "ruling", "reason": "", "changes": [change]}), "code")
    assert match.seats["jackal_4"] == "gm" and match.state.combatants["jackal_4"].pos == (3, 4)

    def anew() -> Match:  # as a restart builds it: the scenario's seats, which know no newcomer
        return Match(scenario.plugin, scenario.setup, scenario.options, seed=bytes(range(32)), seats=scenario.seats)

    back, replayed = anew(), anew()
    load(back, take(match, "head"), [r.to_dict(events=False) for r in match.records], "head")
    for record in match.records:
        replayed.apply_record(record.to_dict(events=False))
    for other in (back, replayed):
        assert other.seats["jackal_4"] == "gm"
        assert other.state.order == match.state.order
        assert other.view_json("gm") == match.view_json("gm")


WH_PEOPLE = {"odo": "human", "ilse": "human", "wraith": "gm", "wolf1": "gm", "wolf2": "gm", "wolf3": "gm"}
ASH_WOLF = {"id": "wolf4", "use": "gloam_wolf", "name": "Ash Wolf"}
ASH_WOLF_DECK = {"wolf_snap": 1, "hamstring_run": 1, "melt_into_the_dusk": 1}


def witchhammer_table(client: TestClient) -> tuple[str, dict[str, str]]:
    text = (EXAMPLES / "witchhammer/frost_and_wolves.yaml").read_text()
    opened = client.post("/api/tables", json={"scenario": text, "seed": 5, "controllers": WH_PEOPLE})
    assert opened.status_code == 201, opened.text
    return opened.json()["table"], tokens_of(opened.json())


def play_until_vignette(service: TableService, client: TestClient, table: str, tokens: dict[str, str], n: int) -> None:
    """Each due seat takes its last legal choice (for the combatants; the GM calls no time) until vignette ``n``."""
    live, _ = service.authenticate(table, tokens["gm"])
    play_until(client, table, tokens, lambda: bool(live.match.state.vignette >= n))


def play_until(
    client: TestClient, table: str, tokens: dict[str, str], done: Callable[[], bool], pick: int = -1
) -> None:
    """Each due seat takes its legal choice number ``pick`` (the last) for its combatants until ``done()``."""
    for _ in range(60):
        if done():
            return
        for token in tokens.values():
            state = get(client, table, token)
            for actor, specs in state["legal"].items():
                if specs and actor != "gm" and not done():
                    body = {
                        "actor": actor,
                        "action": specs[pick]["action"],
                        "version": get(client, table, token)["version"],
                    }
                    answer = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
                    assert answer.status_code == 200, answer.text
    raise AssertionError("the fight never got there")


def test_wh01_a_wolf_joins_at_the_next_vignette_every_seat_reads_it_and_the_log_verifies(
    served: tuple[TableService, TestClient], tmp_path: Path
) -> None:
    """WH-01, WH-04 (rule option "joiners next vignette"): in vignette 1's Psych, Ash Wolf joins the lake on [5, 5]
    with the library's stats; it stands there arriving (no hand, not in the window, no Violence) until vignette 2,
    when it is in the fight with its whole deck as its hand; every seat reads that it joins; the log verifies."""
    service, client = served
    table, tokens = witchhammer_table(client)
    gm = tokens["gm"]
    assert get(client, table, gm, "/gm/adjust")["joins"] == "square"
    answer = adjust(client, table, gm, {"add": ASH_WOLF, "side": "lake", "place": [5, 5]}, reason="a howl")
    assert answer.status_code == 200, answer.text
    for seat, token in tokens.items():
        told = [e["text"] for e in get(client, table, token)["log"][-1]["events"]]
        assert told == ["Ash Wolf joins the fight for the lake."], seat
    live, _ = service.authenticate(table, gm)
    with live.lock:
        state = live.match.state
        wolf = state.fighters["wolf4"]
        assert (wolf.pos, wolf.out, wolf.hand, wolf.slots, wolf.ready) == ((5, 5), "arriving", {}, [], True)
        assert (wolf.poise, wolf.health, wolf.deck) == (16, 12, ASH_WOLF_DECK)
        assert state.window is not None and "wolf4" not in state.window.actors
        assert live.match.seats["wolf4"] == "gm"
    play_until_vignette(service, client, table, tokens, 2)
    with live.lock:
        state = live.match.state
        wolf = state.fighters["wolf4"]
        records: Any = [r.to_dict() for r in live.match.records]
        acted = [e for r in records for e in r["events"] if e.get("actor") == "wolf4"]
        assert [e["type"] for e in acted] == ["joined"]  # no card, no turn in vignette 1's Violence
        assert (wolf.up, wolf.hand) == (True, ASH_WOLF_DECK)
        assert state.window is not None and state.window.phase == "psych"  # the wolves hold no Psych card
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    saved = tmp_path / "log.json"
    saved.write_text(json.dumps(get(client, table, gm, "/log")))
    done = affray("verify", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr


def test_wh01_the_gms_take_back_removes_the_wolf_and_a_refusal_changes_nothing(
    served: tuple[TableService, TestClient],
) -> None:
    """A take back to before the addition removes Ash Wolf from every view and the seats; an occupied square (WH-B13),
    a wall, an unknown side: refused with a sentence, the fight as it was."""
    service, client = served
    table, tokens = witchhammer_table(client)
    gm = tokens["gm"]
    before = get(client, table, gm)
    for change, code, message in (
        ({"add": ASH_WOLF, "side": "lake", "place": [9, 2]}, "occupied", "Grey Wolf stands on [9, 2]."),
        ({"add": ASH_WOLF, "side": "wolves", "place": [5, 5]}, "unknown_side", "There is no side 'wolves'"),
        ({"add": ASH_WOLF, "side": "lake", "place": [40, 5]}, "bad_combatant", "add.at: "),
    ):
        answer = adjust(client, table, gm, change)
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == code
        assert answer.json()["message"].startswith(message), answer.json()["message"]
        after = get(client, table, gm)
        assert (after["version"], after["view"]) == (before["version"], before["view"])
    assert adjust(client, table, gm, {"add": ASH_WOLF, "side": "lake", "place": [5, 5]}).status_code == 200
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": before["version"], "version": before["version"] + 1, "confirm": True},
    )
    assert back.status_code == 200, back.text
    after = get(client, table, gm)
    assert after["view"] == before["view"]
    live, _ = service.authenticate(table, gm)
    with live.lock:
        assert "wolf4" not in live.match.seats and "wolf4" not in live.match.state.fighters


HUD_PEOPLE = {
    "nerdified_duel": {"vesna": "human", "hald": "gm"},
    "simplified_ambush": {"ilka": "human", "drowner1": "gm", "drowner2": "gm"},
    "free_form_tavern": {"bors": "human", "hald": "gm"},
}
ORM = {"id": "orm", "use": "sergeant", "name": "Watch Sergeant Orm"}
SLIMY = {"id": "drowner3", "use": "drowner", "name": "Slimy Drowner"}


def hud_table(client: TestClient, example: str) -> tuple[str, dict[str, str]]:
    text = (EXAMPLES / f"hud/{example}.yaml").read_text()
    opened = client.post("/api/tables", json={"scenario": text, "seed": 5, "controllers": HUD_PEOPLE[example]})
    assert opened.status_code == 201, opened.text
    return opened.json()["table"], tokens_of(opened.json())


def end_and_verify(client: TestClient, table: str, gm: str, tmp_path: Path) -> None:
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    saved = tmp_path / "log.json"
    saved.write_text(json.dumps(get(client, table, gm, "/log")))
    done = affray("verify", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr


def test_wl09_a_sergeant_joins_near_the_fight_and_declares_from_the_next_round(
    served: tuple[TableService, TestClient], tmp_path: Path
) -> None:
    """WL-09, WL-B13 (rule option "joiners next round"): in round 1's declarations of Combat Nerdified, Watch
    Sergeant Orm joins the watch at a place of its own near the fight (place 2, band near): it is in no declaration
    and no initiative of round 1; round 2 rolls its initiative with everyone's; every seat reads that it joins; the
    log verifies."""
    service, client = served
    table, tokens = hud_table(client, "nerdified_duel")
    gm = tokens["gm"]
    assert get(client, table, gm, "/gm/adjust")["joins"] == "place"
    answer = adjust(client, table, gm, {"add": ORM, "side": "watch", "place": "near"}, reason="the watch comes")
    assert answer.status_code == 200, answer.text
    for seat, token in tokens.items():
        told = [e["text"] for e in get(client, table, token)["log"][-1]["events"]]
        assert told == ["Watch Sergeant Orm joins the fight for the watch."], seat
    live, _ = service.authenticate(table, gm)
    with live.lock:
        state = live.match.state
        orm = state.fighters["orm"]
        assert (orm.place, orm.band, orm.hp, orm.max_hp, orm.declared) == (2, "near", 8, 8, False)
        assert (state.round, state.order, state.declare_queue) == (1, ["hald", "vesna"], ["vesna", "hald"])
        assert live.match.seats["orm"] == "gm"
    play_until(client, table, tokens, lambda: bool(live.match.state.round >= 2 or live.match.state.outcome))
    with live.lock:
        state = live.match.state
        assert state.round == 2 and "orm" in state.order and "orm" in state.declare_queue
    end_and_verify(client, table, gm, tmp_path)


@pytest.mark.parametrize(
    ("example", "newcomer", "side", "order"),
    [
        ("simplified_ambush", SLIMY, "drowners", ["drowner3", "drowner2", "drowner1", "ilka"]),
        ("free_form_tavern", ORM, "watch", ["orm", "bors", "hald"]),
    ],
)
def test_wl05_a_newcomer_takes_its_post_before_the_turn_under_way_and_acts_next_round(
    served: tuple[TableService, TestClient],
    tmp_path: Path,
    example: str,
    newcomer: dict[str, str],
    side: str,
    order: list[str],
) -> None:
    """WL-05, WL-00 (rule option "joiners next round"): in Dice Simplified and Free Form the newcomer goes into the
    post order just before the combatant whose turn it is (the first's, in round 1), so the turn stays that
    combatant's and its own first turn comes in round 2; a take back removes it; added again, the log verifies."""
    service, client = served
    table, tokens = hud_table(client, example)
    gm = tokens["gm"]
    before = get(client, table, gm)
    live, _ = service.authenticate(table, gm)
    with live.lock:
        first = live.match.state.order[live.match.state.turn]
    answer = adjust(client, table, gm, {"add": newcomer, "side": side})
    assert answer.status_code == 200, answer.text
    for token in tokens.values():
        told = [e["text"] for e in get(client, table, token)["log"][-1]["events"]]
        assert told == [f"{newcomer['name']} joins the fight for the {side}."]
    with live.lock:
        state = live.match.state
        assert (state.order, state.order[state.turn], state.round) == (order, first, 1)
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": before["version"], "version": before["version"] + 1, "confirm": True},
    )
    assert back.status_code == 200, back.text
    assert get(client, table, gm)["view"] == before["view"]
    with live.lock:
        assert newcomer["id"] not in live.match.state.fighters and newcomer["id"] not in live.match.seats
    assert adjust(client, table, gm, {"add": newcomer, "side": side}).status_code == 200
    state = live.match.state
    play_until(client, table, tokens, lambda: bool(state.order[state.turn] == newcomer["id"] or state.outcome), 0)
    assert (state.order[state.turn], state.round) == (newcomer["id"], 2)  # its first turn: round 2
    end_and_verify(client, table, gm, tmp_path)


@pytest.mark.parametrize(
    ("example", "change", "message"),
    [
        (
            "simplified_ambush",
            {"add": SLIMY, "side": "drowners", "place": "near"},
            "Only Combat Nerdified has places: give no place.",  # the table leaves the rule IDs out
        ),
        (
            "nerdified_duel",
            {"add": ORM, "side": "watch", "place": 7},
            "A newcomer's place is one where someone in the fight stands (0), or 'near' or 'far' for a place of its "
            "own.",
        ),
    ],
)
def test_wl_b13_a_refused_hud_addition_changes_nothing(
    served: tuple[TableService, TestClient], example: str, change: dict[str, Any], message: str
) -> None:
    """WL-B13: a place in a mode without places, or a place nobody stands at: ``bad_position``, the fight as it was."""
    _, client = served
    table, tokens = hud_table(client, example)
    gm = tokens["gm"]
    before = get(client, table, gm)
    answer = adjust(client, table, gm, change)
    assert answer.status_code == 422, answer.text
    assert (answer.json()["code"], answer.json()["message"]) == ("bad_position", message)
    after = get(client, table, gm)
    assert (after["version"], after["view"]) == (before["version"], before["view"])


def test_wl_b13_the_gm_page_adds_a_sergeant_at_a_place_chosen_by_name(tmp_path: Path) -> None:
    """WL-B13, WL-09: in a real browser from the lobby, the GM's "Add a combatant" in Combat Nerdified offers the
    places of the GM's tools by who stands there ("with Vesna of the Lynx and ..."), never by number, and a place of
    its own; the sergeant chosen to stand with the fighters joins there, and every seat's log reads that it joins."""
    from playwright.sync_api import expect

    from tests.web.browser import chromium, create_from_lobby, live_server, open_seat, synced

    with live_server(tmp_path / "affray.db") as server, chromium() as browser:
        gm = open_seat(browser, server.url + "/")
        table_id = create_from_lobby(gm.page, "hud/nerdified_duel", {"vesna": "player:A"}, seed=8)
        table = server.service.table(table_id)
        synced({"gm": gm}, table.version)
        page = gm.page
        page.locator('[data-add-do="open"]').click()
        expect(page.locator("#add-place option").first).to_be_attached()
        labels = page.locator("#add-place option").all_text_contents()
        state = table.match.state
        engaged = {f.place for f in state.fighters.values()}
        assert len(engaged) == 1 and not any(label.strip().isdigit() for label in labels), labels
        names = " and ".join(f.name for f in state.fighters.values())
        assert labels[0] == f"with {names}", labels
        page.fill("#add-use", "sergeant")
        page.fill("#add-id", "orm")
        page.fill("#add-name", "Watch Sergeant Orm")
        page.select_option("#add-side", "watch")
        page.select_option("#add-place", index=0)
        page.fill("#add-reason", "the watch comes")
        page.locator('[data-add-do="add"]').click()
        expect(page.locator("#log")).to_contain_text(
            "Watch Sergeant Orm joins the fight for the watch.", timeout=10_000
        )
        assert table.match.state.fighters["orm"].place == engaged.pop()
        assert not gm.errors, gm.errors


def test_sc16_a_combatant_written_in_place_joins_from_its_yaml(served: tuple[TableService, TestClient]) -> None:
    """SC-16: the GM writes the newcomer in place, as YAML text of a scenario's combatant (a library entry renamed
    here, its stats as the library gives them); it joins like one given as an object, and its record holds the
    resolved entry. Text that is no mapping, or too long, is refused as bad_combatant with a sentence; nothing
    changes."""
    _service, client = served
    table, tokens = open_table(client)
    gm = tokens["gm"]
    before = get(client, table, gm)
    for text, message in (
        ("- just\n- a list\n", "add: one combatant's fields, as a scenario writes one (id, name, use or stats...)."),
        ("name: x\n" + "#" * 9000, "add: a combatant written in place is at most 8192 bytes."),
    ):
        refused = adjust(client, table, gm, {"add": text, "side": "pack", "place": [3, 4]})
        assert refused.status_code == 422, refused.text
        assert (refused.json()["code"], refused.json()["message"]) == ("bad_combatant", message)
    after = get(client, table, gm)
    assert (after["version"], after["view"]) == (before["version"], before["view"])
    text = "id: grey_jackal\nname: The Grey One\nuse: ash_jackal\n"
    answer = adjust(client, table, gm, {"add": text, "side": "pack", "place": [3, 4]}, reason="out of the smoke")
    assert answer.status_code == 200, answer.text
    message = get(client, table, tokens["oriel"])
    grey = next(c for c in message["view"]["combatants"] if c["id"] == "grey_jackal")
    assert (grey["name"], grey["position"]["x"], grey["position"]["y"]) == ("The Grey One", 3, 4)
    assert [b["value"] for b in grey["bars"] if b["name"] == "HP"] == [13]
    assert message["log"][-1]["events"][-1]["text"] == "The Grey One joins the fight for the pack."
