"""Change notices between server processes: PostgreSQL LISTEN/NOTIFY, and an in-process stand-in for SQLite.

Every notice is ``(table_id, version)`` on the fixed channel :data:`CHANNEL`; the payload is the JSON
``{"table": ID, "version": N, "from": ORIGIN}``, ORIGIN naming the Store that sent it. A listener calls its callback
``(table_id, version, own)`` from its own thread, once per notice, for the notices of every process; ``own`` is true
for a notice its own Store sent (a change the process already holds in memory: it need not read it back).
SQLite's stand-in hears only its own Store, so every notice there is ``own``. Callback errors are logged and do not
stop the listener. If the PostgreSQL connection drops, the listener reconnects (with a growing pause, up to 5 s) and
calls ``on_reconnect`` so the caller can re-read what it may have missed.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
from collections.abc import Callable
from typing import Protocol

import psycopg

from affray.store.rows import StoreError

CHANNEL = "affray_tables"
log = logging.getLogger(__name__)

Callback = Callable[[str, int, bool], None]


class Listener(Protocol):
    """What ``Store.listen`` returns: stop it with ``close()`` (or use it as a context manager)."""

    def close(self) -> None: ...

    def __enter__(self) -> Listener: ...

    def __exit__(self, *exc: object) -> None: ...


def encode(table_id: str, version: int, origin: str) -> str:
    return json.dumps({"table": table_id, "version": version, "from": origin})


def decode(payload: str) -> tuple[str, int, str | None] | None:
    """The notice in a payload with the Store that sent it (None if it does not say), or None for a payload that is
    not ours (something else on the channel)."""
    try:
        data: object = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    table, version = data.get("table"), data.get("version")
    origin = data.get("from")
    if isinstance(table, str) and isinstance(version, int) and not isinstance(version, bool):
        return table, version, origin if isinstance(origin, str) else None
    return None


def _call(callback: Callback, table_id: str, version: int, own: bool) -> None:
    try:
        callback(table_id, version, own)
    except Exception:
        log.exception("store listener callback failed for table %s version %s", table_id, version)


class _Base:
    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError


class LocalListener(_Base):
    """SQLite (one process): the notices of this Store object, delivered from a thread like PostgreSQL's."""

    def __init__(self, callback: Callback, on_close: Callable[[LocalListener], None]) -> None:
        self._callback = callback
        self._on_close = on_close
        self._queue: queue.SimpleQueue[tuple[str, int] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="affray-store-local-listener", daemon=True)
        self._thread.start()

    def deliver(self, table_id: str, version: int) -> None:
        self._queue.put((table_id, version))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            _call(self._callback, *item, True)

    def close(self) -> None:
        self._on_close(self)
        self._queue.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)


class PgListener(_Base):
    """PostgreSQL: ``LISTEN affray_tables`` on a connection of its own, read by a thread.

    The constructor returns once LISTEN is in effect (so no notice sent afterwards is missed) and raises
    :class:`StoreError` if the server cannot be reached.
    """

    POLL = 0.25  # seconds between checks of the stop flag while waiting for notices

    def __init__(
        self,
        conninfo: str,
        callback: Callback,
        origin: str,
        on_reconnect: Callable[[], None] | None = None,
        on_close: Callable[[PgListener], None] | None = None,
    ) -> None:
        self._conninfo = conninfo
        self._origin = origin
        self._on_close = on_close
        self._callback = callback
        self._on_reconnect = on_reconnect
        self._stop = threading.Event()
        try:
            self._conn = self._connect()
        except psycopg.Error as exc:
            raise StoreError(f"cannot LISTEN on the database: {str(exc).strip().splitlines()[0]}") from None
        self._thread = threading.Thread(target=self._run, name="affray-store-pg-listener", daemon=True)
        self._thread.start()

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10)
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                for notice in self._conn.notifies(timeout=self.POLL):
                    if (parsed := decode(notice.payload)) is not None:
                        table_id, version, origin = parsed
                        _call(self._callback, table_id, version, origin == self._origin)
                pause = 0.1
            except psycopg.Error:
                if self._stop.is_set():
                    return
                log.warning("store listener lost its connection; reconnecting in %.1f s", pause)
                self._stop.wait(pause)
                pause = min(pause * 2, 5.0)
                self._reconnect()

    def _reconnect(self) -> None:
        try:
            self._conn.close()
            self._conn = self._connect()
        except psycopg.Error:
            return  # the next pass of _run fails again and waits longer
        if self._on_reconnect is not None:
            try:
                self._on_reconnect()
            except Exception:
                log.exception("store listener on_reconnect failed")

    def close(self) -> None:
        if self._on_close is not None:
            self._on_close(self)
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        self._conn.close()


class Notices:
    """One Store's side of the change notices: its name in the notices it sends (``origin``), and the listeners it
    started (closed with it). ``conninfo``: PostgreSQL's, or None for SQLite's in-process stand-in."""

    def __init__(self, conninfo: str | None) -> None:
        self._conninfo = conninfo
        #: Names the Store in its notices, so its own listeners tell a change this process made (and holds) from
        #: another process's
        self.origin = secrets.token_hex(8)
        self._listeners: set[LocalListener | PgListener] = set()
        self._lock = threading.Lock()

    def payload(self, table_id: str, version: int) -> str:
        """The payload of this Store's notice that ``table_id`` is at ``version`` (for ``pg_notify``)."""
        return encode(table_id, version, self.origin)

    def listen(self, callback: Callback, on_reconnect: Callable[[], None] | None) -> Listener:
        """A listener of every process's notices (PostgreSQL) or of this Store's (SQLite)."""
        listener: LocalListener | PgListener
        if self._conninfo is not None:
            listener = PgListener(self._conninfo, callback, self.origin, on_reconnect, self._forget)
        else:
            listener = LocalListener(callback, self._forget)
        with self._lock:
            self._listeners.add(listener)
        return listener

    def deliver_local(self, table_id: str, version: int) -> None:
        """SQLite: hand the notice to this Store's listeners (PostgreSQL delivers its own, through LISTEN)."""
        if self._conninfo is not None:
            return
        with self._lock:
            local = [listener for listener in self._listeners if isinstance(listener, LocalListener)]
        for listener in local:
            listener.deliver(table_id, version)

    def close(self) -> None:
        """Stop every listener this Store started."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()

    def _forget(self, listener: LocalListener | PgListener) -> None:
        with self._lock:
            self._listeners.discard(listener)
