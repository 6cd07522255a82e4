"""Loading a table the store holds: its rows read through the ledger's guard, rebuilt and checked
(:func:`affray.table.restore.build_table`: from its newest snapshot and the records after it, against the stored
commitment and chain), or refused.

A table whose rows cannot be read or do not check out is answered ``503 table_damaged`` (at every request, each
trying again), and only it: a row of malformed JSON or of another shape (``store.rows.DamagedRow``), a setup or
config the rules cannot start from, a log that does not replay to its chain. The log says why; ``affray db check``
names the rows. Holding the loaded table is the registry's (:mod:`affray.table.registry`).
"""

from __future__ import annotations

import logging

from affray.table.errors import NOT_FOUND, UNAVAILABLE, Refusal
from affray.table.ledger import Ledger
from affray.table.registry import SetupStores
from affray.table.restore import TableDamaged, build_table
from affray.table.state import Table

log = logging.getLogger(__name__)


class Loader:
    """Builds live tables from the store (see the module docstring). ``damaged``: why each table found damaged is,
    by id."""

    def __init__(self, ledger: Ledger, setups: SetupStores) -> None:
        self.damaged: dict[str, str] = {}
        self._ledger = ledger
        self._setups = setups

    def load(self, table_id: str) -> Table:
        """The table ``table_id`` as the store holds it; 404 ``unknown_table``, 503 ``table_damaged``."""
        ledger, store = self._ledger, self._ledger.store
        try:
            row = ledger.guard(lambda: store.table(table_id))
            if row is None:
                raise Refusal("unknown_table", "There is no such table.", NOT_FOUND)
            found_row = row
            return ledger.guard(
                lambda: build_table(
                    found_row,
                    store.seats(table_id),
                    store.records(table_id),
                    store.chat(table_id),
                    store.snapshot(table_id),
                    self._setups.static_for(found_row.ruleset, found_row.setup, found_row.options),
                )
            )
        except TableDamaged as exc:
            raise self._damaged(table_id, str(exc)) from None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            # Rows that do not parse (the driver's JSONDecodeError), of another shape (DamagedRow), or that the rules
            # cannot start from: this table's problem, never the next request's 500.
            log.debug("table %s: reading it failed", table_id, exc_info=True)
            raise self._damaged(
                table_id,
                f"table {table_id}: its stored rows cannot be read "
                f"({type(exc).__name__}: {exc}); 'affray db check' names them",
            ) from None

    def _damaged(self, table_id: str, why: str) -> Refusal:
        self.damaged[table_id] = why
        log.error("%s", why)
        return Refusal(
            "table_damaged",
            "This table's stored rows do not check out, so it cannot be served; ask the "
            "server's operator ('affray db check' names the damage).",
            UNAVAILABLE,
        )
