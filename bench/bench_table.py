"""The table server under load (issue 14, Measure): TABLES tables of 6 seats each (the GM, four players, a
spectator: spellchrome/crossroads_2v2 with every combatant played by a person), every seat a WebSocket client on
loopback; the players choose random legal actions (the random policy) and submit them over HTTP.

Prints actions per second, the p50 and p99 time from sending an action until every seat of its table has received
its new view, and the server's memory per table (resident set growth / tables). Goal: p99 under 50 ms on the
two-core machine.

Run: ``.venv/bin/python bench/bench_table.py [TABLES] [ACTIONS_PER_TABLE] [--think SECONDS]`` (default 100, 20
and 0). ``--think S``: before each action the table's player thinks for a random time (exponential, mean S), as
people at a table do; 0 is a closed loop (every table always has an action in flight: the server's saturation, not
the latency a table sees).
``AFFRAY_BENCH_DIR=/dev/shm`` puts the database in memory (to see what the disk's fsync costs). It starts
``affray serve`` on a free loopback port with a temporary SQLite file, and stops it at the end. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.table.test_kill9 import Server  # the same real-process harness as the kill -9 test

SCENARIO = "spellchrome/crossroads_2v2"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Seat:
    """One seat's socket and the newest message it received."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket, self.version = socket, -1
        self.state: dict[str, Any] = {}
        self.changed = asyncio.Event()

    async def listen(self) -> None:
        async for frame in self.socket:
            self.state = orjson.loads(frame)
            self.version = self.state["version"]
            self.changed.set()


async def play_table(client: httpx.AsyncClient, port: int, created: dict[str, Any], actions: int,
                     latencies: list[float], rng: random.Random, think: float = 0.0) -> int:
    table = created["table"]
    tokens = {"gm": created["gm"]["token"], **{n: s["token"] for n, s in created["seats"].items()}}
    seats = {}
    for name, token in tokens.items():
        socket = await connect(f"ws://127.0.0.1:{port}/api/tables/{table}/ws?token={token}", max_size=None)
        seats[name] = Seat(socket)
    listeners = [asyncio.ensure_future(s.listen()) for s in seats.values()]
    done = 0
    try:
        while done < actions:
            await asyncio.wait_for(_until(seats, lambda s: s.version >= 0), 30)
            mover = next(((n, s) for n, s in seats.items() if s.state.get("legal")), None)
            if mover is None or any(s.state.get("outcome") for s in seats.values()):
                break
            name, seat = mover
            if think > 0:
                await asyncio.sleep(rng.expovariate(1 / think))
            actor, specs = next(iter(seat.state["legal"].items()))
            version = seat.state["version"]
            started = time.perf_counter()
            answer = await client.post(f"/api/tables/{table}/actions",
                                       headers={"Authorization": f"Bearer {tokens[name]}"},
                                       json={"actor": actor, "action": rng.choice(specs)["action"], "version": version})
            if answer.status_code != 200:
                continue
            target = answer.json()["version"]
            await asyncio.wait_for(_until(seats, lambda s, t=target: s.version >= t), 30)
            latencies.append(time.perf_counter() - started)
            done += 1
    finally:
        for s in seats.values():
            await s.socket.close()
        for listener in listeners:
            listener.cancel()
    return done


async def _until(seats: dict[str, Seat], ok: Any) -> None:
    while not all(ok(s) for s in seats.values()):
        waits = [asyncio.ensure_future(s.changed.wait()) for s in seats.values() if not ok(s)]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
        for s in seats.values():
            s.changed.clear()


async def main(tables: int, actions: int, think: float = 0.0) -> None:
    folder = tempfile.mkdtemp(dir=os.environ.get("AFFRAY_BENCH_DIR"))  # e.g. /dev/shm: no fsync cost
    server = Server(f"sqlite:///{folder}/bench.db", Path(folder) / "server.log")
    server.start()
    assert server.proc is not None
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60,
                                     limits=httpx.Limits(max_connections=200)) as client:
            before = rss_kib(server.proc.pid)
            body = {"scenario": SCENARIO, "controllers": {a: "human" for a in ("oriel", "kestrin", "cut1", "cut2")}}
            created = []
            for _ in range(tables):
                for _attempt in range(100):  # the server limits creations per client: wait for its bucket
                    answer = await client.post("/api/tables", json=body)
                    if answer.status_code != 429:
                        break
                    await asyncio.sleep(0.1)
                if answer.status_code != 201:
                    raise SystemExit(f"creating a table was refused: {answer.status_code} {answer.text}")
                created.append(answer.json())
            after = rss_kib(server.proc.pid)
            latencies: list[float] = []
            rng = random.Random(1)
            # The 600 clients' own garbage collections would pause the harness, not the server: measure the server.
            gc.collect()
            gc.freeze()
            gc.set_threshold(100_000, 100, 1_000)
            started = time.perf_counter()
            counts = await asyncio.gather(*(play_table(client, server.port, c, actions, latencies, rng, think)
                                            for c in created))
            elapsed = time.perf_counter() - started
        total = sum(counts)
        latencies.sort()
        pace = f"think time {think:g} s (mean, exponential)" if think > 0 else "closed loop"
        print(f"{tables} tables x {len(created[0]['seats']) + 1} seats ({SCENARIO}, {pace}), {total} actions in "
              f"{elapsed:.1f} s: {total / elapsed:.0f} actions/s")
        print(f"action -> every seat of its table has its new view: p50 {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99) - 1] * 1000:.1f} ms (goal: p99 < 50 ms)")
        print(f"server memory per table: {(after - before) / tables:.0f} KiB (RSS growth over {tables} tables of "
              f"{len(created[0]['seats']) + 1} seats)")
    finally:
        server.kill()
        print(f"server log: {Path(folder) / 'server.log'}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the table server under load")
    parser.add_argument("tables", type=int, nargs="?", default=100)
    parser.add_argument("actions", type=int, nargs="?", default=20, help="actions per table")
    parser.add_argument("--think", type=float, default=0.0, help="mean think time before each action, seconds")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.actions, args.think))
