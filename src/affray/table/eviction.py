"""Which tables stay in memory (docs/table.md, "Tables in memory"): the sweep that drops a table nobody used for
``idle_evict`` seconds, the snapshots that make its rebuild cheap (:mod:`affray.table.snapshot`), and, at start, the
tables that must be loaded though nobody asks (a running GM countdown).

A table may leave memory when it has had no request for ``idle_evict`` seconds (``Table.used``, set by every lookup,
every record and the end of its last connection or long-poll), no follower hears it, no long-poll waits on it, no
policy move is scheduled for it and no countdown runs (:func:`unused`). Everything here runs on the worker thread;
it takes the table's lock, then the registry's, the order every other path takes them in.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from affray.store import Store, StoreError
from affray.table.audience import Audience
from affray.table.errors import Refusal
from affray.table.registry import Registry
from affray.table.snapshot import take
from affray.table.state import Table
from affray.table.worker import Worker

SWEEPS_PER_IDLE = 10  # the idle sweep runs this many times per idle_evict (a table leaves 0-10 % late)
SWEEP_LIMITS = (1.0, 60.0)  # ... but not more often than every second nor less often than every minute
log = logging.getLogger(__name__)


def unused(audience: Audience, table: Table) -> bool:
    """Nothing here needs ``table`` now: no connection or long-poll hears it, no policy move is scheduled for it and
    no countdown runs on it. What lets an idle table leave memory, and a table another process changes wait until
    its next use (:meth:`affray.table.catch_up.CatchUp.may_lag`). Under the registry's ``lock``."""
    return not audience.hears(table.id) and table.policy_due == -1 and not counting_down(table)


def counting_down(table: Table) -> bool:
    """Whether a GM countdown runs on ``table`` (the table must stay in memory and current for it to run out)."""
    return isinstance(table.config.get("timer"), dict) and not table.over


class Eviction:
    """The idle sweep and the snapshots of the tables held in ``registry`` (see the module docstring).
    ``idle_evict``: seconds after which a table nobody uses leaves memory (None: never)."""

    def __init__(
        self, registry: Registry, audience: Audience, store: Store, worker: Worker, idle_evict: float | None
    ) -> None:
        self.idle_evict = idle_evict
        self._registry = registry
        self._audience = audience
        self._store = store
        self._worker = worker

    def start(self, load: Callable[[str], object]) -> None:
        """On the worker: load the tables whose countdown runs (with ``load(table_id)``), then sweep every so often
        (when eviction is on)."""
        self._worker.schedule(0, lambda: self.load_timed(load))
        if self.idle_evict is not None:
            every = min(max(self.idle_evict / SWEEPS_PER_IDLE, SWEEP_LIMITS[0]), SWEEP_LIMITS[1])
            self._worker.schedule(every, lambda: self._sweep(every))

    def load_timed(self, load: Callable[[str], object]) -> None:
        """Load the tables whose GM countdown runs, so that it runs out on time though nobody asks (at start)."""
        try:
            timed = self._store.timed_tables()
        except StoreError as exc:
            log.error("store: the tables with a running countdown were not loaded: %s", exc)
            return
        for table_id in timed:
            try:
                load(table_id)
            except Refusal as exc:
                log.error("table %s not loaded: %s", table_id, exc.message)

    def idle(self, table: Table, now: float) -> bool:
        """Whether ``table`` may leave memory (see the module docstring). Under the registry's ``lock``."""
        assert self.idle_evict is not None
        return now - table.used >= self.idle_evict and unused(self._audience, table)

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop every idle table from memory, after snapshotting any records since its newest snapshot (its next load
        then replays none); returns their ids. ``now``: the monotonic time to judge idleness at (default: now)."""
        if self.idle_evict is None:
            return []
        at = time.monotonic() if now is None else now
        candidates = self._registry.select(lambda table: self.idle(table, at))
        gone = []
        for table in candidates:
            if table.version > table.snapshot_seq and not table.behind_store:  # a copy behind the store: nothing new
                self.snapshot(table)
            with table.lock, self._registry.lock:
                if self._registry.holding(table) and self.idle(table, at):
                    self._registry.discard(table.id)
                    self._audience.forget(table.id)
                    gone.append(table.id)
        return gone

    def _sweep(self, every: float) -> None:
        try:
            gone = self.evict_idle()
            if gone:
                log.info("%s idle table(s) left memory", len(gone))
        finally:
            self._worker.schedule(every, lambda: self._sweep(every))

    def snapshot(self, table: Table) -> bool:
        """Store a snapshot of ``table`` as it is now: pickled under its lock, written after. False when it could not
        be taken or written (logged: the table replays more records on its next load, nothing else)."""
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
            self._store.put_snapshot(table.id, taken)
        except StoreError as exc:
            log.error("table %s: the snapshot at version %s was not stored: %s", table.id, taken.seq, exc)
            return False
        with table.lock:
            table.snapshot_seq = max(table.snapshot_seq, taken.seq)
        return True

    def snapshot_soon(self, table: Table) -> None:
        """Snapshot ``table`` on the worker thread (off the action's path), one job at a time per table."""
        if not self._registry.claim_snapshot(table.id):
            return

        def job() -> None:
            try:
                self.snapshot(table)
            finally:
                self._registry.release_snapshot(table.id)

        self._worker.schedule(0, job)
