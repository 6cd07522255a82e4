"""Other processes' changes (docs/table.md, "Several processes"): what a server does with the store's change notices.

Every append, pause, end, chat line and new token sends a notice (:mod:`affray.store.listen`). For a table this
process holds, :func:`heard` brings its copy up to date (the records appended elsewhere; on PostgreSQL the row and
seats too, for a change that appended nothing), then plays any policy move due and pushes the change to the seats
connected here. A table nobody hears here is only marked behind (:func:`may_lag`) and caught up at its next use
(:func:`keep_up`): behind a proxy that routes each table to one process, the others still hold the tables they
created or served once, and reading every change of those was work for nobody.

Everything here takes the table's lock, then the service's, the order every other path takes them in.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from affray.table.residency import unused
from affray.table.restore import catch_up, refresh_from_row
from affray.table.state import Table

if TYPE_CHECKING:
    from affray.table.service import TableService

EVERYTHING = 1 << 62  # a version past any table's: read every record after the copy's
log = logging.getLogger(__name__)


def heard(service: TableService, table_id: str, version: int, own: bool, reread: bool = False) -> None:
    """A change notice: catch up with records appended elsewhere; on PostgreSQL another process's notice that
    appended nothing (or ``reread``) also re-reads the table's row and seats (pause, end, a replaced token).

    A notice this process sent (``own``: its own action, pause, chat line) re-reads nothing: the change is already
    in memory. Reading the row, the chat and the seats back after every action of its own cost a PostgreSQL server
    three queries an action (docs/performance.md, "What an action costs")."""
    with service._tables_lock:
        table = service._tables.get(table_id)
    if table is None:
        return
    with table.lock:
        if not own and may_lag(service, table):
            table.behind_store = True  # caught up on its next use (keep_up): nobody here needs it before
            return
        _read(service, table, version, own, reread)
        table.changed.notify_all()
    service._schedule_policy(table)
    service.changed(table)


def reconnected(service: TableService) -> None:
    """The listener was cut off: any notice since may be lost, so every table catches up and re-reads its row and
    seats (a token replaced meanwhile by another process must stop opening its seat here too)."""
    for table_id in service.loaded():
        heard(service, table_id, EVERYTHING, own=False, reread=True)


def may_lag(service: TableService, table: Table) -> bool:
    """Whether ``table`` may fall behind other processes' changes until its next use: nothing here hears it (no
    connection, no long-poll), no policy move is scheduled here and no countdown runs here
    (:func:`affray.table.residency.unused`). Under ``table.lock``; takes the service's ``_tables_lock``.

    Policy seats need no copy kept current: the process that appends a record schedules the policy move after it
    (its copy is current), and one that catches up schedules any move due (:func:`keep_up`)."""
    with service._tables_lock:
        return unused(service, table)


def keep_up(service: TableService, table: Table) -> None:
    """Bring ``table`` up to the store if other processes changed it while nothing here heard it (:func:`heard`), and
    schedule the policy move then due; nothing for a current one."""
    with table.lock:
        if not table.behind_store:
            return
        table.behind_store = False
        _read(service, table, EVERYTHING, own=False, reread=True)
    service._schedule_policy(table)


def _read(service: TableService, table: Table, version: int, own: bool, reread: bool) -> None:
    """:func:`heard`'s reading, under ``table.lock``; a copy that cannot be brought up to date is loaded again."""
    try:
        newer = version > table.version
        if newer:
            catch_up(service.store, table)
        if service.store.is_postgres and (reread or not (newer or own)):
            refresh_from_row(service.store, table)
    except Exception:
        log.exception("table %s: catching up failed; reloading", table.id)
        service._reload(table)
