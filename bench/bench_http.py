"""A polling seat's HTTP requests through the table server's app, in process (docs/performance.md, "HTTP answers").

A client without a WebSocket (an in-world HuD, a script, ``affray join`` between pushes) asks ``GET
/api/tables/{id}`` for its seat's whole state and ``GET .../log``. One table of each scenario, every combatant played
by a person, plays ACTIONS random legal actions; after each, every seat GETs its state and one seat its log, through
the app (Starlette's TestClient: the full middleware stack, as uvicorn calls it), two ways alternating at every
version, in CPU seconds of the process (``time.process_time``, every thread: the app runs in the client's portal
thread):

- *FastAPI's way*: the routes as FastAPI serves a returned dictionary (``jsonable_encoder`` over the whole answer,
  then ``json.dumps``), as before ``affray.web.text.JsonRoute``;
- *as it is*: ``JsonRoute`` (the answer, JSON data already, sent as it is) and ``SafeJSONResponse`` written by orjson.

Run: ``.venv/bin/python bench/bench_http.py [ACTIONS]`` (default 30). Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.responses import JSONResponse

from affray.store import Store
from affray.table import TableService
from affray.web import app as web_app
from affray.web import pages, text

SCENARIOS = ("witchhammer/mill_ambush", "spellchrome/crossroads_2v2", "hud/nerdified_duel", "warp/knight_duel")


@contextmanager
def fastapi_way() -> Iterator[None]:
    """The routes and the answer's writing as FastAPI gives them, while the app is built and used (the modules'
    names are swapped through their namespaces: a bench's patch, not an API)."""
    spaces = [vars(web_app), vars(pages)]
    saved = [space["JsonRoute"] for space in spaces], text.SafeJSONResponse.render
    for space in spaces:
        space["JsonRoute"] = APIRoute
    text.SafeJSONResponse.render = JSONResponse.render  # type: ignore[method-assign]
    try:
        yield
    finally:
        for space, route in zip(spaces, saved[0], strict=True):
            space["JsonRoute"] = route
        text.SafeJSONResponse.render = saved[1]  # type: ignore[method-assign]


def clients(service: TableService) -> tuple[TestClient, TestClient]:
    with fastapi_way():
        before = TestClient(web_app.create_app(service))
    return before, TestClient(web_app.create_app(service))


def play(service: TableService, scenario: str, actions: int) -> tuple[int, int, list[float]]:
    before, after = clients(service)
    probe = before.post("/api/tables", json={"scenario": scenario, "seed": 3}).json()
    actors = list(service.table(probe["table"]).match.controllers)
    created = before.post(
        "/api/tables", json={"scenario": scenario, "seed": 3, "controllers": dict.fromkeys(actors, "human")}
    ).json()
    table_id = created["table"]
    tokens = [created["gm"]["token"], *(s["token"] for s in created["seats"].values())]
    rng = random.Random(1)
    spent = [0.0, 0.0]
    done = requests = 0
    with before, after:
        ways = [(0, before), (1, after)]
        while done < actions:
            for way, client in ways if done % 2 else ways[::-1]:  # whichever goes second finds caches warm
                started = time.process_time()
                for token in tokens:
                    client.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
                client.get(
                    f"/api/tables/{table_id}/log", headers={"Authorization": f"Bearer {tokens[done % len(tokens)]}"}
                )
                spent[way] += time.process_time() - started
            requests += len(tokens) + 1
            mover = _mover(after, table_id, tokens)
            if mover is None:
                break
            token, actor, action, version = mover
            after.post(
                f"/api/tables/{table_id}/actions",
                headers={"Authorization": f"Bearer {token}"},
                json={"actor": actor, "action": rng.choice(action), "version": version},
            )
            done += 1
    return done, requests, spent


def _mover(client: TestClient, table_id: str, tokens: list[str]) -> tuple[str, str, list[Any], int] | None:
    for token in tokens:
        state = client.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}).json()
        for actor, specs in (state.get("legal") or {}).items():
            if specs:
                return token, actor, [s["action"] for s in specs], state["version"]
    return None


def main(actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(f"sqlite:///{Path(folder) / 'bench.db'}") as store:
        service = TableService(store, policy_pause=0)
        try:
            for scenario in SCENARIOS:
                done, requests, (before, after) = play(service, scenario, actions)
                print(
                    f"{scenario}, {done} actions, {requests} GETs each way: {before / requests * 1000:.2f} -> "
                    f"{after / requests * 1000:.2f} ms CPU a GET ({before / after:.2f}x), FastAPI's way -> as it is"
                )
        finally:
            service.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
