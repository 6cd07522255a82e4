"""Who hears a table's changes in this process: its followers (WebSockets, :class:`~affray.table.feed.Follower`) and
its subscribers (long-polls), and the pushes that reach them (docs/table.md, "Live updates").

The table service owns one :class:`Audience` and tells it of every change (:meth:`Audience.changed`); the web layer
asks it to follow a seat for a connection and to wake a long-poll. Locking: the service's tables lock (given here)
guards the follower and subscriber sets and each table's ``connected`` counts; a push pass takes the table's own
lock, so that every follower of one version gets a message of that version (:func:`affray.table.feed.pushes`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from affray.table.feed import Follower, Push, first_push, pushes
from affray.table.state import Table

if TYPE_CHECKING:
    import threading  # the service's lock, given here and taken (docs/architecture.md's threads cell)

log = logging.getLogger(__name__)

Subscriber = Callable[[], object]


class Audience:
    """The followers and subscribers of every table in memory. ``touch(table_id)`` (called under ``lock``) restarts
    a table's idle clock when its last long-poll or connection ends; ``pushed(table_id, version)`` hears every push
    pass (the metrics)."""

    def __init__(self, lock: threading.Lock, touch: Callable[[str], None], pushed: Callable[[str, int], None]) -> None:
        self._lock = lock
        self._touch = touch
        self._pushed = pushed
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._followers: dict[str, set[Follower]] = {}

    def subscribe(self, table_id: str, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback()`` (from a background thread) after every change of the table; returns unsubscribe."""
        with self._lock:
            self._subscribers.setdefault(table_id, set()).add(callback)

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers.get(table_id, set()).discard(callback)
                self._touch(table_id)  # the idle clock starts when the last long-poll ends

        return unsubscribe

    def follow(self, table: Table, follower: Follower) -> None:
        """Push the follower's seat's messages to ``follower.deliver`` (:mod:`affray.table.feed`): the whole message
        at once, then one after every change, until :meth:`unfollow` or a final push (a replaced token)."""
        name = follower.seat.name
        with table.lock:
            with self._lock:  # counted first, so that the seat's own first message counts it too
                count = table.connected[name] = table.connected.get(name, 0) + 1
            push = first_push(table, follower)
            follower.deliver(push)
            with self._lock:
                joined = not push.final and not follower.gone  # gone: unfollowed while this call was on its way
                if joined:
                    self._followers.setdefault(table.id, set()).add(follower)
                else:
                    table.connected[name] = count = table.connected[name] - 1
        if joined and count == 1 and follower.seat.role != "gm":
            self.push(table, role="gm")  # the GM's page shows who is connected: a seat that just came

    def unfollow(self, table: Table, follower: Follower) -> None:
        """Stop the follower's pushes; safe before, during or after :meth:`follow` (a connection that closes while
        its ``follow`` is still waiting for the lock is never registered)."""
        with self._lock:
            follower.gone = True
            followers = self._followers.get(table.id, set())
            left = follower in followers
            followers.discard(follower)
            if left:
                table.connected[follower.seat.name] = count = max(0, table.connected.get(follower.seat.name, 0) - 1)
                self._touch(table.id)  # the idle clock starts when the last connection closes
        if left and count == 0 and follower.seat.role != "gm":
            self.push(table, role="gm")  # a seat whose last connection went

    def follower_count(self) -> int:
        """How many followers (WebSockets) hear a seat here, over every table."""
        with self._lock:
            return sum(len(followers) for followers in self._followers.values())

    def hears(self, table_id: str) -> bool:
        """Whether anyone (a connection, a long-poll) hears the table now. Under the tables lock."""
        return bool(self._followers.get(table_id) or self._subscribers.get(table_id))

    def forget(self, table_id: str) -> None:
        """The table left memory: drop its (empty) sets. Under the tables lock."""
        self._followers.pop(table_id, None)
        self._subscribers.pop(table_id, None)

    def push(self, table: Table, role: str | None = None) -> None:
        """Give every follower of ``table`` (of seats of ``role`` only, if given) its push for the table as it is
        now (one pass under the lock)."""
        with self._lock:
            followers = [f for f in self._followers.get(table.id, ()) if role is None or f.seat.role == role]
        if not followers:
            self._pushed(table.id, table.version)
            return
        with table.lock:
            for follower, push in pushes(table, followers):
                try:
                    follower.deliver(push)
                except Exception as exc:  # a connection whose event loop is gone: it will not hear again
                    log.warning("table %s: dropped a follower of seat %s: %s", table.id, follower.seat.name, exc)
                    push = Push("", close=1011)
                if push.final:
                    self.unfollow(table, follower)
            self._pushed(table.id, table.version)

    def changed(self, table: Table) -> None:
        """Push the change to every follower of ``table`` and wake every subscriber (long-polls)."""
        self.push(table)
        with self._lock:
            callbacks = list(self._subscribers.get(table.id, ()))
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("table %s: a subscriber failed", table.id)
