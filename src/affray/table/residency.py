"""Which tables a server holds in memory (docs/table.md, "Tables in memory"): the sweep that drops a table nobody
used for ``idle_evict`` seconds, the snapshots that make its rebuild cheap (:mod:`affray.table.snapshot`), and, at
start, the tables that must be loaded though nobody asks (a running GM countdown).

A table may leave memory when it has had no request for ``idle_evict`` seconds (``Table.used``, set by every lookup,
every record and the end of its last connection or long-poll), no follower hears it, no long-poll waits on it, no
policy move is scheduled for it and no countdown runs. Everything here runs on the service's worker thread; it takes
the table's lock, then the service's, the order every other path takes them in.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from affray.store import StoreError
from affray.table.errors import Refusal
from affray.table.snapshot import take
from affray.table.state import Table

if TYPE_CHECKING:
    from affray.table.service import TableService

SWEEPS_PER_IDLE = 10  # the idle sweep runs this many times per idle_evict (a table leaves 0-10 % late)
SWEEP_LIMITS = (1.0, 60.0)  # ... but not more often than every second nor less often than every minute
log = logging.getLogger(__name__)


def start(service: TableService) -> None:
    """On the worker: load the tables whose countdown runs, then sweep every so often (when eviction is on)."""
    service.worker.schedule(0, lambda: load_timed(service))
    if service.idle_evict is not None:
        every = min(max(service.idle_evict / SWEEPS_PER_IDLE, SWEEP_LIMITS[0]), SWEEP_LIMITS[1])
        service.worker.schedule(every, lambda: _sweep(service, every))


def load_timed(service: TableService) -> None:
    """Load the tables whose GM countdown runs, so that it runs out on time though nobody asks (at start)."""
    try:
        timed = service.store.timed_tables()
    except StoreError as exc:
        log.error("store: the tables with a running countdown were not loaded: %s", exc)
        return
    for table_id in timed:
        try:
            service.table(table_id)
        except Refusal as exc:
            log.error("table %s not loaded: %s", table_id, exc.message)


def idle(service: TableService, table: Table, now: float) -> bool:
    """Whether ``table`` may leave memory (see the module docstring). Under the service's ``_tables_lock``."""
    assert service.idle_evict is not None
    return now - table.used >= service.idle_evict and unused(service, table)


def unused(service: TableService, table: Table) -> bool:
    """Nothing here needs ``table`` now: no connection or long-poll hears it, no policy move is scheduled for it and
    no countdown runs on it. What lets an idle table leave memory, and a table another process changes wait until
    its next use (:func:`affray.table.notices.may_lag`). Under the service's ``_tables_lock``."""
    return not service.audience.hears(table.id) and table.policy_due == -1 and not _counting_down(table)


def _counting_down(table: Table) -> bool:
    """Whether a GM countdown runs on ``table`` (the table must stay in memory and current for it to run out)."""
    return isinstance(table.config.get("timer"), dict) and not table.over


def evict_idle(service: TableService, now: float | None = None) -> list[str]:
    """Drop every idle table from memory, after snapshotting any records since its newest snapshot (its next load
    then replays none); returns their ids. ``now``: the monotonic time to judge idleness at (default: now)."""
    if service.idle_evict is None:
        return []
    now = time.monotonic() if now is None else now
    with service._tables_lock:
        candidates = [table for table in service._tables.values() if idle(service, table, now)]
    gone = []
    for table in candidates:
        if table.version > table.snapshot_seq and not table.behind_store:  # a copy behind the store: nothing new
            snapshot(service, table)
        with table.lock, service._tables_lock:
            if service._tables.get(table.id) is table and idle(service, table, now):
                del service._tables[table.id]
                service.audience.forget(table.id)
                gone.append(table.id)
    return gone


def _sweep(service: TableService, every: float) -> None:
    try:
        gone = evict_idle(service)
        if gone:
            log.info("%s idle table(s) left memory", len(gone))
    finally:
        service.worker.schedule(every, lambda: _sweep(service, every))


def snapshot(service: TableService, table: Table) -> bool:
    """Store a snapshot of ``table`` as it is now: pickled under its lock, written after. False when it could not be
    taken or written (logged: the table replays more records on its next load, nothing else)."""
    with table.lock:
        if table.version == 0 or table.version <= table.snapshot_seq:
            return False
        try:
            taken = take(table.match, table.head)
        except Exception:
            log.exception("table %s: no snapshot at version %s", table.id, table.version)
            table.snapshot_seq = table.version  # not again before another SNAPSHOT_EVERY records
            return False
    try:
        service.store.put_snapshot(table.id, taken)
    except StoreError as exc:
        log.error("table %s: the snapshot at version %s was not stored: %s", table.id, taken.seq, exc)
        return False
    with table.lock:
        table.snapshot_seq = max(table.snapshot_seq, taken.seq)
    return True


def snapshot_soon(service: TableService, table: Table) -> None:
    """Snapshot ``table`` on the worker thread (off the action's path), one job at a time per table."""
    with service._tables_lock:
        if table.id in service._snapshotting:
            return
        service._snapshotting.add(table.id)

    def job() -> None:
        try:
            snapshot(service, table)
        finally:
            with service._tables_lock:
                service._snapshotting.discard(table.id)

    service.worker.schedule(0, job)
