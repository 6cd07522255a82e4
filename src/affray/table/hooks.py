"""What the table service tells an observer (the server's metrics, :mod:`affray.web.metrics`): one small interface
instead of counters scattered through the service. The default observer does nothing.

- :meth:`ServiceHooks.accepted`: an action was acknowledged (the table is now at ``version``); ``started`` is the
  ``time.perf_counter()`` at which its submission reached the service;
- :meth:`ServiceHooks.refused`: a submission was refused with ``code`` (the ruleset's, or the table's:
  ``stale_version``, ``paused``, ``not_your_seat``...);
- :meth:`ServiceHooks.pushed`: the table's followers were handed their pushes for ``version`` (its change is on
  its way to every seat connected here);
- :meth:`ServiceHooks.store_failed`: the database failed a call (the caller got ``store_unavailable``).

Hooks are called from any thread, some under the table's lock: they must be quick and never block.
"""

from __future__ import annotations


class ServiceHooks:
    """The observer interface; every method does nothing here."""

    def accepted(self, table_id: str, version: int, started: float) -> None:
        return None

    def refused(self, code: str) -> None:
        return None

    def pushed(self, table_id: str, version: int) -> None:
        return None

    def store_failed(self) -> None:
        return None
