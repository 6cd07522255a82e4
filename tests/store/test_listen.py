"""Change notices (docs/table.md, several processes): PostgreSQL LISTEN/NOTIFY between engines; SQLite's in-process
stand-in."""

from __future__ import annotations

import threading

from affray.store import Record, Store
from tests.pg import PgServer
from tests.store.conftest import SEATS, new_table

WAIT_S = 20.0


class Inbox:
    """Collects notices; ``wait_for`` blocks (bounded) until a given one has arrived."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, int]] = []
        self.own: list[bool] = []  # beside each notice: did the listening Store send it?
        self._changed = threading.Condition()

    def __call__(self, table_id: str, version: int, own: bool) -> None:
        with self._changed:
            self.notices.append((table_id, version))
            self.own.append(own)
            self._changed.notify_all()

    def wait_for(self, notice: tuple[str, int]) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: notice in self.notices, timeout=WAIT_S)


def test_a_listener_receives_the_notice_another_store_sends(store_url: str) -> None:
    """PostgreSQL: two engines, as two processes. SQLite is one process: the same Store hears itself."""
    with Store(store_url) as sender:
        receiver = Store(store_url) if sender.is_postgres else sender
        inbox = Inbox()
        try:
            with receiver.listen(inbox):
                sender.notify("tbl9", 41)
                assert inbox.wait_for(("tbl9", 41))
        finally:
            if receiver is not sender:
                receiver.close()


def test_every_append_sends_its_new_version_and_a_refused_one_sends_nothing(store_url: str) -> None:
    with Store(store_url) as store, Store(store_url) as other:
        listener_side = other if store.is_postgres else store
        store.create_table(new_table(), SEATS)
        inbox = Inbox()
        with listener_side.listen(inbox):
            for seq in range(3):
                assert store.append(
                    "tbl1", Record(seq=seq, kind="action", seat="ulla", actor="Ulla", payload={}, chain="")
                )
            assert not store.append(
                "tbl1", Record(seq=1, kind="action", seat="ulla", actor="Ulla", payload={}, chain="")
            )
            store.notify("tbl1", 99)  # a marker: every notice sent before it has arrived by the time it does
            assert inbox.wait_for(("tbl1", 99))
        assert inbox.notices == [("tbl1", 1), ("tbl1", 2), ("tbl1", 3), ("tbl1", 99)]


def test_a_notice_says_whether_the_listening_store_sent_it(store_url: str) -> None:
    """A process re-reads a table's row only for another process's change (table/catch_up.py ``CatchUp.heard``), so a
    notice says whether the listening Store sent it: on PostgreSQL one Store's appends and notices are its own, the
    other's are not; SQLite's stand-in hears only its own Store."""
    with Store(store_url) as mine, Store(store_url) as other:
        sender = other if mine.is_postgres else mine
        mine.create_table(new_table(), SEATS)
        inbox = Inbox()
        with mine.listen(inbox):
            assert mine.append("tbl1", Record(seq=0, kind="action", seat="ulla", actor="Ulla", payload={}, chain=""))
            assert sender.append("tbl1", Record(seq=1, kind="action", seat="ulla", actor="Ulla", payload={}, chain=""))
            mine.notify("tbl1", 2)
            sender.notify("tbl1", 3)
            assert inbox.wait_for(("tbl1", 3))
        assert inbox.notices == [("tbl1", 1), ("tbl1", 2), ("tbl1", 2), ("tbl1", 3)]
        assert inbox.own == ([True, False, True, False] if mine.is_postgres else [True, True, True, True])


def test_a_closed_listener_hears_nothing_more(store_url: str) -> None:
    with Store(store_url) as store:
        closed, open_ = Inbox(), Inbox()
        store.listen(closed).close()
        with store.listen(open_):
            store.notify("tbl1", 5)
            assert open_.wait_for(("tbl1", 5))
        assert closed.notices == []


def test_a_failing_callback_does_not_stop_the_listener(store_url: str) -> None:
    inbox = Inbox()

    def flaky(table_id: str, version: int, own: bool) -> None:
        inbox(table_id, version, own)
        if version == 1:
            raise RuntimeError("the callback's own bug")

    with Store(store_url) as store, store.listen(flaky):
        store.notify("tbl1", 1)
        store.notify("tbl1", 2)
        assert inbox.wait_for(("tbl1", 2))
    assert inbox.notices == [("tbl1", 1), ("tbl1", 2)]


def test_a_postgresql_listener_reconnects_after_losing_its_connection(pg_server: PgServer, pg_url: str) -> None:
    """A server restart or a dropped link must not silence a process: it listens again and says so."""
    reconnected = threading.Event()
    inbox = Inbox()
    with Store(pg_url) as store, store.listen(inbox, on_reconnect=reconnected.set):
        store.notify("tbl1", 1)
        assert inbox.wait_for(("tbl1", 1))
        with pg_server.connect() as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND query LIKE 'LISTEN %%'",
                (pg_url.rsplit("/", 1)[1],),
            ).fetchall()
        assert killed == [(True,)]
        assert reconnected.wait(WAIT_S)
        store.notify("tbl1", 2)
        assert inbox.wait_for(("tbl1", 2))
