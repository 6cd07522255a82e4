"""Answers sent as they are (``affray.web.text.JsonRoute``): every API route's dictionary answer goes out as the
service made it, with the route's status code, written by orjson as compact UTF-8 JSON; no API route is left to
FastAPI's slower walk (docs/performance.md, "HTTP answers")."""

from __future__ import annotations

import json
from pathlib import Path

import fastapi.routing
import pytest
from fastapi.testclient import TestClient

from affray.store import Store
from affray.web.text import SafeJSONResponse
from tests.web.helpers import auth, make_app, tokens_of


def test_every_api_route_sends_its_answer_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def walked(*_: object, **__: object) -> None:
        raise AssertionError("an answer went through FastAPI's jsonable_encoder")

    monkeypatch.setattr(fastapi.routing, "jsonable_encoder", walked)  # where FastAPI walks a returned dictionary
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        service, app = make_app(store)
        with TestClient(app) as client:
            for lobby in ("/api/examples", "/api/rulesets"):
                assert client.get(lobby).status_code == 200
            made = client.post(
                "/api/tables",
                json={
                    "scenario": "witchhammer/yard_duel",
                    "seed": 5,
                    "controllers": {"bruna": "human", "tomas": "human"},
                },
            )
            assert made.status_code == 201 and made.headers["content-type"] == "application/json"
            tokens = tokens_of(made.json())
            table, seat = service.authenticate(made.json()["table"], tokens["bruna"])
            answer = client.get(f"/api/tables/{table.id}", headers=auth(tokens["bruna"]))
            assert answer.status_code == 200
            assert answer.json() == json.loads(json.dumps(service.state(table, seat, 0)))
            assert answer.content == json.dumps(answer.json(), separators=(",", ":"), ensure_ascii=False).encode()
            for path in ("log", "gm/seats", "gm/adjust", "gm/audit"):
                asked = client.get(f"/api/tables/{table.id}/{path}", headers=auth(tokens["gm"]))
                assert asked.status_code == 200 and isinstance(asked.json(), dict | list), path
            said = client.post(
                f"/api/tables/{table.id}/chat", headers=auth(tokens["bruna"]), json={"text": "Hold the line"}
            )
            assert said.status_code == 200, said.text
            refused = client.get(f"/api/tables/{table.id}", headers=auth("not a token"))
            assert refused.status_code == 401 and refused.json()["code"]
        service.close()


def test_an_answer_orjson_cannot_write_falls_back_to_ascii_escapes() -> None:
    """A lone surrogate (which no UTF-8 writer takes) and an integer past 64 bits: the standard library's text."""
    assert SafeJSONResponse({"a": "\ud800"}).body == b'{"a":"\\ud800"}'
    assert SafeJSONResponse({"n": 2**70, "é": 1}).body == b'{"n":1180591620717411303424,"\\u00e9":1}'
    assert SafeJSONResponse({"é": [1, 2]}).body == '{"é":[1,2]}'.encode()
