"""Group commit (store/group.py): concurrent appends of one process share one transaction, each caller is answered
only once the commit that carried its record returned, a refused append in a group fails alone, and (kill -9) no
acknowledged append of a grouped commit is lost."""

from __future__ import annotations

import functools
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa

from affray.store import Record, Store, UnknownTable
from affray.store.group import GroupCommit, Pending
from tests.store.conftest import new_table
from tests.waiting import lines_of, wait_for

TIMEOUT_S = 60.0


def action(seq: int, table: str = "", submission_id: str | None = None) -> Record:
    return Record(
        seq=seq,
        kind="action",
        seat="ulla",
        actor="Ulla",
        payload={"table": table, "seq": seq},
        chain=f"{table}-{seq}",
        submission_id=submission_id,
    )


def start(work: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    """Run ``work`` in a thread; its result (or exception) lands in the returned list."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(work())
        except Exception as exc:
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_items_queued_while_a_commit_is_under_way_go_in_the_next_commit_together() -> None:
    release = threading.Event()
    batches: list[list[int]] = []

    def commit(batch: list[Pending[int]]) -> None:
        if not batches:
            assert release.wait(TIMEOUT_S)  # the first commit is slow (an fsync): the others queue meanwhile
        batches.append([p.item for p in batch])
        for pending in batch:
            pending.result = pending.item % 2 == 0

    group: GroupCommit[int] = GroupCommit(commit)
    first = start(lambda: group.run(0))
    wait_for(lambda: group._leading, TIMEOUT_S, "the first commit")
    others = [start(functools.partial(group.run, n)) for n in range(1, 5)]
    wait_for(lambda: group.waiting() == 4, TIMEOUT_S, "four items queued")
    assert batches == []  # nobody was answered before its commit
    release.set()
    for thread, _ in [first, *others]:
        thread.join(TIMEOUT_S)
    assert batches[0] == [0] and sorted(batches[1]) == [1, 2, 3, 4] and len(batches) == 2
    assert [out for _, out in [first, *others]] == [[True], [False], [True], [False], [True]]
    assert (group.items, group.commits) == (5, 2)


def test_a_failed_commit_is_every_item_s_error() -> None:
    def commit(batch: list[Pending[int]]) -> None:
        raise OSError("disk full")

    group: GroupCommit[int] = GroupCommit(commit)
    with pytest.raises(OSError, match="disk full"):
        group.run(1)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    with Store(store_url) as opened:
        for n in range(4):
            opened.create_table(new_table(f"tbl{n}"), ())
        yield opened


def hold_writes(store: Store) -> Callable[[], None]:
    """Block every append of ``store`` behind another transaction (SQLite: its write lock; PostgreSQL: a lock on
    the records table); returns the release."""
    conn = store._engine.connect()
    conn.execution_options(affray_write=True)
    transaction = conn.begin()
    if store.is_postgres:
        conn.execute(sa.text("LOCK TABLE records IN EXCLUSIVE MODE"))

    def release() -> None:
        transaction.rollback()
        conn.close()

    return release


def test_appends_that_wait_for_one_commit_share_the_next_and_a_refused_one_fails_alone(store: Store) -> None:
    assert store.append("tbl0", action(0, "tbl0", "used"))
    release = hold_writes(store)
    leader = start(lambda: store.append("tbl0", action(1, "tbl0")))
    wait_for(lambda: store._group._leading, TIMEOUT_S, "the first append's commit")
    group = [
        start(lambda: store.append("tbl1", action(0, "tbl1"))),
        start(lambda: store.append("tbl2", action(0, "tbl2"))),
        start(lambda: store.append("tbl0", action(0, "tbl0"))),  # a taken seq: False
        start(lambda: store.append("tbl3", action(2, "tbl3"))),  # a gap: ValueError
        start(lambda: store.append("missing", action(0))),  # UnknownTable
        start(lambda: store.append("tbl0", action(2, "tbl0", "used"))),
    ]  # a used submission id: False
    wait_for(lambda: store._group.waiting() == len(group), TIMEOUT_S, "six appends queued")
    release()
    for thread, _ in [leader, *group]:
        thread.join(TIMEOUT_S)
    results = [out[0] for _, out in [leader, *group]]
    assert results[:4] == [True, True, True, False]
    assert isinstance(results[4], ValueError) and "has 0 records; seq 2 would leave a gap" in str(results[4])
    assert isinstance(results[5], UnknownTable) and results[6] is False
    assert store.commit_counts() == (8, 3)  # the first append, the held one, then the six together
    assert [r.payload for r in store.records("tbl0")] == [{"table": "tbl0", "seq": 0}, {"table": "tbl0", "seq": 1}]
    assert [r.chain for r in store.records("tbl1")] == ["tbl1-0"]
    assert [r.chain for r in store.records("tbl2")] == ["tbl2-0"]
    assert store.records("tbl3") == []


WRITER = """
import sys, threading, time
import sqlalchemy as sa
from affray.store import Record, Store
store = Store(sys.argv[1])
tables = [f"tbl{n}" for n in range(4)]
printing = threading.Lock()

def write(table):
    seq = 0
    while True:
        if store.append(table, Record(seq=seq, kind="action", seat="ulla", actor="Ulla",
                                      payload={"table": table, "seq": seq}, chain=f"{table}-{seq}")):
            with printing:
                print(table, seq, flush=True)  # acknowledged: committed before append returned
            seq += 1

# The first commit waits behind a held write, so that the other tables' appends queue and share the next commit.
conn = store._engine.connect()
conn.execution_options(affray_write=True)
held = conn.begin()
if store.is_postgres:
    conn.execute(sa.text("LOCK TABLE records IN EXCLUSIVE MODE"))
for table in tables:
    threading.Thread(target=write, args=(table,), daemon=True).start()
deadline = time.monotonic() + 60
while store._group.waiting() < len(tables) - 1 and time.monotonic() < deadline:
    time.sleep(0.001)
held.rollback()
conn.close()
while store.commit_counts()[1] < 2 and time.monotonic() < deadline:
    time.sleep(0.001)
with printing:
    print("counts", *store.commit_counts(), flush=True)
threading.Event().wait()
"""
ACKED_BEFORE_KILL = 60


def test_no_acknowledged_append_of_a_grouped_commit_is_lost_to_a_sigkill(store_url: str) -> None:
    with Store(store_url) as store:
        for n in range(4):
            store.create_table(new_table(f"tbl{n}"), ())
    acked: list[tuple[str, int]] = []
    counts: list[int] = []
    with subprocess.Popen([sys.executable, "-c", WRITER, store_url], stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdout is not None
        lines = lines_of(writer.stdout)
        try:
            deadline = time.monotonic() + TIMEOUT_S
            while (len(acked) < ACKED_BEFORE_KILL or not counts) and (left := deadline - time.monotonic()) > 0:
                try:
                    words = lines.get(timeout=left).split()
                except queue.Empty:
                    break
                if words[0] == "counts":
                    counts = [int(words[1]), int(words[2])]
                else:
                    acked.append((words[0], int(words[1])))
        finally:
            os.kill(writer.pid, signal.SIGKILL)  # in the middle of the four writers' appends
            writer.wait(timeout=TIMEOUT_S)
    assert len(acked) >= ACKED_BEFORE_KILL, f"the writers stopped after {len(acked)} appends"
    assert counts and counts[0] > counts[1], f"no commit carried several appends: {counts}"
    with Store(store_url) as after:
        for n in range(4):
            table = f"tbl{n}"
            records = after.records(table)
            assert [r.seq for r in records] == list(range(len(records)))  # no hole
            assert all(r.payload == {"table": table, "seq": r.seq} for r in records)
            assert {seq for t, seq in acked if t == table} <= {r.seq for r in records}, f"{table} lost an append"
