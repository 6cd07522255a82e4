"""Appends in one process (docs/performance.md, "Cheaper appends and pushes"): the CPU each append costs this
process, and how many appends each commit carries when several threads append to different tables of one Store
(group commit, store/group.py).

1. One writer: APPENDS appends to one table, CPU microseconds each (``time.process_time``: this process's, the
   machine is shared) and appends per wall second.
2. Three threads on one Store, each appending to its own table: the same, and the appends per commit.

On SQLite on disk (WAL, ``synchronous=FULL``: a real fsync per commit), SQLite in ``/dev/shm`` (no fsync cost) and
the test suite's throwaway PostgreSQL (``tests/pg.py``, without fsync). Run it against another checkout's store to
compare (``PYTHONPATH=OTHER/src .venv/bin/python bench/bench_appends.py``: a store without group commit prints no
appends per commit). Prints figures; asserts nothing.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.pg import postgres_server

from affray.store import NewTable, Record, Store

APPENDS = 1500
THREADS = 3


def new_table(table_id: str) -> NewTable:
    return NewTable(
        id=table_id,
        ruleset="hud",
        title="bench",
        scenario="hud/nerdified_duel",
        setup={},
        options={},
        seed_hex="00" * 32,
        commitment="11" * 32,
        rules_version="1",
    )


def record(seq: int) -> Record:
    return Record(
        seq=seq,
        kind="action",
        seat="a",
        actor="Vesna",
        payload={"type": "attack", "target": "Hald"},
        chain=f"{seq:064x}",
        submission_id=f"s{seq}",
    )


def measure(url: str, label: str) -> None:
    with Store(url) as store:
        tables = [f"t{n}" for n in range(THREADS + 1)]
        for table in tables:
            store.create_table(new_table(table), ())
        cpu, wall = time.process_time(), time.perf_counter()
        for seq in range(APPENDS):
            store.append(tables[0], record(seq))
        one_cpu, one_wall = time.process_time() - cpu, time.perf_counter() - wall
        counts = getattr(store, "commit_counts", None)
        before = counts() if counts else None
        each = APPENDS // THREADS

        def write(table: str) -> None:
            for seq in range(each):
                store.append(table, record(seq))

        threads = [threading.Thread(target=write, args=(table,)) for table in tables[1:]]
        cpu, wall = time.process_time(), time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        many_cpu, many_wall = time.process_time() - cpu, time.perf_counter() - wall
        grouped = ""
        if counts and before:
            items, commits = (a - b for a, b in zip(counts(), before, strict=True))
            grouped = f", {items / commits:.2f} appends per commit"
        n = each * THREADS
        print(
            f"{label}: 1 writer {one_cpu / APPENDS * 1e6:.0f} us CPU per append ({APPENDS / one_wall:.0f}/s); "
            f"{THREADS} threads {many_cpu / n * 1e6:.0f} us CPU per append ({n / many_wall:.0f}/s{grouped})"
        )


def main() -> None:
    with contextlib.ExitStack() as stack:
        disk = stack.enter_context(tempfile.TemporaryDirectory())
        memory = stack.enter_context(tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
        measure(f"sqlite:///{disk}/bench.db", "SQLite on disk   ")
        measure(f"sqlite:///{memory}/bench.db", "SQLite in memory ")
        measure(stack.enter_context(postgres_server()).create_database("bench"), "PostgreSQL       ")


if __name__ == "__main__":
    main()
