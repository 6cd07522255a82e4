"""The background worker of a table server: policy moves after a pause, and Drama Timer countdowns.

One daemon thread runs every due job in time order; jobs are plain callables scheduled with a delay (monotonic
clock). A job that raises is logged and the worker goes on; a policy move whose table's CPU budget is spent runs again
once it refills (:mod:`affray.table.budget`). ``close`` stops the thread and drops pending jobs.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

from affray.table import budget

log = logging.getLogger(__name__)

Job = Callable[[], None]


class Worker:
    """A single-thread job scheduler (see the module docstring)."""

    def __init__(self, name: str = "affray-table-worker") -> None:
        self._heap: list[tuple[float, int, Job]] = []
        self._count = itertools.count()
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def schedule(self, delay: float, job: Job) -> None:
        with self._cond:
            if self._closed:
                return
            heapq.heappush(self._heap, (time.monotonic() + max(0.0, delay), next(self._count), job))
            self._cond.notify()

    def _next(self) -> Job | None:
        with self._cond:
            while not self._closed:
                if not self._heap:
                    self._cond.wait()
                    continue
                due = self._heap[0][0] - time.monotonic()
                if due <= 0:
                    return heapq.heappop(self._heap)[2]
                self._cond.wait(due)
            return None

    def _run(self) -> None:
        while (job := self._next()) is not None:
            try:
                # its CPU charged to the table it moved for; again later if that table's budget is spent (budget.py)
                if (paused := budget.run(job)) is not None:
                    self.schedule(paused, job)
            except Exception:
                log.exception("table worker job failed")

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
