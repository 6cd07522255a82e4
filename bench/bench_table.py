"""The table server under load (docs/performance.md): TABLES tables of 6 seats each (the GM, four players, a
spectator: spellchrome/crossroads_2v2 with every combatant played by a person), every seat a WebSocket client on
loopback; the players choose random legal actions (the random policy). By default every seat speaks the WebSocket's
protocol 2, as the page does: it is sent patches, and its player sends actions over its own socket; ``--protocol 1``
measures whole messages and actions over HTTP (docs/table.md, "Live updates").

Prints actions per second, the p50 and p99 time from sending an action until every seat of its table has received
its new view, the CPU time each action cost the server processes and the bench's own clients (from /proc and
getrusage: what the action cost, whatever else shares the cores), and the server's memory per table (resident set
growth / tables). Goal: p99 under 50 ms on the two-core machine.

Run: ``.venv/bin/python bench/bench_table.py [TABLES] [ACTIONS_PER_TABLE] [--think SECONDS] [--db sqlite|postgres]
[--processes N] [--noise N] [--compression] [--protocol 1|2]`` (default 100, 20, 5, sqlite, 1, no noise, uncompressed
WebSocket messages as the server's default, protocol 2), or ``--goals``: every goal of docs/performance.md's "Cheaper
appends and pushes" in one run, each figure beside its goal.
``--noise N``: N busy CPU-bound processes (``while True: pass``, at the server's priority) run beside the server from
before the tables are created until the end, as other work on a shared machine does.
``--think S``: before each action the table's player thinks for a random time (exponential, mean S), as people at a
table do: the latency a table sees, which the goal is about; ``--think 0`` is a closed loop (every table always has
an action in flight: the server's saturation throughput, whose latency is the queue's). ``--compression`` serves
with ``--ws-compression`` (the server's default is off).
``AFFRAY_BENCH_TIMELINE=1`` also prints the latencies by when in the run their actions were sent (ten-second windows:
where the tail is). ``AFFRAY_BENCH_DIR=/dev/shm`` puts the SQLite database in memory (to see what the disk's fsync
costs).

It starts ``affray serve`` on free loopback ports and stops it at the end: one process with a temporary SQLite file,
or ``--db postgres`` a throwaway PostgreSQL 15 server (the test suite's harness, ``tests/pg.py``: without fsync, so
it measures the servers, not the disk) and ``--processes N`` server processes on it. With several processes each
table's seats are spread over them by default (``--route seat``: seat k of table i on process (i + k) mod N, each
player acting through its own), so most pushes cross between processes by LISTEN/NOTIFY and every process builds
every change; ``--route table`` puts a table's seats on one process picked by a hash of its id, as the proxy of
docs/table.md ("Several processes") does, and ``--goals`` measures that deployment. Every figure is printed
with the machine's load average (1 minute) at the start and the end of its run: on a shared machine a wall-clock
figure means little without it. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.table.test_kill9 import Server  # the same real-process harness as the kill -9 test

from affray.table.patch import apply

SCENARIO = "spellchrome/crossroads_2v2"
TIMELINE: list[tuple[float, float]] = []  # (when an action was sent, its latency), for --timeline
NOISE = "while True: pass"


@dataclass(frozen=True)
class Result:
    """One run's figures: actions per second, the latency percentiles (seconds), the load average around it."""

    where: str
    actions_per_s: float
    p50: float
    p99: float
    load: tuple[float, float]

    def line(self, goal: str = "") -> str:
        return (
            f"{self.where}: {self.actions_per_s:.0f} actions/s, p50 {self.p50 * 1000:.1f} ms, p99 "
            f"{self.p99 * 1000:.1f} ms{f' ({goal})' if goal else ''}; load average {self.load[0]:.2f} at the "
            f"start, {self.load[1]:.2f} at the end"
        )


def load_average() -> float:
    return os.getloadavg()[0]


def start_noise(stack: contextlib.ExitStack, n: int) -> None:
    """``n`` busy processes beside the server until ``stack`` closes."""
    for _ in range(n):
        proc = subprocess.Popen([sys.executable, "-c", NOISE])
        stack.callback(proc.wait, 30)
        stack.callback(proc.kill)


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """A process's CPU time so far (user + system, from /proc): the server's own, whatever else runs beside it;
    ``reaped``: with its children's that have ended and it has waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if reaped else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    """The CPU time so far of ``root`` and every process below it (PostgreSQL's postmaster and its backends): a
    live one's own, an ended one's through the process that waited for it (else a backend that ends during a run
    would take its CPU out of the sum, which could then fall)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid, reaped=True)
        todo.extend(children.get(pid, []))
    return total


def own_cpu_seconds() -> float:
    """This process's CPU time so far: the bench's clients (every seat's socket, every action's request)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Seat:
    """One seat's socket and the newest message it received (protocol 2: the first one patched by every push after
    it), and the replies to its actions sent over the socket."""

    def __init__(self, socket: ClientConnection, moved: asyncio.Event) -> None:
        self.socket, self.version = socket, -1
        self.state: dict[str, Any] = {}
        self.moved = moved  # the table's: set by every seat's message
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.refs = 0

    async def listen(self) -> None:
        async for frame in self.socket:
            data = orjson.loads(frame)
            if "code" in data:  # refused or closed by the server: the run cannot go on
                raise SystemExit(f"the server closed a seat's socket: {data}")
            if "reply" in data:
                self.replies.pop(data["reply"]).set_result(data)
                continue
            self.state = apply(self.state, data["patch"], copy=False) if "patch" in data else data  # type: ignore[assignment]
            self.version = self.state["version"]
            self.moved.set()

    async def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send an action over the socket (protocol 2) and wait for its reply."""
        self.refs += 1
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[self.refs] = reply
        await self.socket.send(orjson.dumps({"act": body, "ref": self.refs}).decode())
        return await reply


class TableClients:
    """One table's six seats: their sockets (each listening), the process each is connected to, their tokens."""

    def __init__(self, created: dict[str, Any]) -> None:
        self.id = created["table"]
        self.tokens = {"gm": created["gm"]["token"], **{n: s["token"] for n, s in created["seats"].items()}}
        self.seats: dict[str, Seat] = {}
        self.via: dict[str, int] = {}
        self.listeners: list[asyncio.Future[None]] = []
        self.moved = asyncio.Event()

    async def connect(self, ports: list[int], index: int, protocol: int, route: str = "seat") -> None:
        """Connect every seat and wait (bounded) until each has its first message. ``route``: "table" puts every
        seat on one process picked by a hash of the table's id, as a proxy that routes by the table's path does
        (docs/table.md, "Several processes"): about half the tables were created by the other process; "seat"
        spreads the seats (seat k on process (index + k) mod N)."""
        for k, (name, token) in enumerate(self.tokens.items()):
            # the process this seat is connected to (and acts through)
            self.via[name] = ((index + k) if route == "seat" else zlib.crc32(self.id.encode())) % len(ports)
            socket = await connect(
                f"ws://127.0.0.1:{ports[self.via[name]]}/api/tables/{self.id}/ws?token={token}&protocol={protocol}",
                max_size=None,
                ping_interval=None,
            )
            # ping_interval None: as a browser, whose WebSocket never pings (it answers the server's pings); the
            # library's default pinged every 20 s, 300 pings a second at 1,000 tables that no page sends.
            self.seats[name] = Seat(socket, self.moved)
        self.listeners = [asyncio.ensure_future(s.listen()) for s in self.seats.values()]
        async with asyncio.timeout(60):
            await _until(self.moved, self.seats, lambda s: s.version >= 0)

    async def close(self) -> None:
        for s in self.seats.values():
            await s.socket.close()
        for listener in self.listeners:
            listener.cancel()


async def play_table(
    clients: list[httpx.AsyncClient],
    table: TableClients,
    actions: int,
    latencies: list[float],
    rng: random.Random,
    think: float = 0.0,
    protocol: int = 2,
) -> int:
    seats, done = table.seats, 0
    while done < actions:
        mover = next(((n, s) for n, s in seats.items() if s.state.get("legal")), None)
        if mover is None or any(s.state.get("outcome") for s in seats.values()):
            break
        name, seat = mover
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))
        actor, specs = next(iter(seat.state["legal"].items()))
        version = seat.state["version"]
        body = {"actor": actor, "action": rng.choice(specs)["action"], "version": version}
        started = time.perf_counter()
        if protocol == 2:  # over the seat's own socket
            reply = await seat.act(body)
            if "answer" not in reply:
                continue
            target = reply["answer"]["version"]
        else:
            answer = await clients[table.via[name]].post(
                f"/api/tables/{table.id}/actions", json=body, headers={"Authorization": f"Bearer {table.tokens[name]}"}
            )
            if answer.status_code != 200:
                continue
            target = answer.json()["version"]
        async with asyncio.timeout(30):
            await _until(table.moved, seats, lambda s, t=target: s.version >= t)
        latencies.append(time.perf_counter() - started)
        TIMELINE.append((started, latencies[-1]))
        done += 1
    return done


async def _until(moved: asyncio.Event, seats: dict[str, Seat], ok: Any) -> None:
    """Until ``ok(seat)`` for every seat. One event for the table, no task per seat and wait: the clients' CPU is
    part of every closed-loop figure on a machine they share with the servers."""
    while True:
        moved.clear()
        if all(ok(s) for s in seats.values()):
            return
        await moved.wait()


async def main(
    tables: int,
    actions: int,
    think: float = 0.0,
    db: str = "sqlite",
    processes: int = 1,
    compression: bool = False,
    noise: int = 0,
    protocol: int = 2,
    route: str = "seat",
) -> Result:
    with contextlib.ExitStack() as stack:
        folder = tempfile.mkdtemp(dir=os.environ.get("AFFRAY_BENCH_DIR"))  # e.g. /dev/shm: no fsync cost
        if db == "postgres":
            from tests.pg import postgres_server

            pg = stack.enter_context(postgres_server())
            url, database_pid = pg.create_database("bench"), pg.process.pid
        else:
            url, database_pid = f"sqlite:///{folder}/bench.db", None
        start_noise(stack, noise)
        # Every client of the bench is on 127.0.0.1: the server's cap of 64 connections per address would refuse
        # most of its 600 sockets, so it is off here, as it is behind a proxy (docs/table.md, "Limits"); 1,000
        # tables are 6,000 sockets, past the cap of the whole server (2,048): that one is raised to fit.
        total = str(max(2048, tables * 6 + 200))
        options = (
            "--max-connections-per-address",
            "0",
            "--max-connections",
            total,
            *(("--ws-compression",) if compression else ()),
        )
        servers = [Server(url, Path(folder) / f"server{i}.log", options) for i in range(processes)]
        for server in servers:
            server.start()
            stack.callback(server.kill)
        where = f"{db}, {processes} process{'es' if processes > 1 else ''}{', compressed' if compression else ''}"
        if noise:
            where += f", {noise} busy process{'es' if noise > 1 else ''} beside"
        if protocol == 1:
            where += ", protocol 1 (whole messages, actions over HTTP)"
        if processes > 1:
            where += ", every table's seats on its own process" if route == "table" else ", seats spread"
        result = await measure(servers, tables, actions, think, where, database_pid, protocol, route)
        print(f"server logs: {folder}")
        return result


async def measure(
    servers: list[Server],
    tables: int,
    actions: int,
    think: float,
    where: str,
    database_pid: int | None = None,
    protocol: int = 2,
    route: str = "seat",
) -> Result:
    """One run's figures; ``database_pid``: PostgreSQL's postmaster, whose processes' CPU is counted apart."""
    pids = [server.proc.pid for server in servers if server.proc is not None]

    def cpu_now() -> list[float]:
        return [
            sum(cpu_seconds(pid) for pid in pids),
            own_cpu_seconds(),
            tree_cpu_seconds(database_pid) if database_pid is not None else 0.0,
        ]

    clients = [
        httpx.AsyncClient(base_url=server.url, timeout=60, limits=httpx.Limits(max_connections=200))
        for server in servers
    ]
    try:
        before = sum(rss_kib(pid) for pid in pids)
        body = {"scenario": SCENARIO, "controllers": {a: "human" for a in ("oriel", "kestrin", "cut1", "cut2")}}
        created = []
        for i in range(tables):
            for _attempt in range(100):  # the server limits creations per client: wait for its bucket
                answer = await clients[i % len(clients)].post("/api/tables", json=body)
                if answer.status_code != 429:
                    break
                await asyncio.sleep(0.1)
            if answer.status_code != 201:
                raise SystemExit(f"creating a table was refused: {answer.status_code} {answer.text}")
            created.append(answer.json())
        created_kib = sum(rss_kib(pid) for pid in pids)
        # Every seat connects (and gets its first message) before the clock starts: 600 connections at once
        # would otherwise be measured as the first actions' latency.
        ports = [server.port for server in servers]
        tables_ = [TableClients(c) for c in created]
        for i, table in enumerate(tables_):
            await table.connect(ports, i, protocol, route)
        latencies: list[float] = []
        rng = random.Random(1)
        # The clients' own garbage collections would pause the harness, not the server: measure the server. Not one
        # runs while the clock does (their objects go by reference counting; a run's cycles wait until its end):
        # with 6,000 sockets, young collections of the 100,000 objects this used to allow paused the clients
        # 28-281 ms each, measured as the server's p99 (the first 20 s of a run at 1,000 tables).
        gc.collect()
        gc.freeze()
        gc.disable()
        load_before = load_average()
        cpu_before = cpu_now()
        started = time.perf_counter()
        try:
            counts = await asyncio.gather(
                *(play_table(clients, t, actions, latencies, rng, think, protocol) for t in tables_)
            )
        finally:
            gc.enable()
        elapsed = time.perf_counter() - started
        load_after = load_average()
        cpu_used = [after - before for after, before in zip(cpu_now(), cpu_before, strict=True)]
        played_kib = sum(rss_kib(pid) for pid in pids)  # a table is loaded by every process that serves it
        for table in tables_:
            await table.close()
    finally:
        for client in clients:
            await client.aclose()
    total = sum(counts)
    latencies.sort()
    if os.environ.get("AFFRAY_BENCH_TIMELINE"):
        timeline(started)
    pace = f"think time {think:g} s (mean, exponential)" if think > 0 else "closed loop"
    p50, p99 = statistics.median(latencies), latencies[max(0, int(len(latencies) * 0.99) - 1)]
    print(
        f"{tables} tables x {len(created[0]['seats']) + 1} seats ({SCENARIO}, {pace}; {where}), {total} actions "
        f"in {elapsed:.1f} s: {total / elapsed:.0f} actions/s (load average {load_before:.2f} at the start, "
        f"{load_after:.2f} at the end)"
    )
    print(f"action -> every seat of its table has its new view: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    server_ms, clients_ms, database_ms = (used / max(1, total) * 1000 for used in cpu_used)
    database = f", PostgreSQL's processes {database_ms:.2f} ms" if database_pid is not None else ""
    print(
        f"CPU per action: the server{'s' if len(pids) > 1 else ''} {server_ms:.2f} ms, the bench's clients "
        f"{clients_ms:.2f} ms{database}; the cores were busy {sum(cpu_used) / elapsed:.2f} of {os.cpu_count()} with "
        f"them"
    )
    print(
        f"server memory per table (RSS growth of the server processes / {tables} tables): "
        f"{(created_kib - before) / tables:.0f} KiB opened, {(played_kib - before) / tables:.0f} KiB after "
        f"{total / tables:.0f} actions each with every seat connected"
    )
    return Result(f"{tables} tables, {pace}, {where}", total / elapsed, p50, p99, (load_before, load_after))


def timeline(started: float, width: float = 10.0) -> None:
    """The latencies by when their actions were sent (``AFFRAY_BENCH_TIMELINE=1``): where in a run its tail is."""
    windows: dict[int, list[float]] = {}
    for sent, latency in TIMELINE:
        windows.setdefault(int((sent - started) // width), []).append(latency)
    for index, values in sorted(windows.items()):
        values.sort()
        p99 = values[max(0, int(len(values) * 0.99) - 1)]
        print(
            f"  {index * width:5.0f}-{(index + 1) * width:.0f} s: {len(values) / width:5.0f} actions/s, p50 "
            f"{statistics.median(values) * 1000:6.1f} ms, p99 {p99 * 1000:7.1f} ms, max {values[-1] * 1000:7.1f} ms"
        )
    TIMELINE.clear()


async def goals(actions: int, protocol: int = 2) -> None:
    """The goals of cheaper appends and pushes (docs/performance.md), one run each, each figure printed beside its
    goal (and a summary at the end)."""
    runs = [
        (dict(tables=100, think=5.0, db="sqlite", noise=1), "goal: p99 < 50 ms", 0.050),
        (dict(tables=100, think=5.0, db="postgres", processes=2, noise=1, route="table"), "goal: p99 < 50 ms", 0.050),
        (dict(tables=1000, think=5.0, db="sqlite"), "goal: p99 < 100 ms", 0.100),
        (dict(tables=1000, think=5.0, db="postgres", processes=2, route="table"), "goal: p99 < 100 ms", 0.100),
    ]
    lines = []
    for kwargs, goal, limit in runs:
        result = await main(actions=actions, protocol=protocol, **kwargs)  # type: ignore[arg-type]
        lines.append(f"{result.line(goal)}: {'met' if result.p99 < limit else 'NOT met'}")
    one = await main(100, actions, 0.0, "postgres", 1, protocol=protocol)
    two = await main(100, actions, 0.0, "postgres", 2, protocol=protocol, route="table")
    ratio = two.actions_per_s / one.actions_per_s
    lines += [
        one.line(),
        two.line(),
        f"two PostgreSQL processes / one, closed loop: {ratio:.2f}x actions/s (goal: at least 1.7x): "
        f"{'met' if ratio >= 1.7 else 'NOT met'}",
    ]
    print('\n== the goals (docs/performance.md, "Cheaper appends and pushes")')
    print("\n".join(lines))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the table server under load")
    parser.add_argument("tables", type=int, nargs="?", default=100)
    parser.add_argument("actions", type=int, nargs="?", default=20, help="actions per table")
    parser.add_argument(
        "--think", type=float, default=5.0, help="mean think time before each action, seconds (0: a closed loop)"
    )
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="server processes (several need --db postgres)")
    parser.add_argument("--compression", action="store_true", help="serve with --ws-compression")
    parser.add_argument("--noise", type=int, default=0, help="busy CPU-bound processes beside the server")
    parser.add_argument("--goals", action="store_true", help="run every goal's configuration, print each figure")
    parser.add_argument(
        "--protocol",
        type=int,
        choices=(1, 2),
        default=2,
        help="2: patches, actions over the socket (the page's); 1: whole messages, actions over HTTP",
    )
    parser.add_argument(
        "--route",
        choices=("seat", "table"),
        default="seat",
        help="several processes: spread each table's seats over them (seat), or put them all on the "
        "table's process (table), as a proxy routing by the table's path does",
    )
    args = parser.parse_args()
    if args.goals:
        asyncio.run(goals(args.actions, args.protocol))
        raise SystemExit(0)
    if args.processes > 1 and args.db != "postgres":
        parser.error("several server processes share one database: use --db postgres")
    asyncio.run(
        main(
            args.tables,
            args.actions,
            args.think,
            args.db,
            max(1, args.processes),
            args.compression,
            max(0, args.noise),
            args.protocol,
            args.route,
        )
    )
