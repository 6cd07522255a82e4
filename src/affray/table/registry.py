"""The tables this process holds in memory, by id, under one lock (docs/table.md, "Tables in memory"), and the
setup-only stores their matches share.

:class:`Registry` holds each live table by its id, restarts its idle clock (``Table.used``) at every look-up, and
knows which tables have a snapshot job scheduled. Its ``lock`` also guards who hears each table (the
:class:`~affray.table.audience.Audience` is given it) and each table's ``connected`` counts. Lock order: a table's
lock, then this one, never the other way round. Loading a table the store holds is :mod:`affray.table.loading`'s;
dropping an idle one, :mod:`affray.table.eviction`'s.

:class:`SetupStores` keeps the memo's setup-only stores, one per setup and options, shared by the tables of that
scenario and gone with the last of them (core/memo.py ``TableStatic``).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import weakref
from collections.abc import Callable

from affray.core.memo import TableStatic
from affray.table.state import Table


class Registry:
    """See the module docstring. Methods take ``lock`` themselves unless they say "under ``lock``"."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self._snapshotting: set[str] = set()  # tables whose snapshot job is scheduled

    def get(self, table_id: str) -> Table | None:
        """The table held under ``table_id`` (its idle clock restarted), or None."""
        with self.lock:
            table = self._tables.get(table_id)
            if table is not None:
                table.used = time.monotonic()
            return table

    def peek(self, table_id: str) -> Table | None:
        """The table held under ``table_id``, or None, its idle clock left as it is (a change notice is no use)."""
        with self.lock:
            return self._tables.get(table_id)

    def put(self, table: Table) -> None:
        """Hold a table just opened here."""
        with self.lock:
            self._tables[table.id] = table
            table.used = time.monotonic()

    def add(self, table: Table) -> Table:
        """Hold ``table`` unless another thread loaded its id meanwhile; returns the one held (its clock
        restarted)."""
        with self.lock:
            held = self._tables.setdefault(table.id, table)
            held.used = time.monotonic()
            return held

    def ids(self) -> list[str]:
        with self.lock:
            return list(self._tables)

    def held(self) -> list[Table]:
        """The tables held now."""
        with self.lock:
            return list(self._tables.values())

    def holds(self, table_id: str) -> bool:
        with self.lock:
            return table_id in self._tables

    def select(self, keep: Callable[[Table], bool]) -> list[Table]:
        """The tables held for which ``keep(table)`` (called under ``lock``) is true."""
        with self.lock:
            return [table for table in self._tables.values() if keep(table)]

    def touch(self, table_id: str) -> None:
        """Restart the idle clock of the table (if held): it was used now. Under ``lock``."""
        table = self._tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()

    def holding(self, table: Table) -> bool:
        """Whether ``table`` itself is the one held under its id. Under ``lock``."""
        return self._tables.get(table.id) is table

    def discard(self, table_id: str) -> None:
        """Hold the table no more. Under ``lock``."""
        self._tables.pop(table_id, None)

    def claim_snapshot(self, table_id: str) -> bool:
        """Mark a snapshot job of the table scheduled; False when one already is (one at a time per table)."""
        with self.lock:
            if table_id in self._snapshotting:
                return False
            self._snapshotting.add(table_id)
            return True

    def release_snapshot(self, table_id: str) -> None:
        """The table's snapshot job is over."""
        with self.lock:
            self._snapshotting.discard(table_id)


class SetupStores:
    """The memo's setup-only stores (see the module docstring). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stores: weakref.WeakValueDictionary[str, TableStatic] = weakref.WeakValueDictionary()

    def static_for(self, ruleset: str, setup: object, options: object) -> TableStatic:
        """The memo's setup-only store for tables of this ruleset, setup and options (one per scenario, shared)."""
        key = hashlib.sha256(json.dumps([ruleset, setup, options], sort_keys=True).encode()).hexdigest()
        with self._lock:
            found = self._stores.get(key)
            if found is None:
                found = self._stores[key] = TableStatic()
            return found
