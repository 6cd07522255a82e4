"""Hidden foes through the table server, in every ruleset (docs/table.md, "Hidden foes"; DESIGN.md contract 6).

A scenario combatant with ``hidden: true`` reaches no seat but the GM's: not its id nor its name, in any seat's
message, log, ``since``, compact text or push (protocol 1 and 2), until the GM reveals it (a ruling's ``{"combatant":
ID, "reveal": true}``) or it acts on another seat's combatant; then every seat sees it as the GM does. An action aimed
at it is refused exactly as one aimed at nobody; the reveal is taken back like any ruling and the log verifies with
``affray verify``. Rules: X-1 (every roll logged and verified), X-5 (what each seat may see).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from affray.api import scenario_from_data
from affray.core.chain import public_form
from affray.core.engine import SPECTATOR
from affray.core.match import Match
from affray.store import Store
from affray.table import TableService
from affray.table.feed import Follower, Push
from affray.table.messages import compact_text
from affray.table.snapshot import load, take
from affray.table.tokens import token_hash
from tests.cli_run import affray
from tests.web.helpers import auth, make_app, tokens_of
from tests.web.inprocess import InProcessClient

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# ruleset: (example, the foe that hides, its name, who plays whom)
TABLES: dict[str, tuple[str, str, str, dict[str, str]]] = {
    "spellchrome": (
        "spellchrome/jackal_pack.yaml",
        "jackal3",
        "Ash Jackal Cinder",
        {"oriel": "human", "kestrin": "human", "ambry": "human", "jackal1": "gm", "jackal2": "gm", "jackal3": "gm"},
    ),
    "warp": (
        "warp/melee_brawl.yaml",
        "thug3",
        "Dock Thug Who Hums",
        {"dana": "human", "theo": "human", "thug1": "gm", "thug2": "gm", "thug3": "gm"},
    ),
    "hud": (
        "hud/simplified_ambush.yaml",
        "drowner2",
        "Weedy Drowner",
        {"ilka": "human", "drowner1": "gm", "drowner2": "gm"},
    ),
    "witchhammer": (
        "witchhammer/mill_ambush.yaml",
        "dick",
        "Dickon",
        {"ilse": "human", "tomas": "human", "dick": "gm"},
    ),
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableService, TestClient]]:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service, app = make_app(store)
        with InProcessClient(app) as client:
            yield service, client
        service.close()


def scenario_text(ruleset: str) -> str:
    """The example with its foe written ``hidden: true``."""
    example, hidden, _, _ = TABLES[ruleset]
    data = yaml.safe_load((EXAMPLES / example).read_text())
    for side in data["sides"]:
        for combatant in side["combatants"]:
            if combatant["id"] == hidden:
                combatant["hidden"] = True
    return yaml.safe_dump(data, sort_keys=False)


def open_table(client: TestClient, ruleset: str, seed: int = 5) -> tuple[str, dict[str, str]]:
    answer = client.post(
        "/api/tables", json={"scenario": scenario_text(ruleset), "seed": seed, "controllers": TABLES[ruleset][3]}
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["table"], tokens_of(answer.json())


def get(client: TestClient, table: str, token: str, path: str = "") -> Any:
    answer = client.get(f"/api/tables/{table}{path}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def adjust(client: TestClient, table: str, gm: str, *changes: dict[str, Any]) -> Any:
    version = get(client, table, gm)["version"]
    return client.post(
        f"/api/tables/{table}/gm/adjust", headers=auth(gm), json={"version": version, "reason": "", "changes": changes}
    )


def hidden_now(client: TestClient, table: str, gm: str) -> list[str]:
    listed: list[str] = get(client, table, gm, "/gm/adjust")["hidden"]
    return listed


def follow(service: TableService, table: str, token: str, patches: bool) -> list[Push]:
    """Every push the seat of ``token`` is sent from now on (protocol 2: patches after the first)."""
    heard: list[Push] = []
    live, seat = service.authenticate(table, token)
    service.follow(live, Follower(seat, token_hash(token), heard.append, patches=patches))
    return heard


def what_seats_hold(service: TableService, client: TestClient, table: str, tokens: dict[str, str]) -> dict[str, str]:
    """Everything each seat but the GM's reads now, as one text: its message (from version 0 and from the last
    version, ``since``), its log, its compact text."""
    out = {}
    for seat, token in tokens.items():
        if seat == "gm":
            continue
        message = get(client, table, token)
        since = client.get(
            f"/api/tables/{table}", headers=auth(token), params={"since": max(0, message["version"] - 1)}
        ).json()
        live, info = service.authenticate(table, token)
        with live.lock:
            compact = compact_text(live, info)
        out[seat] = json.dumps([message, since, get(client, table, token, "/log"), compact])
    return out


def assert_unseen(texts: dict[str, str], hidden: str, name: str) -> None:
    for seat, text in texts.items():
        assert hidden not in text and name not in text, (seat, text[max(0, text.find(hidden) - 300) :][:400])


def random_move(client: TestClient, table: str, tokens: dict[str, str], rng: random.Random) -> bool:
    """The first seat with a due actor takes a random legal action (the GM's included); False when none can."""
    for token in tokens.values():
        state = get(client, table, token)
        for actor, specs in state["legal"].items():
            if specs:
                spec = rng.choice(specs)
                body = {"actor": actor, "action": spec["action"], "version": state["version"]}
                answer = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
                assert answer.status_code == 200, answer.text
                return True
    return False


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_x5_a_hidden_foe_reaches_no_other_seat_until_it_is_revealed(
    served: tuple[TableService, TestClient], ruleset: str
) -> None:
    """While the foe hides, no player's nor the spectator's message, ``since``, log, compact text or push (protocol
    1 and 2) holds its id or name, its own records read "The GM acts.", and the chain's public form of every record
    is the spectator's; then it is revealed (by itself or by the GM) and every seat's view holds it as the GM's does."""
    service, client = served
    _, hidden, name, _ = TABLES[ruleset]
    table, tokens = open_table(client, ruleset)
    gm = tokens["gm"]
    pushes = [
        follow(service, table, token, patches)
        for seat, token in tokens.items()
        if seat != "gm"
        for patches in (False, True)
    ]
    assert hidden in json.dumps(get(client, table, gm)) and hidden_now(client, table, gm) == [hidden]
    rng = random.Random(3)
    concealed = 0
    for _ in range(40):
        assert_unseen(what_seats_hold(service, client, table, tokens), hidden, name)
        assert_unseen({str(i): json.dumps([p.text for p in heard]) for i, heard in enumerate(pushes)}, hidden, name)
        spectator_log = get(client, table, tokens["spectator"])["log"]  # told: each entry with its text
        concealed = sum(entry["action"] == {"type": "concealed"} for entry in spectator_log)
        assert all(entry["text"] == "The GM acts." for entry in spectator_log if entry["action"]["type"] == "concealed")
        if not random_move(client, table, tokens, rng) or hidden not in hidden_now(client, table, gm):
            break
    live, _ = service.authenticate(table, gm)
    with live.lock:
        records = [r.to_dict() for r in live.match.records]
    spectator_log = get(client, table, tokens["spectator"], "/log")["log"]
    for record, seen in zip(records, spectator_log, strict=True):
        form = public_form(record, b"k" * 32)  # what the chain links: a hidden foe's record as the spectator's
        if seen["action"] == {"type": "concealed"} or form["action"] == {"type": "concealed"}:
            assert (form["seat"], form["actor"], form["action"]) == (seen["seat"], seen["actor"], seen["action"])
            assert hidden not in json.dumps(form) and name not in json.dumps(form)
    gm_records = [r for r in get(client, table, gm, "/log")["log"] if r["actor"] == hidden]
    assert concealed >= sum(1 for r in gm_records if not any(e["type"] == "unhidden" for e in r["events"])) - 1
    if hidden in hidden_now(client, table, gm):
        assert adjust(client, table, gm, {"combatant": hidden, "reveal": True}).status_code == 200
    told = [e["text"] for entry in get(client, table, tokens["spectator"])["log"] for e in entry["events"]]
    assert any(
        text in (f"{name} steps out of hiding.", f"The GM reveals {name}: it was hidden until now.") for text in told
    )
    assert hidden not in hidden_now(client, table, gm)
    for seat, token in tokens.items():
        mine = next(c for c in get(client, table, token)["view"]["combatants"] if c["id"] == hidden)
        assert mine == as_if_never_hidden(service, table, token, hidden), seat


def as_if_never_hidden(service: TableService, table: str, token: str, combatant: str) -> dict[str, Any]:
    """``combatant`` in the seat's view as the ruleset projects it for that seat, with no hiding at all."""
    live, seat = service.authenticate(table, token)
    with live.lock:
        match = live.match
        view: dict[str, Any] = match.ruleset.view(
            match.state, match.viewer(live.match_seat(seat)), match.memo
        ).to_json()
    found: dict[str, Any] = next(c for c in view["combatants"] if c["id"] == combatant)
    return found


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_x5_the_gm_reveals_a_hidden_foe_takes_it_back_and_the_log_verifies(
    served: tuple[TableService, TestClient], ruleset: str, tmp_path: Path
) -> None:
    """At the start the foe is in the GM's order and view only; revealed, every seat's view holds it where the scenario
    put it, with its full bars, and the order is the GM's; the GM's take back hides it again; revealed once more, the
    fight is ended and its log verifies with ``affray verify``."""
    service, client = served
    example, hidden, name, _ = TABLES[ruleset]
    table, tokens = open_table(client, ruleset)
    gm, spectator = tokens["gm"], tokens["spectator"]
    gm_view = get(client, table, gm)["view"]
    foe = next(c for c in gm_view["combatants"] if c["id"] == hidden)
    start = next(
        c
        for s in yaml.safe_load((EXAMPLES / example).read_text())["sides"]
        for c in s["combatants"]
        if c["id"] == hidden
    )
    placed = start.get("position", start.get("at"))
    if isinstance(placed, list):
        assert (foe["position"]["x"], foe["position"]["y"]) == tuple(placed)
    elif placed is not None:
        assert foe["position"]["x"] == placed
    assert all(b["value"] == (0 if b["name"] == "Wounds" else b["max"]) for b in foe["bars"]), foe["bars"]
    before = get(client, table, spectator)["view"]
    assert before["order"] == [a for a in gm_view["order"] if a != hidden]
    assert hidden not in [c["id"] for c in before["combatants"]]
    answer = adjust(client, table, gm, {"combatant": hidden, "reveal": True})
    assert answer.status_code == 200, answer.text
    revealed_at = answer.json()["version"] - 1
    for token in tokens.values():
        view = get(client, table, token)["view"]
        assert view["order"] == gm_view["order"]
        mine = next(c for c in view["combatants"] if c["id"] == hidden)
        assert (mine["name"], mine["position"]) == (name, foe["position"])
        assert mine == as_if_never_hidden(service, table, token, hidden)  # its bars as the seat may read them
    line = get(client, table, spectator)["log"][-1]
    assert [e["text"] for e in line["events"]] == [f"The GM reveals {name}: it was hidden until now."]
    assert hidden_now(client, table, gm) == []
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": revealed_at, "version": revealed_at + 1, "confirm": True},
    )
    assert back.status_code == 200, back.text
    assert hidden_now(client, table, gm) == [hidden]
    assert hidden not in json.dumps(get(client, table, spectator)["view"])
    assert adjust(client, table, gm, {"combatant": hidden, "reveal": True}).status_code == 200
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    for seat in ("gm", "spectator"):
        saved = tmp_path / f"{seat}.json"
        saved.write_text(json.dumps(get(client, table, tokens[seat], "/log")))
        done = affray("verify", str(saved))
        assert done.returncode == 0, done.stdout + done.stderr


def refusal(
    client: TestClient, table: str, token: str, actor: str, action: dict[str, Any], version: int
) -> tuple[int, str, str]:
    answer = client.post(
        f"/api/tables/{table}/actions", headers=auth(token), json={"actor": actor, "action": action, "version": version}
    )
    body = answer.json()
    return answer.status_code, body["code"], body["message"]


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_x5_an_action_aimed_at_a_hidden_foe_is_refused_as_one_aimed_at_nobody(
    served: tuple[TableService, TestClient], ruleset: str
) -> None:
    """A player's attack on the hidden foe's id gets the very code and sentence of an attack on an id nobody has;
    acting for it, the refusal of acting for nobody; the GM's reveal of a combatant in plain sight, of nobody, or
    with ``reveal: false`` is refused with its own code. Nothing changes."""
    _, client = served
    _, hidden, name, _ = TABLES[ruleset]
    table, tokens = open_table(client, ruleset)
    gm = tokens["gm"]
    rng = random.Random(1)
    aimed = None
    # until a player may aim at somebody (WitchHammer's players never name a target: its cards' rules choose it)
    for _ in range(0 if ruleset == "witchhammer" else 30):
        for seat, token in tokens.items():
            if seat == "gm":
                continue
            state = get(client, table, token)
            for actor, specs in state["legal"].items():
                aimed = aimed or next(
                    (
                        (token, actor, s["action"], state["version"])
                        for s in specs
                        if isinstance(s["action"].get("target"), str)
                    ),
                    None,
                )
        if aimed is not None or not random_move(client, table, tokens, rng) or not hidden_now(client, table, gm):
            break
    assert hidden_now(client, table, gm) == [hidden]
    before = get(client, table, gm)
    player = next(seat for seat in tokens if seat not in ("gm", "spectator"))
    version = before["version"]
    for_nobody = refusal(client, table, tokens[player], "nobody9", {"type": "pass"}, version)
    for_hidden = refusal(client, table, tokens[player], hidden, {"type": "pass"}, version)
    assert for_hidden == tuple(x.replace("nobody9", hidden) if isinstance(x, str) else x for x in for_nobody)
    if aimed is not None:
        token, actor, action, at = aimed
        at_nobody = refusal(client, table, token, actor, {**action, "target": "nobody9"}, at)
        at_hidden = refusal(client, table, token, actor, {**action, "target": hidden}, at)
        assert at_nobody[0] == 422
        assert at_hidden == (at_nobody[0], at_nobody[1], at_nobody[2].replace("nobody9", hidden))
        assert name not in at_hidden[2]
    else:
        assert ruleset == "witchhammer"  # its players' cards name no target: the rules choose it
    visible = next(c["id"] for c in before["view"]["combatants"] if c["id"] != hidden)
    shown = adjust(client, table, gm, {"combatant": visible, "reveal": True})
    assert shown.status_code == 422 and shown.json()["code"] == "not_hidden"
    assert shown.json()["message"].endswith("is not hidden: every seat sees it already.")
    nobody = adjust(client, table, gm, {"combatant": "nobody9", "reveal": True})
    assert nobody.status_code == 422 and nobody.json()["code"] == "unknown_combatant"
    false = adjust(client, table, gm, {"combatant": hidden, "reveal": False})
    assert false.status_code == 422 and false.json()["code"] == "bad_change"
    after = get(client, table, gm)
    assert (after["version"], after["view"]) == (version, before["view"])
    assert hidden_now(client, table, gm) == [hidden]


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_x5_a_snapshot_and_a_replay_hide_what_the_match_hid(ruleset: str) -> None:
    """A table rebuilt from its snapshot (table/snapshot.py) or replayed from its log tells every seat the same views
    and logs as the match it was taken of, and hides the same combatants, at every step while the foe hides."""
    _, hidden, _, controllers = TABLES[ruleset]
    scenario = scenario_from_data(yaml.safe_load(scenario_text(ruleset)), "hidden.yaml")
    seats = {**scenario.seats, **{a: "gm" for a, c in controllers.items() if c == "gm"}}
    match = Match(scenario.plugin, scenario.setup, scenario.options, seed=bytes(range(32)), seats=seats)
    rng = random.Random(ruleset)
    checked = 0
    for _ in range(25):
        window = match.pending()
        if window is None or hidden not in match.hidden:
            break
        back = match.fresh()
        load(back, take(match, "head"), [r.to_dict(events=False) for r in match.records], "head")
        replayed = match.replayed()
        for seat in [*match.seat_names(), SPECTATOR]:
            told = [
                json.dumps([m.view_json(seat), m.events_since(0, seat, narrate=True)]) for m in (match, back, replayed)
            ]
            assert told[0] == told[1] == told[2], seat
        assert back.hidden == replayed.hidden == match.hidden == {hidden: TABLES[ruleset][2]}
        checked += 1
        match.act(window.actors[0], rng.choice(match.legal(window.actors[0])).action)
    assert checked >= 2
