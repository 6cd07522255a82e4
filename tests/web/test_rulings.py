"""GM rulings through the server, in every ruleset: every change form (a bar, a status given and removed, a position,
out of the fight and back) is accepted, seen in the views, read by every seat as a ruling line in the log, refused
to a player, taken back by the GM's take back, and verified with the rest of the log after the end."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.log import verify
from tests.web.conftest import create
from tests.web.helpers import auth, tokens_of

# Each table has two combatants or more on the side of the one ruled on, so that taking it out ends nothing.
TABLES = {
    "witchhammer": ("witchhammer/mill_ambush", {"ilse": "human", "tomas": "human"}, "wat"),
    "spellchrome": ("spellchrome/crossroads_2v2", {"oriel": "human", "kestrin": "human"}, "cut2"),
    "hud": ("hud/nerdified_night_widow", {"vesna": "human", "ilka": "human", "widow": "human"}, "ilka"),
    "warp": ("warp/melee_brawl", {"dana": "human", "theo": "human"}, "thug3"),
}


def get(client: TestClient, table: str, token: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/tables/{table}", headers=auth(token)).json()
    return data


def combatant(state: dict[str, Any], actor: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in state["view"]["combatants"] if c["id"] == actor)
    return found


def a_position(state: dict[str, Any], actor: str, forms: dict[str, Any]) -> Any:
    """Somewhere else for ``actor`` to stand: a free open square, a metre further on the line, another place."""
    me = combatant(state, actor)["position"]
    if forms["position"] == "square":
        rows = state["view"]["detail"]["map"]
        taken = {(c["position"]["x"], c["position"]["y"]) for c in state["view"]["combatants"] if c["position"]}
        return next(
            [x, y]
            for y, row in enumerate(rows)
            for x, ch in enumerate(row)
            if ch == "." and (x, y) not in taken and abs(x - me["x"]) + abs(y - me["y"]) <= 3
        )
    if forms["position"] == "line":
        return me["x"] + 1
    return next(p for p in forms["places"] if str(p) != str(me["x"]))


def rule(client: TestClient, table: str, gm: str, *changes: dict[str, Any], reason: str = "") -> Any:
    version = get(client, table, gm)["version"]
    return client.post(
        f"/api/tables/{table}/gm/adjust",
        headers=auth(gm),
        json={"version": version, "reason": reason, "changes": list(changes)},
    )


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_every_change_form_reaches_every_seat_is_refused_to_players_taken_back_and_verified(
    client: TestClient, ruleset: str
) -> None:
    example, controllers, actor = TABLES[ruleset]
    created = create(client, example, seed=6, controllers=controllers)
    table, tokens = created["table"], tokens_of(created)
    gm = tokens["gm"]
    forms = client.get(f"/api/tables/{table}/gm/adjust", headers=auth(gm)).json()["combatants"][actor]
    player = next(seat for seat in tokens if seat not in ("gm", "spectator"))
    refused = client.post(
        f"/api/tables/{table}/gm/adjust",
        headers=auth(tokens[player]),
        json={"version": 0, "reason": "", "changes": [{"combatant": actor, "out": True}]},
    )
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"
    ruled = 0
    # a bar, one below its maximum (or above its minimum)
    bar = forms["bars"][0]
    now = next(b["value"] for b in combatant(get(client, table, gm), actor)["bars"] if b["name"] == bar["name"])
    value = now - 1 if now - 1 >= bar["min"] else now + 1
    answer = rule(client, table, gm, {"combatant": actor, "bar": bar["name"], "value": value}, reason="a ruling")
    assert answer.status_code == 200, answer.text
    ruled += 1
    gm_bar = next(b for b in combatant(get(client, table, gm), actor)["bars"] if b["name"] == bar["name"])
    assert gm_bar["value"] == value
    # a status, given and removed (the first one this combatant may be given now)
    given = None
    for status in forms["statuses"]:
        answer = rule(client, table, gm, {"combatant": actor, "status": status, "rounds": None})
        if answer.status_code == 200:
            given = status
            break
        assert answer.status_code == 422, answer.text
    if forms["statuses"]:
        assert given is not None, f"no status of {forms['statuses']} could be given"
        ruled += 1
        assert given.lower() in [s["name"].lower() for s in combatant(get(client, table, gm), actor)["statuses"]]
        answer = rule(client, table, gm, {"combatant": actor, "remove_status": given})
        assert answer.status_code == 200, answer.text
        ruled += 1
    if forms["position"] is not None:
        where = a_position(get(client, table, gm), actor, forms)
        answer = rule(client, table, gm, {"combatant": actor, "position": where})
        assert answer.status_code == 200, answer.text
        ruled += 1
    assert rule(client, table, gm, {"combatant": actor, "out": True}).status_code == 200
    assert rule(client, table, gm, {"combatant": actor, "out": False}).status_code == 200
    ruled += 2
    for seat, token in tokens.items():
        lines = [
            e["text"]
            for entry in get(client, table, token)["log"]
            if entry["kind"] == "gm"
            for e in entry["events"]
            if e["type"] == "ruled"
        ]
        assert len(lines) >= ruled and all(line.startswith("GM ruling") for line in lines), (seat, lines)
    # the GM takes the last ruling back: the combatant is out again
    state = get(client, table, gm)
    back = client.post(
        f"/api/tables/{table}/gm/take_back",
        headers=auth(gm),
        json={"to": state["version"] - 1, "version": state["version"], "confirm": True},
    )
    assert back.status_code == 200, back.text
    assert combatant(get(client, table, gm), actor)["down"] is True
    assert client.post(f"/api/tables/{table}/gm/end", headers=auth(gm)).status_code == 200
    log = client.get(f"/api/tables/{table}/log", headers=auth(gm)).json()
    report = verify(log)
    assert report.ok, report.problems
    assert sum(r["kind"] == "gm" for r in log["records"]) >= ruled
