"""The ledger: the one path every change of a live table takes to the store, and the answers it gives (docs/table.md).

A change is made on the match in memory under the table's lock; :meth:`Ledger.commit` then appends its record to
the store. The database's unique (table, seq) decides races between processes: a lost race is rolled back to what
the store holds (:meth:`Ledger.reload`) and the caller submits again or answers ``stale_version``; only a committed
record is acknowledged (:meth:`Ledger.answer`). Every other use of the store by the table's rooms goes through
:meth:`Ledger.guard`, which turns the database's failure into ``503 store_unavailable``; a change that appends
nothing (a pause, a chat line, a new token) is announced to every process (:meth:`Ledger.announce`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from affray.store import Store, StoreError
from affray.table.errors import CONFLICT, UNAVAILABLE, Refusal
from affray.table.messages import Answer
from affray.table.registry import SetupStores
from affray.table.restore import reload, to_store
from affray.table.seats import SeatInfo
from affray.table.snapshot import SNAPSHOT_EVERY
from affray.table.state import Table

T = TypeVar("T")

log = logging.getLogger(__name__)


class Ledger:
    """See the module docstring. ``store_failed()`` hears every failure of the database (the metrics);
    ``snapshot_due(table)`` is called when a table has :data:`~affray.table.snapshot.SNAPSHOT_EVERY` records since
    its newest snapshot (:meth:`affray.table.eviction.Eviction.snapshot_soon`)."""

    def __init__(
        self, store: Store, setups: SetupStores, store_failed: Callable[[], None], snapshot_due: Callable[[Table], None]
    ) -> None:
        self.store = store
        self.setups = setups
        self._store_failed = store_failed
        self._snapshot_due = snapshot_due

    def guard(self, call: Callable[[], T]) -> T:
        """``call()``, a use of the store: its failure is ``503 store_unavailable``, logged and heard."""
        try:
            return call()
        except StoreError as exc:
            self._store_failed()
            log.error("store: %s", exc)
            raise Refusal("store_unavailable", "The database is not available; try again.", UNAVAILABLE) from None

    @staticmethod
    def check_open(table: Table) -> None:
        """Refuse a change of a table the GM ended, whose fight is over, or that the GM paused (409)."""
        if table.ended is not None:
            raise Refusal("table_ended", "The GM has ended this fight.", CONFLICT)
        if table.match.outcome() is not None:
            raise Refusal("match_over", "The fight is over; no more actions can be taken.", CONFLICT)
        if table.paused:
            raise Refusal("paused", "The GM has paused the table.", CONFLICT)

    @staticmethod
    def answer(table: Table, seat: SeatInfo, seq: int) -> Answer:
        """The answer to an accepted action: its version, seq and the seat's events; ``chosen_at`` when it was
        chosen at an earlier version and stood behind other actors' moves (a simultaneous window)."""
        entries = table.match.events_since(seq, table.match_seat(seat))
        answer = Answer(version=seq + 1, seq=seq, events=entries[0]["events"] if entries else [])
        chosen_at = table.match.records[seq].chosen_at
        if chosen_at is not None:
            answer["chosen_at"] = chosen_at
        return answer

    def commit(self, table: Table, key: str | None) -> bool:
        """Append the match's newest record to the store (under the table's lock), with ``key`` its submission's
        ``seat/id`` if it has one. False, with the table rolled back to the store's log, when the database says
        another record took that seq first."""
        record = table.match.records[-1]
        chain = table.link(record.seq)
        try:
            ok = self.store.append(table.id, to_store(record, chain, key))
        except StoreError as exc:
            self._store_failed()
            log.error("table %s: append failed: %s", table.id, exc)
            self.reload(table)
            raise Refusal(
                "store_unavailable", "The database did not take the action; try again.", UNAVAILABLE
            ) from None
        if not ok:
            self.reload(table)
            return False
        table.chains.append(chain)
        if key is not None:
            table.by_submission[key] = record.seq
        table.used = time.monotonic()  # a table whose policies play is in use
        if table.version - table.snapshot_seq >= SNAPSHOT_EVERY:
            self._snapshot_due(table)
        self._record_end(table)
        return True

    def _record_end(self, table: Table) -> None:
        outcome = table.match.outcome()
        if outcome is not None and not table.stored_end:
            table.stored_end = True
            self.guard(lambda: self.store.end_table(table.id, {"winner": outcome.winner, "reason": outcome.reason}))

    def reload(self, table: Table) -> None:
        """Bring ``table`` back to exactly what the store holds (after a lost race, a failed write, or a copy that
        could not catch up). Under the table's lock."""
        static = self.setups.static_for(table.match.ruleset.name, table.match.setup_data, table.match.options_dict)
        self.guard(lambda: reload(self.store, table, static))

    def announce(self, table: Table) -> None:
        """Tell every process (and this one) about a change that appended nothing (pause, end, new token)."""
        self.guard(lambda: self.store.notify(table.id, table.version))
