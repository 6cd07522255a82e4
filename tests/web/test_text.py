"""No 5xx from any text (docs/table.md, "Bad input"): a lone surrogate (``"\\ud800"``) in any string or key of any
body, raw bytes that are not UTF-8, a scenario nested 50,000 brackets deep or an alias bomb, and a WebSocket's
first message with such a token: each is a 4xx refusal with a code and a sentence from a real ``affray serve``,
whose log shows no traceback, and the table is unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.table.test_kill9 import Server
from tests.web.helpers import auth

SURROGATE = "\\ud800"  # as it travels: six characters of JSON text, decoded by a server into one lone surrogate
DEEP = "[" * 50_000 + "]" * 50_000
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8)
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("text")
    server = Server(f"sqlite:///{folder / 'affray.db'}", log=folder / "server.log")
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "witchhammer/yard_duel", "seed": 5, "controllers": {"bruna": "human", "tomas": "human"}},
        )
        assert created.status_code == 201, created.text
        yield server, created.json()
    finally:
        server.kill()


def refused(answer: httpx.Response, status: int | None = None) -> dict[str, Any]:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    if status is not None:
        assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    assert isinstance(data["code"], str) and data["message"], data
    return data


def bodies(table: str) -> list[tuple[str, str]]:
    """(path, JSON text) for every route with a body, a lone surrogate in each kind of place."""
    t = f"/api/tables/{table}"
    s = SURROGATE
    return [
        ("/api/tables", f'{{"scenario": "{s}"}}'),
        ("/api/tables", f'{{"scenario": "witchhammer/yard_duel", "{s}": 1}}'),
        ("/api/tables", f'{{"scenario": "witchhammer/yard_duel", "controllers": {{"{s}": "human"}}}}'),
        ("/api/tables", f'{{"scenario": "witchhammer/yard_duel", "controllers": {{"bruna": "{s}"}}}}'),
        ("/api/tables", f'{{"scenario": "witchhammer/yard_duel", "options": {{"{s}": 1}}}}'),
        ("/api/tables", f'{{"scenario": "witchhammer/yard_duel", "options": {{"drama_timer": ["{s}"]}}}}'),
        (f"{t}/actions", f'{{"actor": "{s}", "action": {{"type": "ready"}}, "version": 0}}'),
        (f"{t}/actions", f'{{"actor": "bruna", "action": {{"type": "{s}"}}, "version": 0}}'),
        (f"{t}/actions", f'{{"actor": "bruna", "action": {{"type": "place", "card": "x{s}"}}, "version": 0}}'),
        (f"{t}/actions", f'{{"actor": "bruna", "action": {{"{s}": 1}}, "version": 0}}'),
        (f"{t}/actions", f'{{"actor": "bruna", "action": {{"type": "ready"}}, "version": 0, "id": "a{s}"}}'),
        (f"{t}/take_back", f'{{"version": 0, "{s}": 1}}'),
        (f"{t}/gm/take_back", f'{{"to": 0, "version": 0, "confirm": "{s}"}}'),
        (f"{t}/gm/timer", f'{{"seconds": "{s}"}}'),
    ]


def test_a_lone_surrogate_anywhere_in_a_body_is_refused_with_a_sentence(served: tuple[Server, dict[str, Any]]) -> None:
    server, created = served
    table, token, gm = created["table"], created["seats"]["bruna"]["token"], created["gm"]["token"]
    before = httpx.get(f"{server.url}/api/tables/{table}", headers=auth(gm), timeout=30).json()
    for path, text in bodies(table):
        answer = httpx.post(
            server.url + path,
            content=text.encode(),
            timeout=30,
            headers={**auth(gm if "/gm/" in path else token), "Content-Type": "application/json"},
        )
        data = refused(answer, 400)
        assert data["code"] == "bad_text" and "lone surrogate" in data["message"], (path, data)
    after = httpx.get(f"{server.url}/api/tables/{table}", headers=auth(gm), timeout=30).json()
    assert after == before
    assert "Traceback" not in (server.log or Path()).read_text()


@pytest.mark.parametrize(
    "raw",
    [b'{"scenario": "\xff"}', b'{"scenario": "\xed\xa0\x80"}', b"\xc3"],
    ids=["not-utf8", "encoded-surrogate", "cut-short"],
)
def test_bytes_that_are_not_utf8_are_refused_with_their_offset(
    served: tuple[Server, dict[str, Any]], raw: bytes
) -> None:
    server, created = served
    for path in ("/api/tables", f"/api/tables/{created['table']}/actions"):
        answer = httpx.post(
            server.url + path,
            content=raw,
            timeout=30,
            headers={**auth(created["gm"]["token"]), "Content-Type": "application/json"},
        )
        data = refused(answer, 400)
        assert data["code"] == "bad_text" and "not UTF-8" in data["message"] and "offset" in data["message"]


@pytest.mark.parametrize(
    "scenario, expected",
    [
        (DEEP, "at most 100 levels of nesting"),
        (BOMB, "at most 50,000 values once aliases are expanded"),
        ('ruleset: hud\nname: "\\ud800"\n', "valid YAML"),
    ],
    ids=["deep", "alias-bomb", "yaml-escape"],
)
def test_a_scenario_past_the_limits_is_refused_before_it_is_built(
    served: tuple[Server, dict[str, Any]], scenario: str, expected: str
) -> None:
    server, _ = served
    answer = httpx.post(f"{server.url}/api/tables", json={"scenario": scenario}, timeout=60)
    data = refused(answer, 422)
    assert data["code"] == "bad_scenario" and expected in data["message"], data
    assert data["problems"][0]["file"] == "scenario.yaml"


def test_a_refusal_that_repeats_the_callers_text_is_valid_json(served: tuple[Server, dict[str, Any]]) -> None:
    """Text that is Unicode but not ASCII (an emoji as a surrogate pair, accented letters) is echoed as it came."""
    server, created = served
    body = '{"actor": "h\\u00e9\\ud83d\\ude00", "action": {"type": "ready"}, "version": 0}'
    answer = httpx.post(
        f"{server.url}/api/tables/{created['table']}/actions",
        content=body.encode(),
        timeout=30,
        headers={**auth(created["seats"]["bruna"]["token"]), "Content-Type": "application/json"},
    )
    data = refused(answer, 403)
    assert data["code"] == "not_your_seat" and "hé\U0001f600" in data["message"]


@pytest.mark.parametrize(
    "first",
    ['{"token": "\\ud800"}', '{"token": "' + "x" * 5000 + '"}', "[1, 2]", b"\x00\xff"],
    ids=["surrogate", "huge", "not-an-object", "binary-frame"],
)
def test_a_websockets_bad_first_message_is_refused_with_4401(
    served: tuple[Server, dict[str, Any]], first: str | bytes
) -> None:
    server, created = served
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/{created['table']}/ws", open_timeout=30) as ws:
        ws.send(first)
        refusal = json.loads(ws.recv(timeout=30))
        assert refusal["code"] in ("bad_token", "no_token"), refusal
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert "Traceback" not in (server.log or Path()).read_text()
