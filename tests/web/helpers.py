"""Playing a table through the API, as several clients would (shared by the web tests and the kill -9 test)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from affray.store import Store
from affray.table import TableService
from affray.web.app import create_app
from affray.web.limits import RateLimiter

Client = Any  # a TestClient in process, an httpx2 Client against a real server


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tokens_of(created: Mapping[str, Any]) -> dict[str, str]:
    """Seat name -> token, the GM's included."""
    out = {name: seat["token"] for name, seat in created["seats"].items()}
    out["gm"] = created["gm"]["token"]
    return out


def make_app(store: Store, **kwargs: Any) -> tuple[TableService, Any]:
    service = TableService(store, policy_pause=0)
    return service, create_app(service, limiter=RateLimiter(rate=1e6, burst=1e6), **kwargs)


def one_move(
    client: Client,
    table: str,
    tokens: Mapping[str, str],
    rng: random.Random,
    check: Callable[[str, Any], None] | None = None,
) -> bool:
    """Let the first seat with a due actor take a random legal action; False if nobody could act."""
    for seat, token in tokens.items():
        answer = client.get(f"/api/tables/{table}", headers=auth(token))
        assert answer.status_code == 200, answer.text
        state = answer.json()
        if check is not None:
            check(seat, state)
        for actor, specs in state["legal"].items():
            if not specs:
                continue
            spec = rng.choice(specs)
            body = {
                "actor": actor,
                "action": spec["action"],
                "version": state["version"],
                "id": f"{seat}-{state['version']}-{rng.randrange(1 << 30)}",
            }
            done = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
            if check is not None:
                check(seat, done.json())
            assert done.status_code in (200, 409), done.text
            return True
    return False


def play_to_end(
    client: Client,
    table: str,
    tokens: Mapping[str, str],
    seed: int,
    *,
    max_moves: int = 3000,
    check: Callable[[str, Any], None] | None = None,
    deadline: float = 120.0,
) -> dict[str, Any]:
    """Play random legal actions from every seat until the fight is over (bounded by moves and time)."""
    rng = random.Random(seed)
    end = time.monotonic() + deadline
    gm = tokens["gm"]
    for _ in range(max_moves):
        state = client.get(f"/api/tables/{table}", headers=auth(gm)).json()
        if state["outcome"] is not None:
            return dict(state)
        if not one_move(client, table, tokens, rng, check) and not wait_for_change(client, table, gm, state):
            raise AssertionError(f"nobody can act at version {state['version']} and nothing changes")
        assert time.monotonic() < end, "the fight did not end in time"
    raise AssertionError("the fight did not end within the moves allowed")


def wait_for_change(client: Client, table: str, token: str, state: Mapping[str, Any]) -> bool:
    """Long-poll (bounded) for a version past ``state``'s (a policy seat moving on the server)."""
    answer = client.get(f"/api/tables/{table}", params={"since": state["version"], "timeout": 5}, headers=auth(token))
    return bool(answer.json()["version"] > state["version"] or answer.json()["outcome"] is not None)


def race(table: str, plans: list[tuple[Client, str, dict[str, Any]]]) -> list[Any]:
    """Submit each plan's action (client, token, body) from its own thread, all released at once by a barrier; the
    answers, in plan order."""
    barrier = threading.Barrier(len(plans))
    answers: list[Any] = [None] * len(plans)

    def submit(i: int) -> None:
        client, token, body = plans[i]
        barrier.wait(timeout=10)
        answers[i] = client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return answers
