"""Other processes' changes (docs/table.md, "Several processes"): what a server does with the store's change notices.

Every append, pause, end, chat line and new token sends a notice (:mod:`affray.store.listen`). For a table this
process holds, :meth:`CatchUp.heard` brings its copy up to date (the records appended elsewhere; on PostgreSQL the
row and seats too, for a change that appended nothing), then plays any policy move due and pushes the change to the
seats connected here. A table nobody hears here is only marked behind (:meth:`CatchUp.may_lag`) and caught up at
its next use (:meth:`CatchUp.keep_up`): behind a proxy that routes each table to one process, the others still hold
the tables they created or served once, and reading every change of those was work for nobody.

Everything here takes the table's lock, then the registry's, the order every other path takes them in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from affray.table.audience import Audience
from affray.table.eviction import unused
from affray.table.ledger import Ledger
from affray.table.registry import Registry
from affray.table.restore import catch_up as read_new_records
from affray.table.restore import refresh_from_row
from affray.table.state import Table

EVERYTHING = 1 << 62  # a version past any table's: read every record after the copy's
log = logging.getLogger(__name__)


class CatchUp:
    """Keeps the copies in ``registry`` up with the store (see the module docstring); ``schedule_policy(table)``
    plays the policy move then due (:meth:`affray.table.policy_seats.PolicySeats.schedule`)."""

    def __init__(
        self, registry: Registry, ledger: Ledger, audience: Audience, schedule_policy: Callable[[Table], None]
    ) -> None:
        self._registry = registry
        self._ledger = ledger
        self._audience = audience
        self._schedule_policy = schedule_policy

    def heard(self, table_id: str, version: int, own: bool, reread: bool = False) -> None:
        """A change notice: catch up with records appended elsewhere; on PostgreSQL another process's notice that
        appended nothing (or ``reread``) also re-reads the table's row and seats (pause, end, a replaced token).

        A notice this process sent (``own``: its own action, pause, chat line) re-reads nothing: the change is
        already in memory. Reading the row, the chat and the seats back after every action of its own cost a
        PostgreSQL server three queries an action (docs/performance.md, "What an action costs")."""
        table = self._registry.peek(table_id)
        if table is None:
            return
        with table.lock:
            if not own and self.may_lag(table):
                table.behind_store = True  # caught up on its next use (keep_up): nobody here needs it before
                return
            self._read(table, version, own, reread)
            table.changed.notify_all()
        self._schedule_policy(table)
        self._audience.changed(table)

    def reconnected(self) -> None:
        """The listener was cut off: any notice since may be lost, so every table catches up and re-reads its row and
        seats (a token replaced meanwhile by another process must stop opening its seat here too)."""
        for table_id in self._registry.ids():
            self.heard(table_id, EVERYTHING, own=False, reread=True)

    def may_lag(self, table: Table) -> bool:
        """Whether ``table`` may fall behind other processes' changes until its next use: nothing here hears it (no
        connection, no long-poll), no policy move is scheduled here and no countdown runs here
        (:func:`affray.table.eviction.unused`). Under ``table.lock``; takes the registry's ``lock``.

        Policy seats need no copy kept current: the process that appends a record schedules the policy move after it
        (its copy is current), and one that catches up schedules any move due (:meth:`keep_up`)."""
        with self._registry.lock:
            return unused(self._audience, table)

    def keep_up(self, table: Table) -> None:
        """Bring ``table`` up to the store if other processes changed it while nothing here heard it
        (:meth:`heard`), and schedule the policy move then due; nothing for a current one."""
        with table.lock:
            if not table.behind_store:
                return
            table.behind_store = False
            self._read(table, EVERYTHING, own=False, reread=True)
        self._schedule_policy(table)

    def _read(self, table: Table, version: int, own: bool, reread: bool) -> None:
        """:meth:`heard`'s reading, under ``table.lock``; a copy that cannot be brought up to date is loaded
        again."""
        store = self._ledger.store
        try:
            newer = version > table.version
            if newer:
                read_new_records(store, table)
            if store.is_postgres and (reread or not (newer or own)):
                refresh_from_row(store, table)
        except Exception:
            log.exception("table %s: catching up failed; reloading", table.id)
            self._ledger.reload(table)
