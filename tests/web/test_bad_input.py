"""Bad input (docs/table.md, 'Bad input'): malformed JSON, unknown fields, huge bodies, wrong types, unknown tables
and seats all get a 4xx with a code and a sentence, and the table does not change (a hypothesis test over the API)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.table import TableService
from tests.web.conftest import create
from tests.web.helpers import auth

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
PATHS = ["/actions", "/take_back", "/gm/take_back", "/gm/timer", "/gm/seats/nobody/token", ""]
SEATS = ["gm", "ilse", "spectator", "none"]


def bodies() -> st.SearchStrategy[bytes]:
    raw = st.binary(max_size=200)
    junk_json = JSON.map(lambda v: json.dumps(v).encode())
    near = st.fixed_dictionaries(
        {
            "actor": st.sampled_from(["ilse", "hob", "", "x" * 100]) | JSON,
            "action": JSON,
            "version": st.integers(-5, 5) | JSON,
        },
        optional={"id": JSON, "extra": JSON, "to": JSON, "confirm": JSON, "seconds": st.floats(allow_nan=False) | JSON},
    ).map(lambda v: json.dumps(v).encode())
    return st.one_of(raw, junk_json, near)


def check_refusal(answer: Any) -> None:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    data = answer.json()
    assert isinstance(data["code"], str) and isinstance(data["message"], str) and data["message"]


def test_bad_bodies_are_refused_and_change_nothing(served: tuple[TableService, TestClient]) -> None:
    _, client = served
    created = create(client, seed=3)
    table = created["table"]
    tokens = {
        "gm": created["gm"]["token"],
        "ilse": created["seats"]["ilse"]["token"],
        "spectator": created["seats"]["spectator"]["token"],
        "none": "nope",
    }
    before = client.get(f"/api/tables/{table}", headers=auth(tokens["gm"])).json()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        path=st.sampled_from(PATHS),
        seat=st.sampled_from(SEATS),
        body=bodies(),
        target=st.sampled_from([table, "nosuchtable", "../x", table + "x"]),
    )
    def attempt(path: str, seat: str, body: bytes, target: str) -> None:
        answer = client.post(
            f"/api/tables/{target}{path}",
            content=body,
            headers={**auth(tokens[seat]), "Content-Type": "application/json"},
        )
        if seat == "gm" and path == "/gm/timer" and answer.status_code == 200:
            return  # a well-formed timer request can slip through; it appends nothing
        check_refusal(answer)

    attempt()
    after = client.get(f"/api/tables/{table}", headers=auth(tokens["gm"])).json()
    assert after["version"] == before["version"] and after["log"] == before["log"] and after["view"] == before["view"]


YAML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "ruleset",
                    "name",
                    "sides",
                    "combatants",
                    "id",
                    "use",
                    "sheet",
                    "at",
                    "content",
                    "options",
                    "gm",
                    "map",
                    "controller",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=10,
)


def test_uploaded_scenario_text_of_any_shape_is_refused_with_a_sentence(client: TestClient) -> None:
    import yaml

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        data=st.fixed_dictionaries(
            {"ruleset": st.sampled_from(["witchhammer", "hud", "warp", "spellchrome"])},
            optional={
                "sides": YAML_VALUES,
                "name": YAML_VALUES,
                "gm": YAML_VALUES,
                "options": YAML_VALUES,
                "map": YAML_VALUES,
            },
        )
    )
    def attempt(data: dict[str, Any]) -> None:
        answer = client.post("/api/tables", json={"scenario": yaml.safe_dump(data) + "\n"})
        if answer.status_code != 201:
            check_refusal(answer)

    attempt()


def test_bad_table_creations_are_refused(client: TestClient) -> None:
    cases: list[Any] = [
        b"{",
        b"[]",
        b'{"scenario": 3}',
        b'{"scenario": "witchhammer/mill_ambush", "x": 1}',
        b'{"scenario": "nowhere/at_all"}',
        b'{"scenario": "ruleset: nope\\nsides: []\\n"}',
        b'{"scenario": "witchhammer/mill_ambush", "seed": -1}',
        b'{"scenario": "witchhammer/mill_ambush", "seed": "7"}',
        b'{"scenario": "witchhammer/mill_ambush", "options": {"no_such_option": 1}}',
        b'{"scenario": "witchhammer/mill_ambush", "controllers": {"ilse": "genius"}}',
        b'{"scenario": "witchhammer/mill_ambush", "controllers": {"nobody": "human"}}',
        b'{"scenario": "../../etc/passwd"}',
    ]
    for body in cases:
        check_refusal(client.post("/api/tables", content=body, headers={"Content-Type": "application/json"}))


def test_an_uploaded_scenario_is_checked_like_content_check_and_names_no_server_files(client: TestClient) -> None:
    broken = "ruleset: witchhammer\nname: x\nsides:\n  - name: a\n    combatants: [{id: a1, use: no_such_monster}]\n"
    answer = client.post("/api/tables", json={"scenario": broken})
    check_refusal(answer)
    assert answer.json()["code"] == "bad_scenario" and answer.json()["problems"][0]["file"] == "scenario.yaml"
    sneaky = "ruleset: hud\nname: x\ncontent: [/etc]\nsides: []\n"
    assert client.post("/api/tables", json={"scenario": sneaky}).json()["problems"][0]["field"] == "content"
    with open("examples/witchhammer/yard_duel.yaml", encoding="utf-8") as f:
        assert client.post("/api/tables", json={"scenario": f.read()}).status_code == 201


def test_a_huge_body_is_refused_with_413(client: TestClient) -> None:
    answer = client.post(
        "/api/tables", content=b"{" + b" " * (300 * 1024) + b"}", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    check_refusal(client.get("/api/nothing"))
    check_refusal(client.delete("/api/tables"))
    check_refusal(client.get("/api/tables/x", params={"since": "soon"}, headers=auth("x")))
