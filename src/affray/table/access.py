"""Which table and seat a token opens (docs/table.md, "The security model").

A missing, wrong, replaced or other table's token is ``401``. A table this process holds decides from its seats in
memory, without the database (:meth:`Access.seat_in_memory`); another is looked up by the token's hash and loaded.
The store keeps only tokens' hashes (:mod:`affray.table.tokens`).
"""

from __future__ import annotations

from collections.abc import Callable

from affray.table.errors import UNAUTHORIZED, Refusal
from affray.table.ledger import Ledger
from affray.table.registry import Registry
from affray.table.restore import refresh_seats
from affray.table.seats import SeatInfo
from affray.table.state import Table
from affray.table.tokens import token_hash


def _bad_token() -> Refusal:
    return Refusal("bad_token", "This token does not open a seat at this table.", UNAUTHORIZED)


class Access:
    """See the module docstring. ``find(table_id)`` gives the live table, loading it if need be; ``keep_up(table)``
    brings a copy behind the store up to it (:meth:`affray.table.catch_up.CatchUp.keep_up`)."""

    def __init__(
        self, registry: Registry, ledger: Ledger, find: Callable[[str], Table], keep_up: Callable[[Table], None]
    ) -> None:
        self._registry = registry
        self._ledger = ledger
        self._find = find
        self._keep_up = keep_up

    def authenticate(self, table_id: str, token: str | None) -> tuple[Table, SeatInfo]:
        """The table and seat ``token`` opens (see the module docstring)."""
        if not token:
            raise Refusal("no_token", "Send your seat's token as 'Authorization: Bearer TOKEN'.", UNAUTHORIZED)
        held = self.seat_in_memory(table_id, token)
        if held is not None:
            return held
        if self._registry.holds(table_id):
            raise _bad_token()
        store = self._ledger.store
        found = self._ledger.guard(lambda: store.seat_by_token_hash(token_hash(token)))
        if found is None or found[0] != table_id:
            raise _bad_token()
        table = self._find(table_id)
        with table.lock:
            seat = table.seats.get(found[1])
            if seat is None or seat.token_hash != token_hash(token):
                refresh_seats(store, table)
                seat = table.seats.get(found[1])
        if seat is None:
            raise _bad_token()
        return table, seat

    def seat_in_memory(self, table_id: str, token: str) -> tuple[Table, SeatInfo] | None:
        """The table and seat ``token`` opens, if this process holds the table in memory (None otherwise, or for a
        token that opens none of its seats). No database lookup: the seats in memory are the table's, kept current
        by this process's own changes and other processes' notices (a token another process replaced stops here
        with its notice, milliseconds later: docs/table.md, "Several processes"), so a valid seat is never held to
        the failed-login limits (:mod:`affray.web.logins`)."""
        table = self._registry.get(table_id)
        if table is None:
            return None
        if table.behind_store:  # changes of other processes that nothing here heard, new tokens among them
            self._keep_up(table)
        hashed = token_hash(token)
        with table.lock:
            seat = next((seat for seat in table.seats.values() if seat.token_hash == hashed), None)
        return None if seat is None else (table, seat)
