"""The table server reaches rulesets only through their records: the examples a ruleset's record names (a ruleset
registered in code included), the GM's countdown its record declares, the panels its views declare."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from affray.core.plugin import register, unregister
from tests.core.toy import PLUGIN as TOY
from tests.web.conftest import create
from tests.web.helpers import auth


@pytest.fixture
def toy() -> Iterator[None]:
    register(TOY)
    try:
        yield
    finally:
        unregister("toy")


def seat_state(client: TestClient, table: str, token: str, **params: Any) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", headers=auth(token), params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_the_lobby_lists_the_examples_of_a_ruleset_registered_in_code_and_opens_them(
    client: TestClient, toy: None
) -> None:
    listed = {e["name"]: e for e in client.get("/api/examples").json()}
    assert {k: listed["toy/sealed_duel"][k] for k in ("ruleset", "title")} == {
        "ruleset": "toy",
        "title": "Toy sealed duel",
    }
    assert [(c["id"], c["controller"]) for c in listed["toy/sealed_duel"]["combatants"]] == [
        ("a", "human"),
        ("b", "random"),
    ]
    assert "witchhammer/mill_ambush" in listed  # the built-in names, from the built-in records
    created = create(client, "toy/sealed_duel", seed=1)
    # once Bob's policy has bid (the long poll waits, bounded, for version 1)
    view = seat_state(client, created["table"], created["seats"]["a"]["token"], since=0, timeout=10)["view"]
    assert view["panels"] == ["facts"]
    assert view["detail"]["facts"] == {
        "title": "Sealed bids",
        "rows": [{"label": "Alice", "value": "no bid yet"}, {"label": "Bob", "value": "face down"}],
    }


def test_an_example_of_a_ruleset_no_longer_registered_is_unknown(client: TestClient) -> None:
    assert not [e for e in client.get("/api/examples").json() if e["ruleset"] == "toy"]
    answer = client.post("/api/tables", json={"scenario": "toy/sealed_duel"})
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_scenario"


def test_the_gm_countdown_is_offered_where_the_record_declares_it_and_its_option_is_on(
    client: TestClient, toy: None
) -> None:
    """Rule: WH-B20 (the Drama Timer: WitchHammer's record declares it, the option drama_timer turns it on)."""
    on = create(client, options={"drama_timer": True}, seed=3)
    assert seat_state(client, on["table"], on["gm"]["token"])["countdown"] == {
        "name": "Drama Timer",
        "rule": "WH-B20",
        "seconds": 90,
    }
    off = create(client, seed=3)
    assert seat_state(client, off["table"], off["gm"]["token"])["countdown"] is None
    refused = client.post(
        f"/api/tables/{off['table']}/gm/timer", json={"seconds": 30}, headers=auth(off["gm"]["token"])
    )
    assert refused.status_code == 422 and refused.json() == {
        "code": "no_timer",
        "message": "The Drama Timer is off in this match (the rule option drama_timer).",
        "rules": ["WH-B20"],  # the rule ID beside the sentence, not in it
    }
    toy_table = create(client, "toy/sealed_duel", seed=1)
    refused = client.post(
        f"/api/tables/{toy_table['table']}/gm/timer", json={"seconds": 30}, headers=auth(toy_table["gm"]["token"])
    )
    assert refused.status_code == 422 and refused.json()["message"] == (
        "This ruleset has no countdown for the GM to start."
    )
