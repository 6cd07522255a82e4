"""The seats the server plays: when one of a table's policy-played actors is due, its policy moves after a pause, on
the worker thread (:mod:`affray.table.worker`), through the ledger like any action (docs/table.md).

One move is scheduled per table at a time (``Table.policy_due``, the version it is for); a move whose table changed
meanwhile (another action, a pause, the end) is dropped, and whoever changed it schedules the next one.
"""

from __future__ import annotations

import logging

from affray.core.engine import Rejected
from affray.table.ledger import Ledger
from affray.table.state import Table
from affray.table.worker import Worker

log = logging.getLogger(__name__)


class PolicySeats:
    """Schedules and plays the policy moves of every table (see the module docstring); ``pause``: seconds before a
    policy moves."""

    def __init__(self, ledger: Ledger, worker: Worker, pause: float) -> None:
        self._ledger = ledger
        self._worker = worker
        self._pause = pause

    def schedule(self, table: Table) -> None:
        """Schedule the move of a policy-played actor that is due now, if any (and none is scheduled already)."""
        with table.lock:
            if table.over or table.paused or table.policy_due == table.version:
                return
            window = table.match.pending()
            if window is None or not any(a in table.policies for a in window.actors):
                return
            table.policy_due = version = table.version
        self._worker.schedule(self._pause, lambda: self._turn(table, version))

    def _turn(self, table: Table, version: int) -> None:
        """One policy move, if the table is still where it was when the move was scheduled."""
        with table.lock:
            table.policy_due = -1
            window = None if table.over or table.paused or table.version != version else table.match.pending()
            actor = next((a for a in window.actors if a in table.policies), None) if window else None
            if actor is None:
                return
            policy, match = table.policies[actor], table.match
            choices = match.choices(actor)
            if not choices:
                log.error("table %s: %s is due but has no legal action", table.id, actor)
                return
            action = policy.choose(match.observe(actor), choices, table.policy_rng)
            result = match.submit(match.seats[actor], actor, action, version=version, trusted=True)
            if isinstance(result, Rejected):
                log.error(
                    "table %s: policy %s chose a refused action for %s: %s",
                    table.id,
                    policy.name,
                    actor,
                    result.message,
                )
                return
            self._ledger.commit(table, None)
