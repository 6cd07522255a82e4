"""Secrets (docs/table.md, 'The security model'): over playouts of every example scenario through the API, no response
and no WebSocket message to a seat (the GM's included) holds another seat's secret (``Ruleset.secrets``) nor, to a seat
that may not see them, GM-level numbers (``Ruleset.gm_secrets``) or a GM ruling's hidden changes, in any part of any
record: not the first state, not the log, not after an undo, not in an error message; and the seed appears nowhere
before the end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.engine import SPECTATOR
from affray.table import TableService
from tests.conformance.common import ruling_secrets
from tests.sweep import rounds, sample
from tests.web.helpers import auth, tokens_of

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_FILES = sorted(p for p in (ROOT / "examples").rglob("*.yaml") if "\nsides:" in p.read_text(encoding="utf-8"))
EXAMPLES = [
    str(p.relative_to(ROOT / "examples").with_suffix("")) for p in sample(SCENARIO_FILES)
]  # make test-quick: a sample (tests/sweep.py)
MOVES = rounds(40, 24)  # make test-quick: the first 24 (the take-back comes at the tenth)


class Watch:
    """Checks every message a seat receives against the secrets and the seed of the moment."""

    def __init__(self, service: TableService, table: str) -> None:
        self.table = service.table(table)
        self.checked = 0

    def __call__(self, seat: str, message: Any) -> None:
        with self.table.lock:
            match, over = self.table.match, self.table.over
            viewer = match.viewer(SPECTATOR if seat == "spectator" else seat)
            hidden = [
                (owner, value) for owner, value in match.ruleset.secrets(match.state) if not viewer.may_open(owner)
            ]
            # GM-level numbers and the GM rulings' hidden changes, in any record's action or events too, until the
            # end (the log is whole then: the setup holds every sheet)
            hidden += [
                (owner, value)
                for owner, value in [*match.ruleset.gm_secrets(match.state), *ruling_secrets(match)]
                if not viewer.may_see(owner) and not over
            ]
        text = json.dumps(message, sort_keys=True)
        for owner, value in hidden:
            needle = json.dumps(value, sort_keys=True)
            at = text.find(needle)
            assert at < 0, f"{seat} saw {owner}'s secret {value!r} in ...{text[max(0, at - 300) : at]}"
        if not over:
            assert self.table.seed_hex not in text, f"{seat} saw the seed before the end"
        self.checked += 1


def everyone_human(service: TableService, client: TestClient, scenario: str, seed: int) -> dict[str, Any]:
    probe = client.post("/api/tables", json={"scenario": scenario, "seed": seed}).json()
    actors = list(service.table(probe["table"]).match.controllers)
    created = client.post(
        "/api/tables", json={"scenario": scenario, "seed": seed, "controllers": {a: "human" for a in actors}}
    )
    assert created.status_code == 201, created.text
    data: dict[str, Any] = created.json()
    return data


@pytest.mark.parametrize("scenario", EXAMPLES)
def test_no_seat_ever_receives_another_seats_secret(served: tuple[TableService, TestClient], scenario: str) -> None:
    service, client = served
    created = everyone_human(service, client, scenario, seed=17)
    table, tokens = created["table"], tokens_of(created)
    watch = Watch(service, table)
    rng = random.Random(scenario)
    seen = dict.fromkeys(tokens, 0)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['gm']}") as gm_socket:
        watch("gm", gm_socket.receive_json())
        undone = False
        for move in range(MOVES):
            version = service.table(table).version
            events = _step(client, table, tokens, rng, watch, move % 10 == 0, seen)
            if events is None or service.table(table).over:
                break
            # The GM takes one action back (one that revealed nothing: taking back a reveal shows everyone the
            # card before it is placed again, which is no leak); nothing hidden may come out of the replay.
            if move >= 10 and not undone and not any(e["type"] in ("revealed", "rolled") for e in events):
                undone = True
                client.post(
                    f"/api/tables/{table}/gm/take_back",
                    headers=auth(tokens["gm"]),
                    json={"to": version, "version": version + 1, "confirm": True},
                )
            while (pushed := gm_socket.receive_json())["version"] < service.table(table).version:
                watch("gm", pushed)
            watch("gm", pushed)
        for seat, token in tokens.items():
            watch(seat, client.get(f"/api/tables/{table}/log", headers=auth(token)).json())
    assert watch.checked > 10


def _step(
    client: TestClient,
    table: str,
    tokens: dict[str, str],
    rng: random.Random,
    watch: Watch,
    compact: bool,
    seen: dict[str, int],
) -> list[dict[str, Any]] | None:
    """Every seat looks (checked); the first with a due actor acts (its answer's events are returned, None if
    nobody could act); errors are checked too.

    A seat asks for the log from the version it last saw on (``since``, as a polling client does; at least the
    last record, so the request never waits; nothing before the first), so each record is searched once per seat
    when it is new and the whole log once per seat at the end: linear in the fight's length, where asking for the
    whole log at every move was quadratic. Every tenth move the compact form still carries the whole log."""
    acted: list[dict[str, Any]] | None = None
    for seat, token in tokens.items():
        version = watch.table.version
        since = {"since": min(seen[seat], version - 1)} if version > 0 else {}  # below the version: no wait
        state = client.get(f"/api/tables/{table}", params=since, headers=auth(token)).json()
        seen[seat] = state["version"]
        watch(seat, state)
        if compact:
            watch(seat, client.get(f"/api/tables/{table}", params={"compact": 1}, headers=auth(token)).text)
        if acted is not None or not state["legal"]:
            continue
        actor, specs = rng.choice(sorted(state["legal"].items()))
        wrong = client.post(
            f"/api/tables/{table}/actions",
            headers=auth(token),
            json={"actor": actor, "action": {"type": "place", "card": "?"}, "version": state["version"]},
        )
        watch(seat, wrong.json())
        answer = client.post(
            f"/api/tables/{table}/actions",
            headers=auth(token),
            json={"actor": actor, "action": rng.choice(specs)["action"], "version": state["version"]},
        )
        watch(seat, answer.json())
        if answer.status_code == 200:
            acted = answer.json()["events"]
    return acted
