"""Kill -9: a real ``affray serve`` process on a free loopback port with a temporary SQLite file;
several clients play a whole fight through the API; the server is killed with SIGKILL at moments chosen by a seeded
RNG (at least five times, some in the middle of a submission) and restarted each time. Every acknowledged action is
still there, every seat's view equals a fresh replay's from the database, the fight goes on to its end, and the
exported log verifies."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from affray.core.log import verify
from affray.store import Store
from affray.table.messages import seat_message
from affray.table.restore import build_table
from tests.waiting import wait_for

KILLS = 5  # "at least five times" (the module docstring): each kill is a server start, about 3 s
STARTUP = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``affray serve`` as a child process; ``kill()`` sends SIGKILL, ``start()`` waits (bounded) until it answers."""

    def __init__(self, db: str, log: Path | None = None, options: tuple[str, ...] = ()) -> None:
        self.db, self.port, self.log, self.options = db, free_port(), log, options
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if self.log is None:
            self.proc = self._spawn(subprocess.DEVNULL)
        else:
            with self.log.open("ab") as stderr:  # the child keeps its own copy of the file
                self.proc = self._spawn(stderr)
        proc = self.proc

        def answers() -> bool:
            assert proc.poll() is None, "the server exited while starting"
            return httpx.get(f"{self.url}/", timeout=1).status_code == 200

        wait_for(answers, STARTUP, "the server to answer", ignoring=(httpx.HTTPError,))

    def _spawn(self, stderr: Any) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "affray",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--policy-pause",
                "0",
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=os.environ.copy(),
        )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(f"sqlite:///{tmp_path / 'affray.db'}")
    served.start()
    yield served
    served.kill()


def new_yard_duel(url: str, seed: int) -> dict[str, Any]:
    """A WitchHammer yard duel, both fighters people's, opened over HTTP on the server at ``url``: its answer (the
    table's id and every seat's token)."""
    answer = httpx.post(
        f"{url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/yard_duel", "seed": seed, "controllers": {"bruna": "human", "tomas": "human"}},
    )
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def call(client: httpx.Client, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
    """One request; None if the server died under it (the test kills it on purpose)."""
    try:
        return client.request(method, url, timeout=30, **kwargs)
    except httpx.HTTPError:
        return None


def test_sigkill_loses_no_acknowledged_action(server: Server) -> None:
    rng = random.Random(1414)
    created = httpx.post(
        f"{server.url}/api/tables",
        timeout=30,
        json={"scenario": "witchhammer/mill_ambush", "seed": 99, "controllers": {"ilse": "human", "tomas": "human"}},
    ).json()
    table = created["table"]
    tokens = {
        "ilse": created["seats"]["ilse"]["token"],
        "tomas": created["seats"]["tomas"]["token"],
        "gm": created["gm"]["token"],
    }
    clients = {
        seat: httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {t}"}) for seat, t in tokens.items()
    }
    acknowledged: dict[int, tuple[str, dict[str, Any]]] = {}
    kill_at = sorted(rng.sample(range(1, 13), KILLS))
    kills = moves = 0
    for _ in range(3000):
        gm = call(clients["gm"], "GET", f"/api/tables/{table}")
        assert gm is not None and gm.status_code == 200
        if gm.json()["outcome"] is not None:
            break
        if kills < KILLS and moves >= kill_at[kills]:
            # Kill now, or a few milliseconds into the next submission.
            timer = threading.Timer(rng.choice([0.0, 0.002, 0.005, 0.01]), server.kill)
            timer.start()
            _move(clients, table, rng, acknowledged)
            timer.join()
            server.kill()
            server.start()
            kills += 1
            _check_against_replay(server.db, table, clients, acknowledged)
            continue
        if _move(clients, table, rng, acknowledged):
            moves += 1
        else:
            call(clients["gm"], "GET", f"/api/tables/{table}", params={"since": gm.json()["version"], "timeout": 5})
    assert kills == KILLS
    end = clients["gm"].get(f"/api/tables/{table}").json()
    assert end["outcome"] is not None
    log = clients["ilse"].get(f"/api/tables/{table}/log").json()
    assert verify(log).ok
    _check_against_replay(server.db, table, clients, acknowledged)
    for client in clients.values():
        client.close()


def _move(
    clients: dict[str, httpx.Client],
    table: str,
    rng: random.Random,
    acknowledged: dict[int, tuple[str, dict[str, Any]]],
) -> bool:
    """The first player seat with a due actor submits a random legal action; acknowledged ones are noted."""
    for seat in ("ilse", "tomas"):
        state = call(clients[seat], "GET", f"/api/tables/{table}")
        if state is None or state.status_code != 200:
            return False
        for actor, specs in state.json()["legal"].items():
            action = rng.choice(specs)["action"]
            answer = call(
                clients[seat],
                "POST",
                f"/api/tables/{table}/actions",
                json={"actor": actor, "action": action, "version": state.json()["version"]},
            )
            if answer is not None and answer.status_code == 200:
                acknowledged[answer.json()["seq"]] = (actor, action)
            return answer is not None and answer.status_code == 200
    return False


def _check_against_replay(
    db: str, table: str, clients: dict[str, httpx.Client], acknowledged: dict[int, tuple[str, dict[str, Any]]]
) -> None:
    # Served first: the server loads the table on this first request after its restart, and a policy seat due then
    # may move at once; the store only grows, so the replay is of the records up to the served version.
    served_first = {seat: client.get(f"/api/tables/{table}").json() for seat, client in clients.items()}
    with Store(db) as store:
        row = store.table(table)
        assert row is not None
        records = store.records(table)
        seats = store.seats(table)
    for seq, (actor, action) in acknowledged.items():
        assert records[seq].actor == actor and records[seq].payload == action, f"acknowledged action #{seq} lost"
    for seat, served in served_first.items():
        fresh = build_table(row, seats, records[: served["version"]])
        assert served["version"] == fresh.version
        replayed = json.loads(json.dumps(seat_message(fresh, fresh.seats[seat])["view"]))  # as sent: tuples->lists
        assert served["view"] == replayed, _difference(served["view"], replayed)


def _difference(a: Any, b: Any, path: str = "view") -> str:
    """Where two JSON values first differ (for the failure message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _difference(x, y, f"{path}[{i}]")
    return f"{path}: served {a!r}, replayed {b!r}"
