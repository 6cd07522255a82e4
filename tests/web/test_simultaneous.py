"""Two players who click at the same instant in a simultaneous phase are both taken, 50 times over (10 in ``make
test-quick``), through the server (two threads released together); a real conflict (one player from two tabs) is
still refused. The phases: WitchHammer's Psych and Planning (WH-02, WH-03: everyone places cards at once) and the Sim
HuD's pursuit (WL-22: the pursuers each choose to chase, shoot or let go)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from affray.ai.base import get_policy
from affray.core.rng import FastRNG
from affray.table import TableService
from tests.sweep import rounds
from tests.web.conftest import create
from tests.web.helpers import auth, race, tokens_of

ROUNDS = rounds(50, 10)  # make test-quick: 10 (tests/sweep.py)


def body(service: TableService, table: str, actor: str, kind: str) -> dict[str, Any]:
    """A move of ``kind`` for ``actor``, chosen at the table's version now (what its page offers)."""
    live = service.table(table)
    with live.lock:
        spec = next(s for s in live.match.legal(actor) if s.action["type"] == kind)
        return {"actor": actor, "action": spec.action, "version": live.version}


def test_both_players_are_taken_in_psych_and_planning_and_one_player_twice_is_refused(
    served: tuple[TableService, TestClient],
) -> None:
    """Rules: WH-02 (Psych cards face down, all at once), WH-03 (Planning, all at once)."""
    service, client = served
    taken = conflicts = 0
    for seed in range(ROUNDS):
        created = create(
            client,
            "witchhammer/mill_ambush",
            seed=seed,
            controllers={"ilse": "human", "tomas": "human", "hob": "gm", "wat": "gm", "dick": "gm"},
        )
        table, tokens = created["table"], tokens_of(created)
        live = service.table(table)
        for phase, kind in (("psych", "psych"), ("planning", "place")):
            window = live.match.pending()
            assert window is not None and window.phase == phase
            answers = race(
                table,
                [
                    (client, tokens["ilse"], body(service, table, "ilse", kind)),
                    (client, tokens["tomas"], body(service, table, "tomas", kind)),
                ],
            )
            assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
            assert sorted(a.json().get("chosen_at") is not None for a in answers) == [False, True]
            taken += 2
            # the same player from two tabs, each chose at the same version: one in, one refused
            twice = body(service, table, "ilse", "ready")
            answers = race(table, [(client, tokens["ilse"], twice), (client, tokens["ilse"], twice)])
            assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
            assert next(a for a in answers if a.status_code == 409).json()["reason"] == "acted_since"
            conflicts += 1
            for actor, seat in (("tomas", "tomas"), ("hob", "gm"), ("wat", "gm"), ("dick", "gm")):
                if actor in (live.match.pending() or window).actors:  # the rest get ready (default cards)
                    done = client.post(
                        f"/api/tables/{table}/actions",
                        headers=auth(tokens[seat]),
                        json=body(service, table, actor, "ready"),
                    )
                    assert done.status_code == 200, done.text
    assert (taken, conflicts) == (4 * ROUNDS, 2 * ROUNDS)


def to_pursuit(service: TableService, client: TestClient, table: str, tokens: dict[str, str], rng: FastRNG) -> bool:
    """Play the Night-Widow fight (the GM's Widow disengages at its first chance, everyone else as the heuristic
    policy would) until the pursuers must choose: True, or False if the fight ended first."""
    live = service.table(table)
    seat_of = {"vesna": "vesna", "ilka": "ilka", "widow": "gm"}
    for _ in range(400):
        with live.lock:
            window = live.match.pending()
            if window is None:
                return False
            if window.phase == "pursuit" and len(window.actors) == 2:
                return True
        with live.lock:
            actor = window.actors[0]
            legal = live.match.legal(actor)
            flee = next((s.action for s in legal if s.action.get("type") == "disengage"), None)
            action = (
                flee
                if actor == "widow" and flee is not None
                else get_policy("hud", "heuristic").choose(live.match.observe(actor), live.match.choices(actor), rng)
            )
            version = live.version
        answer = client.post(
            f"/api/tables/{table}/actions",
            headers=auth(tokens[seat_of[actor]]),
            json={"actor": actor, "action": action, "version": version},
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("no pursuit in 400 moves")


def test_both_pursuers_are_taken_when_they_choose_at_once(served: tuple[TableService, TestClient]) -> None:
    """Rule: WL-22 (each pursuer chooses to chase, shoot or let go; the pursuit is resolved once all have)."""
    service, client = served
    pursuits = 0
    seed = 0
    while pursuits < ROUNDS:
        seed += 1
        assert seed < 4 * ROUNDS, f"only {pursuits} pursuits in {seed} fights"
        created = create(
            client,
            "hud/nerdified_night_widow",
            seed=seed,
            controllers={"vesna": "human", "ilka": "human", "widow": "gm"},
        )
        table, tokens = created["table"], tokens_of(created)
        if not to_pursuit(service, client, table, tokens, FastRNG(seed)):
            continue
        answers = race(
            table,
            [
                (client, tokens["vesna"], body(service, table, "vesna", "let_go")),
                (client, tokens["ilka"], body(service, table, "ilka", "let_go")),
            ],
        )
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        pursuits += 1
    assert pursuits == ROUNDS
