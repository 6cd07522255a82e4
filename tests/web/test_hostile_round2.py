"""The table server on a public address, second round (docs/table.md, "Limits: a server on a public address"), each
attack as it was made, against a real ``affray serve`` on a free port of 127.0.0.1:

- an action with a field its type does not list (a 250 KB one beside a legal card), sent again and again between
  take backs, is refused 422 naming the field, and the log of record holds nothing past ``MAX_ACTION_BYTES`` a
  record; a GM ruling and a chat line are bounded too;
- scenario YAML with integers of 4,301 digits (and hex, and underscores) is 422 ``bad_scenario`` with a sentence;
  a table whose rows were damaged (malformed JSON, JSON of another shape) is 503 ``table_damaged`` while the others
  are served, and ``affray db check`` names the table and the row;
- token guessing at a known table from rotating addresses (behind the trusted proxy: ``X-Forwarded-For``) never
  keeps the real seat out, the table not yet in memory included;
- a complete header block past 64 KiB in one write is 431; uvicorn's own 400 and 503 carry the security headers;
  a redirect never names the request's ``Host``.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from affray.core.actions import MAX_ACTION_BYTES
from affray.web.bounds import MAX_HEADER_BYTES
from affray.web.logins import ADDRESS_FAILURES, NETWORK_FAILURES
from tests.cli.inproc import run_cli
from tests.table.test_kill9 import Server
from tests.web.helpers import auth

SECURITY_HEADERS = (
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "cache-control",
)
JUNK = "x" * 250_000  # the field as it was sent


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile2")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    served = Server(f"sqlite:///{folder / 'affray.db'}", log=folder / "server.log")
    served.start()
    yield served
    served.kill()
    assert "Traceback" not in (folder / "server.log").read_text()


def mill(server: Server) -> dict[str, Any]:
    """A WitchHammer table, both hunters people's (its Psych phase: both due at once)."""
    answer = httpx.post(
        f"{server.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/mill_ambush", "seed": 5, "controllers": {"ilse": "human", "tomas": "human"}},
    )
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def state(http: httpx.Client, server: Server, table: str, token: str, **headers: str) -> httpx.Response:
    return http.get(f"{server.url}/api/tables/{table}", headers={**auth(token), **headers})


def stored_payloads(folder: Path, table: str) -> list[int]:
    with sqlite3.connect(folder / "affray.db") as db:
        return [
            int(n)
            for (n,) in db.execute("SELECT length(payload) FROM records WHERE table_id = ? ORDER BY seq", (table,))
        ]


def headers_of(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in fields.items()}, body


def exchange(server: Server, request: bytes) -> bytes:
    """Send ``request`` in one write and read until the server closes or its answer is complete."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
            head, sep, body = received.partition(b"\r\n\r\n")
            length = next(
                (
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                None,
            )
            if sep and length is not None and len(body) >= length:
                break
        return received


# -- 1. every action validated completely before it is stored ----------------------------------------------------


def test_an_undeclared_field_is_refused_by_name_and_the_take_back_loop_stores_nothing_of_it(
    server: Server, folder: Path
) -> None:
    """The attack: a legal action with a 250 KB field, sent after each take back of the seat's last move (it once
    stored 57 MB in 20 s). Every one is 422 ``bad_field`` naming the field; the log holds the plain moves only."""
    created = mill(server)
    table, token = created["table"], created["seats"]["ilse"]["token"]
    with httpx.Client(timeout=30) as http:
        for _ in range(10):
            now = state(http, server, table, token).json()
            action = now["legal"]["ilse"][1]["action"]  # a Psych card: taken back freely (nothing revealed)
            body = {"actor": "ilse", "action": {**action, "junk": JUNK}, "version": now["version"]}
            refused = http.post(f"{server.url}/api/tables/{table}/actions", json=body, headers=auth(token))
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "bad_field" and "'junk'" in refused.json()["message"]
            body["action"] = action
            assert (
                http.post(f"{server.url}/api/tables/{table}/actions", json=body, headers=auth(token)).status_code == 200
            )
            taken = http.post(
                f"{server.url}/api/tables/{table}/take_back", json={"version": now["version"] + 1}, headers=auth(token)
            )
            assert taken.status_code == 200, taken.text
    sizes = stored_payloads(folder, table)
    assert len(sizes) == 20 and max(sizes) < 200  # ten cards and ten take backs, no junk


def test_an_action_past_the_bound_and_a_ruling_past_it_are_refused(server: Server, folder: Path) -> None:
    created = mill(server)
    table, token, gm = created["table"], created["seats"]["ilse"]["token"], created["gm"]["token"]
    with httpx.Client(timeout=30) as http:
        body = {"actor": "ilse", "action": {"type": "psych", "card": "c" * MAX_ACTION_BYTES}, "version": 0}
        refused = http.post(f"{server.url}/api/tables/{table}/actions", json=body, headers=auth(token))
        assert refused.status_code == 422 and refused.json()["code"] == "action_too_large", refused.text
        ruling = {"version": 0, "reason": "r", "changes": [{"combatant": "ilse", "position": [[1, 1]] * 20_000}]}
        refused = http.post(f"{server.url}/api/tables/{table}/gm/adjust", json=ruling, headers=auth(gm))
        assert refused.status_code == 422, refused.text
        line = http.post(f"{server.url}/api/tables/{table}/chat", json={"text": "z" * 501}, headers=auth(token))
        assert line.status_code == 422, line.text
    assert stored_payloads(folder, table) == []
    with sqlite3.connect(folder / "affray.db") as db:
        assert db.execute("SELECT COUNT(*) FROM chat WHERE table_id = ?", (table,)).fetchone() == (0,)


# -- 2. no 500 from the scenario loader or a damaged row ------------------------------------------------------------


@pytest.mark.parametrize("number", ["9" * 4301, "0x" + "f" * 4000, "1_0" + "0" * 5000])
def test_scenario_integers_past_64_bits_are_a_sentence_not_a_500(server: Server, number: str) -> None:
    scenario = (Path(__file__).parents[2] / "examples" / "witchhammer" / "yard_duel.yaml").read_text()
    text = scenario.replace("name: Sparring in the Yard", f"name: {number}")
    assert text != scenario
    with httpx.Client(timeout=30) as http:
        for path in ("/api/scenarios/check", "/api/tables"):
            answer = http.post(f"{server.url}{path}", json={"scenario": text})
            assert answer.status_code == 422, (path, answer.text)
            assert answer.json()["code"] == "bad_scenario"
            assert "whole numbers of 64 bits" in answer.json()["message"] and "line " in answer.json()["message"]


DAMAGE = {  # what was done to a row -> what db check says of it
    ("records", "payload", "[[["): "record #0: its payload is not JSON",
    ("tables", "setup", "{not json"): "its setup is not JSON",
    ("seats", "actors", "{"): "seat ilse: its actors is not JSON",
    ("tables", "config", "[1]"): "its config is JSON of another shape, not a JSON object",
}


def test_a_damaged_row_makes_its_table_503_and_db_check_names_it(server: Server, folder: Path) -> None:
    """Each damage on its own table, found after a restart (nothing in memory): that table answers 503
    ``table_damaged`` with a sentence at every request, the healthy one 200; ``affray db check`` names each table and
    row and exits 1 (it said "ok")."""
    tables = [mill(server) for _ in range(len(DAMAGE) + 1)]
    with httpx.Client(timeout=30) as http:  # one record at the first table, to damage
        token = tables[0]["seats"]["ilse"]["token"]
        legal = state(http, server, tables[0]["table"], token).json()["legal"]["ilse"][0]["action"]
        assert (
            http.post(
                f"{server.url}/api/tables/{tables[0]['table']}/actions",
                headers=auth(token),
                json={"actor": "ilse", "action": legal, "version": 0},
            ).status_code
            == 200
        )
    server.kill()
    with sqlite3.connect(folder / "affray.db") as db:
        for created, (table, column, value) in zip(tables, DAMAGE, strict=False):
            key = "id" if table == "tables" else "table_id"
            where = " AND seat = 'ilse'" if table == "seats" else ""
            db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?{where}", (value, created["table"]))
    server.start()
    with httpx.Client(timeout=30) as http:
        for created in tables[:-1]:
            for _ in range(2):
                answer = state(http, server, created["table"], created["seats"]["ilse"]["token"])
                assert answer.status_code == 503, answer.text
                assert answer.json()["code"] == "table_damaged" and "affray db check" in answer.json()["message"]
        healthy = tables[-1]
        assert state(http, server, healthy["table"], healthy["seats"]["ilse"]["token"]).status_code == 200
    code, out, err = run_cli(["db", "check", "--db", f"sqlite:///{folder / 'affray.db'}"])
    assert code == 1, out + err
    for created, said in zip(tables, DAMAGE.values(), strict=False):
        assert f"damaged row: table {created['table']}: {said}" in out, out
    assert healthy["table"] not in out and "Traceback" not in out + err


# -- 5. a seat with a valid token is never locked out ---------------------------------------------------------------


def test_guessing_from_rotating_addresses_never_keeps_the_seat_out(server: Server) -> None:
    """Wrong tokens at a known table from rotating addresses (``X-Forwarded-For`` behind the trusted proxy, here
    127.0.0.1), past the old per-table budget of 100, while the table is not in memory (a restart): the seat's own
    GET is 200 at every turn; each guessing network runs out of failures (429), none of the seat's."""
    created = mill(server)
    table, token = created["table"], created["seats"]["ilse"]["token"]
    server.kill()
    server.start()  # the table is in the database only
    guesses = int(NETWORK_FAILURES[0]) + 60
    statuses: list[int] = []
    seat_statuses: list[int] = []
    with httpx.Client(timeout=30) as http:
        for n in range(guesses):
            address = f"203.0.113.{n % 250 + 1}"  # a new address of one /24 each time
            statuses.append(
                state(http, server, table, secrets.token_urlsafe(24), **{"X-Forwarded-For": address}).status_code
            )
            if n >= 120 and n % 10 == 0:  # past the old table budget, then every tenth guess
                seat_statuses.append(state(http, server, table, token, **{"X-Forwarded-For": "192.0.2.7"}).status_code)
        # and a seat whose own address guessed wrong 20 times is still let in at a table in memory
        for _ in range(int(ADDRESS_FAILURES[0]) + 5):
            state(http, server, table, "w" * 32, **{"X-Forwarded-For": "198.51.100.9"})
        seat_statuses.append(state(http, server, table, token, **{"X-Forwarded-For": "198.51.100.9"}).status_code)
    assert seat_statuses == [200] * len(seat_statuses) and len(seat_statuses) >= 5
    counted = Counter(statuses)
    assert set(counted) == {401, 429} and counted[401] <= NETWORK_FAILURES[0] + 10, counted  # the network's budget


# -- 10. protocol edges ----------------------------------------------------------------------------------------------


def test_a_complete_header_block_past_64_kib_in_one_write_is_431(server: Server) -> None:
    filler = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(MAX_HEADER_BYTES // 1000 + 2))
    raw = exchange(server, b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\n" + filler + b"\r\n")
    status, headers, body = headers_of(raw)
    assert status == 431 and json.loads(body)["code"] == "headers_too_large"
    assert all(name in headers for name in SECURITY_HEADERS), headers
    # just under the bound, the same request is served
    under = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(MAX_HEADER_BYTES // 1000 - 3))
    assert (
        headers_of(
            exchange(
                server, b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + under + b"\r\n"
            )
        )[0]
        == 200
    )


def test_uvicorns_own_400_carries_the_security_headers(server: Server) -> None:
    status, headers, body = headers_of(exchange(server, b"NOT HTTP AT ALL\r\n\r\n"))
    assert status == 400 and json.loads(body)["code"] == "bad_http"
    assert all(name in headers for name in SECURITY_HEADERS), headers


def test_uvicorns_own_503_carries_the_security_headers(folder: Path) -> None:
    """At --max-connections the server answers 503 before the app: JSON with every security header. The places are
    held by WebSockets (a connection that has sent nothing would be shed to make room: test_slow_clients.py)."""
    busy = Server(f"sqlite:///{folder / 'busy.db'}", options=("--max-connections", "3"))
    busy.start()
    try:
        with contextlib.ExitStack() as held:
            for _ in range(2):
                held.enter_context(connect(f"ws://127.0.0.1:{busy.port}/api/tables/nosuchtable/ws", open_timeout=30))
            status, headers, body = headers_of(exchange(busy, b"GET /api/examples HTTP/1.1\r\nHost: x\r\n\r\n"))
        assert status == 503 and json.loads(body)["code"] == "busy", body
        assert all(name in headers for name in SECURITY_HEADERS), headers
    finally:
        busy.kill()


@pytest.mark.parametrize(
    ("path", "redirected"),
    [(b"/api/tables/", "/api/tables"), (b"/t/abc/", "/t/abc"), (b"/docs/", "/docs"), (b"//evil.example/", None)],
)
def test_a_redirect_never_echoes_a_foreign_host(server: Server, path: bytes, redirected: str | None) -> None:
    """The router's redirect of a trailing slash names the path only, never the request's Host (``evil.example``);
    a path that would read as another host (``//evil.example``) is never one a redirect names."""
    raw = exchange(server, b"GET " + path + b" HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    status, headers, _ = headers_of(raw)
    assert all(name in headers for name in SECURITY_HEADERS), headers
    if redirected is None:
        assert not headers.get("location", "/").startswith("//") and "://" not in headers.get("location", ""), headers
    else:
        assert status == 307 and headers["location"] == redirected, headers
