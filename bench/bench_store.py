"""Store benchmarks: how fast the log of record takes durable appends, and reads them back.

1. Appends per second, one writer, on SQLite (WAL, synchronous=FULL: every append is fsynced before it
   returns) and on PostgreSQL (the throwaway test server of tests/pg.py, started here, with fsync off, so
   its figure is the store's own overhead, not the disk's).
2. Appends per second with 4 writers racing on 4 tables (2 Store objects), the same two backends.
3. Reading a 1,000-record log back (``records``), milliseconds.

Baselines in the same run: the bare driver (sqlite3 / psycopg) inserting one row and committing it, on the
same database settings, so the store's overhead over the database's own cost shows.

Run: ``.venv/bin/python bench/bench_store.py`` (or ``make bench``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from tests.pg import PgServer, postgres_server  # noqa: E402

from affray.store import NewTable, Record, Store  # noqa: E402


def table(table_id: str) -> NewTable:
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


def appends_per_second(store: Store, table_id: str, n: int) -> float:
    store.create_table(table(table_id), [])
    start = time.perf_counter()
    for seq in range(n):
        store.append(table_id, record(seq))
    return n / (time.perf_counter() - start)


def racing_appends_per_second(url: str, writers: int, n: int) -> float:
    stores = [Store(url), Store(url)]
    for i in range(writers):
        stores[0].create_table(table(f"race{i}"), [])

    def work(i: int) -> None:
        for seq in range(n):
            stores[i % 2].append(f"race{i}", record(seq))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(writers)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    for store in stores:
        store.close()
    return writers * n / elapsed


def read_ms(store: Store, table_id: str) -> float:
    start = time.perf_counter()
    store.records(table_id)
    return (time.perf_counter() - start) * 1000


def bare_sqlite_commits_per_second(path: Path, n: int) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=FULL"):
        conn.execute(f"PRAGMA {pragma}")
    conn.execute("CREATE TABLE bare (seq INTEGER PRIMARY KEY, payload TEXT)")
    start = time.perf_counter()
    for seq in range(n):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO bare VALUES (?, ?)", (seq, '{"type": "attack"}'))
        conn.execute("COMMIT")
    rate = n / (time.perf_counter() - start)
    conn.close()
    return rate


def bare_pg_commits_per_second(server: PgServer, n: int) -> float:
    with server.connect() as conn:
        conn.execute("CREATE TABLE bare (seq INTEGER PRIMARY KEY, payload JSON)")
        conn.autocommit = False
        start = time.perf_counter()
        for seq in range(n):
            conn.execute("INSERT INTO bare VALUES (%s, %s)", (seq, '{"type": "attack"}'))
            conn.commit()
        return n / (time.perf_counter() - start)


def run(name: str, url: str) -> None:
    with Store(url) as store:
        rate = appends_per_second(store, "one", 1000)
        print(f"{name:10} 1 writer:  {rate:8.0f} appends/s ({1000 / rate:.2f} ms each, durable on return)")
        print(f"{name:10} read 1,000 records: {read_ms(store, 'one'):.1f} ms")
    print(f"{name:10} 4 writers: {racing_appends_per_second(url, 4, 250):8.0f} appends/s")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        run("SQLite", f"sqlite:///{Path(folder) / 'bench.db'}")
        print(
            f"{'SQLite':10} baseline, bare sqlite3 insert + commit: "
            f"{bare_sqlite_commits_per_second(Path(folder) / 'bare.db', 1000):8.0f} commits/s"
        )
    with postgres_server() as server:
        run("PostgreSQL", server.create_database("bench"))
        print(
            f"{'PostgreSQL':10} baseline, bare psycopg insert + commit: "
            f"{bare_pg_commits_per_second(server, 1000):8.0f} commits/s"
        )


if __name__ == "__main__":
    main()
