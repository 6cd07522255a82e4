"""Group commit: the appends of concurrent callers (different tables, one process) share one transaction.

A caller hands its item to :meth:`GroupCommit.run` and blocks. If no commit is under way, the caller becomes the
*leader*: it takes every item queued so far (its own among them), commits them together through the ``commit``
callback, and wakes the others. Items that arrive while a commit is under way wait in the queue, and one of their
callers leads the next commit with all of them. Nothing ever waits for company: an append with no other in flight
commits at once in its own thread (no hand-over to a committer thread, no delay), and under load the batches form by
themselves while the previous commit's fsync is under way. So one fsync makes several actions durable, and each
caller is answered only after the commit that carried its item returned.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class Pending(Generic[T]):
    """One caller's item in a batch; the ``commit`` callback sets ``result`` (or ``error``) for each."""

    item: T
    result: bool = False
    error: BaseException | None = None
    done: bool = False


class GroupCommit(Generic[T]):
    """See the module docstring. ``commit(batch)`` must make the whole batch durable before it returns and set each
    entry's ``result`` or ``error``; an exception it raises (nothing was committed) becomes every entry's error."""

    def __init__(self, commit: Callable[[list[Pending[T]]], None]) -> None:
        self._commit = commit
        self._cond = threading.Condition(threading.Lock())
        self._queue: list[Pending[T]] = []
        self._leading = False
        self.items = 0  # items committed, and the commits that carried them (their ratio: the mean batch size)
        self.commits = 0

    def run(self, item: T) -> bool:
        """Commit ``item`` with whatever else is queued; its result once durable (or its error, raised)."""
        pending = Pending(item)
        with self._cond:
            self._queue.append(pending)
            while not pending.done:
                if self._leading:
                    self._cond.wait()
                    continue
                self._leading = True
                batch, self._queue = self._queue, []
                self._cond.release()
                try:
                    self._commit_batch(batch)
                finally:
                    self._cond.acquire()
                    self._leading = False
                    self.items += len(batch)
                    self.commits += 1
                    self._cond.notify_all()
        if pending.error is not None:
            raise pending.error
        return pending.result

    def waiting(self) -> int:
        """How many items wait for the next commit (for tests that arrange a batch)."""
        with self._cond:
            return len(self._queue)

    def _commit_batch(self, batch: list[Pending[T]]) -> None:
        try:
            self._commit(batch)
        except BaseException as exc:  # every caller of the batch hears the failure (the leader too)
            for pending in batch:
                pending.error = exc
        finally:
            for pending in batch:
                pending.done = True
