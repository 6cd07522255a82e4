"""A seat's own actions at a live table: taking one for an actor it plays (:func:`submit`), and taking its own last
one back (:func:`take_back`). Each goes through the ledger (:mod:`affray.table.ledger`): made on the match under the
table's lock, committed to the store, and only then answered. The GM's interventions are :mod:`affray.table.gm`'s.
"""

from __future__ import annotations

from affray.core.engine import GM, Action, Rejected
from affray.core.json import JsonObject
from affray.table.errors import CONFLICT, FORBIDDEN, Refusal, refused_step
from affray.table.ledger import Ledger
from affray.table.messages import Answer
from affray.table.seats import SeatInfo
from affray.table.state import Table

RACE_RETRIES = 3  # submissions of one action after lost races with other processes (each loss is another's record)


def submit(
    ledger: Ledger, table: Table, seat: SeatInfo, actor: str, action: Action, version: int, submission_id: str | None
) -> Answer:
    """Take ``action`` for ``actor`` at ``version``; the answer is ``{"version", "seq", "events"}`` with the seat's
    redacted events. A retried ``submission_id`` returns the first answer."""
    key = f"{seat.name}/{submission_id}" if submission_id else None
    with table.lock:
        if key is not None and key in table.by_submission:
            return ledger.answer(table, seat, table.by_submission[key])
        ledger.check_open(table)
        played = actor in seat.actors or (seat.role == "gm" and table.match.seats.get(actor) == GM)  # reinforcements
        if not played or seat.role == "spectator":
            raise Refusal("not_your_seat", f"Your seat does not play '{actor}'.", FORBIDDEN)
        if actor in table.policies:
            raise Refusal(
                "policy_seat", f"'{actor}' is played by the server's {table.policies[actor].name} policy.", FORBIDDEN
            )
        for _ in range(RACE_RETRIES):
            result = table.match.submit(seat.name, actor, action, version=version)
            if isinstance(result, Rejected):
                raise refused_step(result.code, result.message, result.reason, result.rules)
            if ledger.commit(table, key):
                return ledger.answer(table, seat, table.version - 1)
            # Another process took this seq first; the table now holds its record. The same choice may
            # still stand behind it (a simultaneous window): submit it again on the table as it is now.
            if key is not None and key in table.by_submission:
                return ledger.answer(table, seat, table.by_submission[key])
        raise Refusal(
            "stale_version", "Another action was taken first; look again and choose anew.", CONFLICT, reason="moved_on"
        )


def take_back(ledger: Ledger, table: Table, seat: SeatInfo, version: int) -> JsonObject:
    """A player takes back its own last action (refused once something was revealed since)."""
    with table.lock:
        ledger.check_open(table)
        result = table.match.take_back(seat.name, version=version)
        if isinstance(result, Rejected):
            raise refused_step(result.code, result.message, result.reason, result.rules)
        if not ledger.commit(table, None):
            raise Refusal("stale_version", "Another action was taken first.", CONFLICT)
        return {"version": table.version}
