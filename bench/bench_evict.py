"""Idle tables out of memory (docs/table.md, "Tables in memory"; docs/performance.md, "Tables out of memory").

One table service in this process (the server's ``TableService`` without its HTTP layer) over an SQLite file:

1. builds the store: TABLES tables of SCENARIO (every combatant a person's), each played IDLE_ACTIONS random legal
   actions and then left to the idle eviction, and LIVE more tables played ACTIONS actions each (the acting seat's
   message read before each, every seat's after the last, as connected seats' would be), which stay in memory;
2. prints the process's resident memory with LIVE tables in memory and TABLES in the store (goal: under 400 MB),
   and the memory per live table after ACTIONS actions: the growth of the resident set over the live tables, and the
   Python objects of a sample of them (tracemalloc; goal: under 250 KiB);
3. evicts SAMPLE live tables and times each one's first request (authenticate, then the seat's whole message: what a
   page or a WebSocket asks first), p50 and p99 (goal: p99 under 50 ms), beside the same rebuild by a full replay
   of the records (what a table cost to load before snapshots), CPU time and wall time with the load average; and
   the same for LONG tables played to LONG_ACTIONS actions (or their end), where the snapshot is what counts.

Run: ``.venv/bin/python bench/bench_evict.py [--tables 10000] [--live 1000] [--actions 20] [--idle-actions 2]``
(or ``make bench``). The SQLite file goes in ``/dev/shm`` where there is one (this measures memory and loading, not
the disk's fsync), or in ``AFFRAY_BENCH_DIR``. Asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from affray.core.json import as_list, as_object
from affray.store import Store
from affray.table import TableService
from affray.table.scenarios import resolve_scenario

SCENARIO = "spellchrome/crossroads_2v2"  # bench_table's: 6 seats, a grid, move listings in the memo
FAR = 10.0**9  # a monotonic time past every table's last use
GOALS = {"rss": 400.0, "per_table": 250.0, "p99": 50.0}
TRACED = 50  # live tables whose Python objects tracemalloc counts (it slows what it traces)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} (1 / 5 min) on {os.cpu_count()} cores"


class Bench:
    def __init__(self, service: TableService, scenario: str) -> None:
        self.service = service
        self.scenario = scenario
        checked, _ = resolve_scenario(scenario)
        self.controllers = {a: "human" for a in checked.controllers if a != "gm"}
        self.rng = random.Random(1)
        self.tokens: dict[str, dict[str, str]] = {}

    def create(self) -> str:
        created = self.service.create(self.scenario, controllers=self.controllers, seed=self.rng.randrange(2**62))
        self.tokens[created["table"]] = {
            "gm": created["gm"]["token"],
            **{name: seat["token"] for name, seat in created["seats"].items()},
        }
        return created["table"]

    def play(self, table_id: str, actions: int, read: bool) -> int:
        """``actions`` random legal actions by whichever seat is due (fewer if the fight ends); with ``read``,
        every seat's message after the last (what the pushes to its connections build). The table's version."""
        service = self.service
        for _ in range(actions):
            table = service.table(table_id)
            with table.lock:
                window = None if table.over else table.match.pending()
                actor = window.actors[0] if window is not None else None
                seat_name = table.match.seats.get(actor, "") if actor is not None else ""
            if actor is None:
                break
            table, seat = service.authenticate(table_id, self.token_of(table_id, seat_name))
            specs = as_list(as_object(service.state(table, seat, table.version)["legal"]).get(actor, []))
            if not specs:
                break
            action = as_object(as_object(self.rng.choice(specs))["action"])
            service.submit(table, seat, actor, action, table.version)
        table = service.table(table_id)
        if read:
            for token in self.tokens[table_id].values():
                service.state(*service.authenticate(table_id, token), max(0, table.version - 1))
        return table.version

    def token_of(self, table_id: str, seat: str) -> str:
        return self.tokens[table_id][seat]

    def first_request(self, table_id: str) -> tuple[float, float]:
        """Seconds from a request's arrival to the seat's whole message, for a table out of memory; and CPU seconds
        of its rebuild alone (the rest is the message, the same for a table in memory)."""
        started = time.perf_counter()
        cpu = time.process_time()
        self.service.table(table_id)
        rebuilt = time.process_time() - cpu
        table, seat = self.service.authenticate(table_id, self.tokens[table_id]["gm"])
        self.service.state(table, seat)
        return time.perf_counter() - started, rebuilt


def timed(bench: Bench, store: Store, tables: list[str]) -> dict[str, list[float]]:
    """Evict ``tables`` (each is snapshotted as it leaves), then time each one's first request: ``wall`` and
    ``cpu`` seconds, ``rebuild`` its rebuild's CPU seconds; then evict them again and time the same with each table
    rebuilt by a full replay of its records, as before snapshots (the store's snapshots hidden from the service):
    ``replay_cpu`` and ``replay_rebuild``."""
    out: dict[str, list[float]] = {k: [] for k in ("wall", "cpu", "rebuild", "replay_cpu", "replay_rebuild")}

    def firsts(prefix: str) -> None:
        for table_id in tables:
            bench.service.table(table_id).used = 0.0
        bench.service.evict_idle(now=FAR)
        for table_id in tables:
            started = time.process_time()
            wall, rebuild = bench.first_request(table_id)
            out[f"{prefix}cpu"].append(time.process_time() - started)
            out[f"{prefix}rebuild"].append(rebuild)
            if not prefix:
                out["wall"].append(wall)

    firsts("")
    kept = store.snapshot
    store.snapshot = lambda table_id: None  # type: ignore[method-assign]
    try:
        firsts("replay_")
    finally:
        store.snapshot = kept  # type: ignore[method-assign]
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * p) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000, help="tables in the store, the live ones included")
    parser.add_argument("--live", type=int, default=1_000, help="tables kept in memory")
    parser.add_argument("--actions", type=int, default=20, help="actions on each live table")
    parser.add_argument("--idle-actions", type=int, default=2, help="actions on each table that goes idle")
    parser.add_argument("--sample", type=int, default=200, help="live tables evicted to time their first request")
    parser.add_argument("--long", type=int, default=20, help="tables played long, to time their first request")
    parser.add_argument("--long-actions", type=int, default=300, help="actions on each long table")
    parser.add_argument("--scenario", default=SCENARIO)
    args = parser.parse_args()
    where = os.environ.get("AFFRAY_BENCH_DIR") or ("/dev/shm" if Path("/dev/shm").is_dir() else None)
    folder = tempfile.mkdtemp(prefix="affray-bench-evict-", dir=where)
    try:
        run(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # a store of 10,000 tables: about 200 MB


def run(args: argparse.Namespace, folder: str) -> None:
    gc.set_threshold(700, 10, 1_000)  # affray serve's collector thresholds (web/server.py)
    with Store(f"sqlite:///{folder}/bench.db") as store:
        service = TableService(store, policy_pause=0, idle_evict=600)
        bench = Bench(service, args.scenario)
        cpu, wall = time.process_time(), time.perf_counter()
        warm = bench.create()  # imports, the content's caches: not a table's cost
        bench.play(warm, args.actions, read=True)
        idle = args.tables - args.live
        for i in range(idle):
            bench.play(bench.create(), args.idle_actions, read=False)
            if i % 500 == 499:
                service.evict_idle(now=FAR)
        service.evict_idle(now=FAR)
        gc.collect()
        base_mib = rss_mib()
        live = [bench.create() for _ in range(args.live)]
        traced = live[:TRACED]
        for table_id in live[TRACED:]:
            bench.play(table_id, args.actions, read=True)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for table_id in traced:
            bench.play(table_id, args.actions, read=True)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        traced_kib = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(traced) / 1024
        gc.collect()
        full_mib = rss_mib()
        built = (time.process_time() - cpu, time.perf_counter() - wall)
        in_memory = len(service.loaded())
        per_table = (full_mib - base_mib) * 1024 / args.live

        sample = live[-args.sample :]
        short = timed(bench, store, sample)
        long = [bench.create() for _ in range(args.long)]
        lengths = [bench.play(table_id, args.long_actions, read=True) for table_id in long]
        longs = timed(bench, store, long)
        service.close()
    print(
        f"{args.tables} tables of {args.scenario} in the store ({idle} played {args.idle_actions} actions and left "
        f"memory), {args.live} live ({args.actions} actions each, every seat's message read after them); built in "
        f"{built[1]:.0f} s ({built[0]:.0f} s CPU); {load()}"
    )
    print(
        f"resident memory, {in_memory} tables in memory and {args.tables} in the store: {full_mib:.0f} MB "
        f"(goal: under {GOALS['rss']:.0f} MB); {base_mib:.0f} MB before the live tables"
    )
    print(
        f"memory per live table after {args.actions} actions: {per_table:.0f} KiB of resident memory (growth over "
        f"{args.live} tables), {traced_kib:.0f} KiB of Python objects (tracemalloc, {len(traced)} tables) "
        f"(goal: under {GOALS['per_table']:.0f} KiB; before this change 425 KiB of Python objects, "
        f"docs/performance.md)"
    )
    print(
        f"first request after eviction ({len(sample)} tables, authenticate and the GM's whole message): "
        f"p50 {pct(short['wall'], 0.5):.1f} ms, p99 {pct(short['wall'], 0.99):.1f} ms wall; CPU "
        f"{spread(short, 'cpu')} (goal: p99 under {GOALS['p99']:.0f} ms), of which the rebuild "
        f"{spread(short, 'rebuild')}; rebuilt by a full replay instead: CPU {spread(short, 'replay_cpu')}, the "
        f"rebuild {spread(short, 'replay_rebuild')} ({ratio(short)}); {load()}"
    )
    print(
        f"the same for {len(long)} long fights ({min(lengths)}-{max(lengths)} records): CPU {spread(longs, 'cpu')}, "
        f"of which the rebuild {spread(longs, 'rebuild')}; by a full replay: CPU {spread(longs, 'replay_cpu')}, the "
        f"rebuild {spread(longs, 'replay_rebuild')} ({ratio(longs)}); {load()}"
    )


def spread(times: dict[str, list[float]], key: str) -> str:
    return f"p50 {pct(times[key], 0.5):.1f} ms, p99 {pct(times[key], 0.99):.1f} ms"


def ratio(times: dict[str, list[float]]) -> str:
    """How many times the snapshot's rebuild is faster than the replay's (medians)."""
    faster = statistics.median(times["replay_rebuild"]) / statistics.median(times["rebuild"])
    return f"the snapshot's rebuild {faster:.1f}x faster"


if __name__ == "__main__":
    main()
