"""The pushes to a table's followers (affray.table.feed): every connection hears every
change once, in order, its own seat's message only (a listener that lags may push one version twice, the second
time with no new entries); a replaced token ends its feed; a slow client is closed."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from typing import Any

import pytest

from affray.core.json import as_list, as_object
from affray.store import Store
from affray.table import SeatInfo, Table, TableService, feed, gm
from affray.table.feed import BROKEN, TOKEN_REPLACED, Follower, Push, encode
from affray.table.messages import seat_message
from affray.table.opening import Created
from affray.web import ws
from tests.pg import PgServer

WAIT = 10.0  # seconds: a bound on waiting for a push from the listener thread, never a pause


def duel(service: TableService) -> tuple[Table, dict[str, SeatInfo], Created]:
    created = service.create("witchhammer/yard_duel", controllers={"bruna": "human", "tomas": "human"}, seed=4)
    tokens = {"gm": created["gm"]["token"], **{n: s["token"] for n, s in created["seats"].items()}}
    seats = {}
    for name, token in tokens.items():
        table, seats[name] = service.authenticate(created["table"], token)
    return table, seats, created


class Heard:
    """A follower's pushes, as a connection would receive them (a thread-safe queue; reads wait a bounded time)."""

    def __init__(self) -> None:
        self.pushes: queue.Queue[Push] = queue.Queue()

    def next(self) -> Push:
        return self.pushes.get(timeout=WAIT)

    def message(self) -> dict[str, Any]:
        push = self.next()
        assert not push.final
        data: dict[str, Any] = json.loads(push.text)
        return data


def follow(service: TableService, table: Table, seat: SeatInfo, heard: Heard, hashed: str | None = None) -> Follower:
    follower = Follower(seat, seat.token_hash or "" if hashed is None else hashed, heard.pushes.put)
    service.audience.follow(table, follower)
    return follower


def act_once(service: TableService, table: Table, seats: dict[str, SeatInfo]) -> None:
    for seat in seats.values():
        legal = as_object(service.state(table, seat)["legal"])
        if legal:
            actor, specs = next(iter(legal.items()))
            service.submit(table, seat, actor, as_object(as_object(as_list(specs)[0])["action"]), table.version)
            return
    raise AssertionError("nobody is due")


def test_every_follower_hears_every_change_once_in_order_with_its_own_seat(service: TableService) -> None:
    table, seats, _ = duel(service)
    heard = {name: Heard() for name in seats}
    for name, seat in seats.items():
        follow(service, table, seat, heard[name])
    first = {name: h.message() for name, h in heard.items()}
    assert {m["version"] for m in first.values()} == {0} and all(m["since"] == 0 for m in first.values())
    for _ in range(6):
        act_once(service, table, seats)
    for name, h in heard.items():
        seen, message = 0, first[name]
        entries: list[int] = []
        while message["version"] < 6:
            message = h.message()
            assert message["seat"] == name and message["since"] == seen  # each push starts where the last ended
            seen = message["version"]
            entries.extend(e["seq"] for e in message["log"])
        assert entries == list(range(6))  # every record once, none twice, none skipped
        # the last push is what a fresh read of that seat gives (its view, its due actions)
        fresh = service.state(table, seats[name], 5)
        assert message["view"] == json.loads(json.dumps(fresh["view"])) and message["legal"] == fresh["legal"]


def test_two_connections_of_one_seat_share_one_build(service: TableService) -> None:
    table, seats, _ = duel(service)
    one, two = Heard(), Heard()
    for h in (one, two):
        follow(service, table, seats["bruna"], h)
    assert one.next().text == two.next().text
    act_once(service, table, seats)
    assert one.next() is two.next()


def test_a_replaced_token_ends_its_feed_and_unfollow_stops_the_rest(service: TableService) -> None:
    table, seats, _ = duel(service)
    bruna, tomas = Heard(), Heard()
    follow(service, table, seats["bruna"], bruna)
    following_tomas = follow(service, table, seats["tomas"], tomas)
    bruna.message(), tomas.message()
    gm.replace_token(service.ledger, table, seats["gm"], "bruna")
    assert bruna.next() is TOKEN_REPLACED and json.loads(TOKEN_REPLACED.text)["code"] == "token_replaced"
    assert tomas.message()["version"] == 0  # the announcement reaches the others as a push of the same version
    service.audience.unfollow(table, following_tomas)
    witness = Heard()
    follow(service, table, seats["gm"], witness)
    act_once(service, table, seats)
    act_once(service, table, seats)
    while witness.message()["version"] < 2:  # (a listener that lags pushes the table as it is now: 0, 2, 2 is fine)
        pass
    with table.lock:  # the push of version 2 holds the lock while it delivers to every follower: it is done
        assert bruna.pushes.empty() and tomas.pushes.empty()


def test_a_connection_gone_before_its_follow_arrives_is_never_registered(service: TableService) -> None:
    table, seats, _ = duel(service)
    heard = Heard()
    follower = Follower(seats["bruna"], seats["bruna"].token_hash or "", heard.pushes.put)
    service.audience.unfollow(table, follower)  # the connection closed while its follow() was still on its way
    service.audience.follow(table, follower)
    witness = Heard()
    follow(service, table, seats["gm"], witness)
    act_once(service, table, seats)
    while witness.message()["version"] < 1:
        pass
    with table.lock:
        assert heard.message()["version"] == 0 and heard.pushes.empty()  # its first push only, nothing after


def test_a_stale_token_is_refused_when_it_starts_to_follow(service: TableService) -> None:
    table, seats, _ = duel(service)
    heard = Heard()
    follow(service, table, seats["bruna"], heard, "0" * 64)
    assert heard.next() is TOKEN_REPLACED


def test_a_seat_whose_message_fails_is_closed_and_the_others_still_hear(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, seats, _ = duel(service)
    bruna, tomas = Heard(), Heard()
    follow(service, table, seats["bruna"], bruna)
    follow(service, table, seats["tomas"], tomas)
    bruna.message(), tomas.message()
    real = seat_message

    def broken_for_tomas(table: Table, seat: SeatInfo, since: int = 0, chat_since: int = 0) -> dict[str, Any]:
        if seat.name == "tomas":
            raise RuntimeError("a bug in a view, with a secret: the seed")
        return real(table, seat, since, chat_since)

    monkeypatch.setattr(feed, "seat_message", broken_for_tomas)
    act_once(service, table, seats)
    assert bruna.message()["version"] == 1
    push = tomas.next()
    assert push is BROKEN and push.close == 1011 and push.text == ""  # no frame: a client reconnects; no secret
    monkeypatch.setattr(feed, "seat_message", real)
    act_once(service, table, seats)
    assert bruna.message()["version"] == 2
    with table.lock:  # tomas's follower was dropped with its final push: nothing more for it
        assert tomas.pushes.empty()


def test_encode_writes_what_json_reads_back_and_falls_back_past_64_bits() -> None:
    message = {"view": {"hp": 7, "odds": 0.1, "name": "Bruna \u00e9", "none": None}, "legal": {1: [True]}}
    assert json.loads(encode(message)) == json.loads(json.dumps(message))
    huge = {"n": 2**70}
    assert json.loads(encode(huge)) == {"n": 2**70}


class SlowSocket:
    """A WebSocket whose client stopped reading: every send waits for ever (the socket's buffer is full), and so
    does the close when ``close_blocks`` (nothing more can be written)."""

    def __init__(self, close_blocks: bool) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        self.close_blocks = close_blocks

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()

    async def close(self, code: int) -> None:
        if self.close_blocks:
            await asyncio.Event().wait()
        self.closed = code

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # the client sends nothing
        raise AssertionError("unreachable")


@pytest.mark.parametrize("close_blocks", [False, True])
def test_a_client_that_stopped_reading_is_dropped_once_too_far_behind(
    service: TableService, close_blocks: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ws, "MAX_BACKLOG", 2)
    monkeypatch.setattr(ws, "CLOSE_WAIT", 0.2)
    table, seats, created = duel(service)
    socket = SlowSocket(close_blocks)

    class Api:
        pass

    api = Api()
    api.service = service  # type: ignore[attr-defined]

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        serving = asyncio.ensure_future(
            ws._serve(
                api,  # type: ignore[arg-type]
                socket,  # type: ignore[arg-type]
                table,
                seats["gm"],
                created["gm"]["token"],
                1,
            )
        )
        deadline = loop.time() + WAIT
        while not socket.sent:  # bounded: until the first message is being sent (and blocks)
            assert loop.time() < deadline, "the first message was never sent"
            await asyncio.sleep(0.01)

        def push_three() -> None:  # what the store's listener calls after each change
            for _ in range(3):
                service.audience.push(table)

        await asyncio.to_thread(push_three)  # three pushes queued behind a send that never ends: past the bound
        await asyncio.wait_for(serving, WAIT)

    asyncio.run(scenario())
    assert len(socket.sent) == 1
    assert socket.closed == (None if close_blocks else ws.CLOSE_TRY_AGAIN)
    assert not service.audience.hears(table.id)  # dropped: no more messages are built for it


def test_a_token_replaced_elsewhere_while_the_listener_was_cut_off_ends_the_feed(
    pg_server: PgServer, pg_url: str
) -> None:
    """Two processes on PostgreSQL (two services here): B's listener loses its connection, A replaces a token, and
    A's notice is lost to B. When B listens again it re-reads the seats, so B's connection for the old token ends
    instead of hearing the seat's next messages."""
    with Store(pg_url) as store_a, Store(pg_url) as store_b:
        a, b = TableService(store_a, policy_pause=0), TableService(store_b, policy_pause=0)
        try:
            created = a.create("witchhammer/yard_duel", controllers={"bruna": "human", "tomas": "human"}, seed=4)
            table_b, bruna = b.authenticate(created["table"], created["seats"]["bruna"]["token"])
            heard = Heard()
            follow(b, table_b, bruna, heard)
            assert heard.message()["version"] == 0
            listener = b._listener
            allowed, connect = threading.Event(), listener._connect  # type: ignore[attr-defined]

            def held_connect() -> Any:  # B listens again only when the test allows it
                assert allowed.wait(WAIT)
                return connect()

            listener._connect = held_connect  # type: ignore[attr-defined]
            pid = listener._conn.info.backend_pid  # type: ignore[attr-defined]
            with pg_server.connect() as admin:
                assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
                for _ in range(int(WAIT / 0.01)):  # bounded: until B's listening backend is gone
                    if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchall():
                        break
                    time.sleep(0.01)
            table_a, gm_seat = a.authenticate(created["table"], created["gm"]["token"])
            gm.replace_token(a.ledger, table_a, gm_seat, "bruna")  # its notice cannot reach B now
            allowed.set()
            assert heard.next() is TOKEN_REPLACED
        finally:
            a.close()
            b.close()


def test_a_process_re_reads_a_table_s_row_for_another_process_s_change_only(
    pg_server: PgServer, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on PostgreSQL (two services here). A notice says which Store sent it, so a process reads a
    table's row, chat and seats back only after another process's change that appended nothing (a pause); its own
    action and its own pause it already holds. Before, every action's own notice cost its process three queries."""
    from affray.table import catch_up, restore

    reads: list[str] = []  # the Store (by origin) of every re-read of a row, in order
    read = threading.Condition()
    refresh = restore.refresh_from_row

    def counted(store: Store, table: Table) -> None:
        refresh(store, table)
        with read:
            reads.append(store.notices.origin)
            read.notify_all()

    monkeypatch.setattr(catch_up, "refresh_from_row", counted)
    with Store(pg_url) as store_a, Store(pg_url) as store_b:
        a, b = TableService(store_a, policy_pause=0), TableService(store_b, policy_pause=0)
        a_origin, b_origin = store_a.notices.origin, store_b.notices.origin
        try:
            created = a.create("witchhammer/yard_duel", controllers={"bruna": "human", "tomas": "human"}, seed=4)
            table_a, gm_a = a.authenticate(created["table"], created["gm"]["token"])
            table_b, gm_b = b.authenticate(created["table"], created["gm"]["token"])
            for service in (a, b):  # someone hears the table in each process (else it only lags: test_races.py)
                service.audience.subscribe(created["table"], lambda: None)
            seat = next(s for s in table_a.seats.values() if a_legal(table_a, s))
            actor, specs = next(iter(a_legal(table_a, seat).items()))
            a.submit(table_a, seat, actor, as_object(specs[0]["action"]), table_a.version)  # A's own action
            gm.set_paused(a.ledger, table_a, gm_a, True)  # A's own change, which B must read
            # B's change, which A must read; A's listener hears the notices in order, so once A has read B's row
            # it has heard (and not read back) its own action and pause
            gm.set_paused(b.ledger, table_b, gm_b, False)
            with read:
                assert read.wait_for(lambda: reads.count(a_origin) >= 1 and b_origin in reads, WAIT)
            assert reads.count(b_origin) == 1  # A's pause, read by B
            assert reads.count(a_origin) == 1  # B's resume, read by A; nothing for A's own action or pause
            assert table_b.version == table_a.version == 1  # B caught up with A's action from its record
            assert table_a.paused is False and table_b.paused is False
        finally:
            a.close()
            b.close()


def a_legal(table: Table, seat: SeatInfo) -> dict[str, list[Any]]:
    """The seat's due legal actions (empty when none)."""
    with table.lock:
        return table.legal_for(seat)


def test_a_push_pass_lets_go_of_the_versions_views_and_a_later_message_is_the_same(service: TableService) -> None:
    """After the pushes of a change the match keeps no view of that version (Memo.release: they were what the
    cyclic collector walked most at a busy server); the next message of each seat, built again, is the one the
    pass built."""
    table, seats, _created = duel(service)
    followers = [Follower(seats[name], seats[name].token_hash or "", lambda push: None) for name in ("gm", "bruna")]
    with table.lock:
        for follower in followers:
            feed.first_push(table, follower)
        before = {f.seat.name: json.loads(feed.encode(seat_message(table, f.seat, 0, 0))) for f in followers}
        sentinel = object()
        table.match.memo.now("probe", lambda: sentinel)
        feed.pushes(table, followers)
        assert table.match.memo.now("probe", object) is not sentinel
        after = {f.seat.name: json.loads(feed.encode(seat_message(table, f.seat, 0, 0))) for f in followers}
    assert after == before
