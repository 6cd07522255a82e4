"""Idle tables leave memory (docs/table.md, "Tables in memory"): a table nobody uses is dropped and rebuilt from its
newest snapshot and the records after it; a rebuilt table gives every seat byte for byte the message it gave before,
takes the next action at the right version, and a snapshot that does not check out is set aside for a full replay.
A table heard by a follower or waited on by a long-poll never leaves."""

from __future__ import annotations

import hashlib
import logging
import pickle
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from affray.core.events import Committed
from affray.core.json import as_int, as_list, as_object
from affray.store import Store
from affray.store import schema as s
from affray.table import Refusal, Table, TableService
from affray.table.feed import Follower, Push, encode
from affray.table.opening import Created
from affray.table.restore import build_table
from affray.table.scenarios import resolve_scenario
from affray.table.snapshot import SNAPSHOT_EVERY, take
from affray.web.app import create_app
from affray.web.limits import RateLimiter
from tests.cli_run import affray

FAR = 10.0**9  # a monotonic time far past every table's last use: every table is idle by then
EXAMPLES = ["hud/nerdified_duel", "warp/knight_duel", "spellchrome/ford_duel", "witchhammer/mill_ambush"]
BOUND = 400  # actions at most, to reach a version past a snapshot (or the fight's end)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as opened:
        yield opened


@pytest.fixture
def service(store: Store) -> Iterator[TableService]:
    opened = TableService(store, policy_pause=0, idle_evict=600)
    yield opened
    opened.close()


def open_human(
    service: TableService, scenario: str, seed: int = 7, options: dict[str, object] | None = None
) -> tuple[Created, dict[str, str]]:
    """A table whose every combatant a person plays (the test plays them all); its seats' tokens by name."""
    checked, _ = resolve_scenario(scenario)
    created = service.create(
        scenario, options, controllers={a: "human" for a in checked.controllers if a != "gm"}, seed=seed
    )
    tokens = {"gm": created["gm"]["token"], **{n: seat["token"] for n, seat in created["seats"].items()}}
    return created, tokens


def step(service: TableService, table_id: str, tokens: dict[str, str], rng: random.Random) -> bool:
    """The first seat with a due actor takes a random legal action; False when nobody may act."""
    for token in tokens.values():
        table, seat = service.authenticate(table_id, token)
        legal = as_object(service.state(table, seat)["legal"])
        if legal:
            actor, specs = next(iter(legal.items()))
            action = as_object(as_object(rng.choice(as_list(specs)))["action"])
            service.submit(table, seat, actor, action, table.version)
            return True
    return False


def messages(service: TableService, table_id: str, tokens: dict[str, str]) -> dict[str, str]:
    """Every seat's whole message (and one from a later version on) as the JSON text a seat is sent."""
    out = {}
    for name, token in tokens.items():
        table, seat = service.authenticate(table_id, token)
        out[name] = encode(service.state(table, seat))
        out[f"{name} since"] = encode(service.state(table, seat, max(0, table.version - 3)))
    return out


def outstanding(table: Table) -> bool:
    """Whether some record committed a face-down choice not yet revealed."""
    revealed = table.match.revealed
    return any(isinstance(e, Committed) and e.seal not in revealed for r in table.match.records for e in r.events)


def play_past_a_snapshot(service: TableService, table_id: str, tokens: dict[str, str], face_down: bool) -> Table:
    """Play random actions past the first snapshot (or to the end), and, with ``face_down``, on until a face-down
    card is outstanding."""
    rng = random.Random(3)
    for _ in range(BOUND):
        table = service.table(table_id)
        enough = table.version > SNAPSHOT_EVERY + 3 and (not face_down or outstanding(table)) and not table.over
        if enough or table.over or not step(service, table_id, tokens, rng):
            break
    return service.table(table_id)


def evict(service: TableService, table_id: str) -> None:
    assert table_id in service.evict_idle(now=FAR)
    assert table_id not in service.loaded()


@pytest.mark.parametrize("scenario", EXAMPLES)
def test_a_rebuilt_table_gives_every_seat_the_same_message_byte_for_byte(
    service: TableService, store: Store, scenario: str, caplog: pytest.LogCaptureFixture
) -> None:
    created, tokens = open_human(service, scenario)
    table_id = created["table"]
    table = play_past_a_snapshot(service, table_id, tokens, face_down=scenario.startswith("witchhammer"))
    assert table.version > SNAPSHOT_EVERY or table.over
    if scenario.startswith("witchhammer"):
        assert outstanding(table) and not table.over, "the comparison is made with a face-down card outstanding"
    done = threading.Event()
    service.worker.schedule(0, done.set)  # after the snapshot job the commits scheduled: wait for it (bounded)
    assert done.wait(10)
    before = messages(service, table_id, tokens)

    # From a snapshot and the records after it (the path of a table that left memory between two snapshots).
    if table.version > SNAPSHOT_EVERY:
        periodic = store.snapshot(table_id)
        assert periodic is not None and periodic.seq >= SNAPSHOT_EVERY  # the one the table took as it played
        with table.lock:
            shorter = table.match.fresh()
            for record in table.match.records[:SNAPSHOT_EVERY]:
                shorter.apply_record(record.to_dict(events=False))
            snapshot = take(shorter, table.chains[SNAPSHOT_EVERY - 1])
        row = store.table(table_id)
        assert row is not None
        rebuilt = build_table(row, store.seats(table_id), store.records(table_id), store.chat(table_id), snapshot)
        assert rebuilt.snapshot_seq == SNAPSHOT_EVERY and rebuilt.version == table.version
        for name, token in tokens.items():
            _, seat = service.authenticate(table_id, token)
            assert encode(service.state(rebuilt, rebuilt.seats[seat.name])) == before[name]

    # Out of memory and back (snapshotted as it left: nothing to replay).
    evict(service, table_id)
    assert store.snapshot(table_id).seq == table.version  # type: ignore[union-attr]
    with caplog.at_level(logging.WARNING, logger="affray.table.restore"):
        assert messages(service, table_id, tokens) == before
    assert "not used" not in caplog.text
    assert service.table(table_id).snapshot_seq == table.version  # it was loaded from that snapshot
    assert service.table(table_id).chains == table.chains


@pytest.mark.parametrize("damage", ["body", "code", "another_version", "code_execution"])
def test_a_snapshot_that_does_not_check_out_falls_back_to_replay(
    service: TableService, store: Store, tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    created, tokens = open_human(service, "witchhammer/mill_ambush")
    table_id = created["table"]
    table = play_past_a_snapshot(service, table_id, tokens, face_down=True)
    before = messages(service, table_id, tokens)
    evict(service, table_id)
    marker = tmp_path / "ran"
    values: dict[str, object]
    if damage == "body":
        values = {"body": b"\x80\x05damaged"}
    elif damage == "code":
        values = {"code": "0" * 64}
    elif damage == "another_version":  # a consistent snapshot, of the state one record earlier
        with table.lock:
            shorter = table.match.fresh()
            for record in table.match.records[:-1]:
                shorter.apply_record(record.to_dict(events=False))
        wrong = take(shorter, table.head)
        values = {"body": wrong.body, "digest": wrong.digest}
    else:  # what a hostile row would hold: a pickle that runs a command when it is read
        body = pickle.dumps(_Runs(f"touch {marker}"))
        values = {"body": body, "digest": hashlib.sha256(body).hexdigest()}
    with store._engine.begin() as c:  # what a broken disk, an old program or a hand edit could leave
        c.execute(sa.update(s.snapshots).values(**values))
    with caplog.at_level(logging.WARNING, logger="affray.table.restore"):
        after = messages(service, table_id, tokens)
    assert after == before
    assert f"table {table_id}: its snapshot at version {table.version} is not used" in caplog.text
    assert not marker.exists()
    reloaded = service.table(table_id)
    assert reloaded.snapshot_seq == 0  # set aside: a good one takes its place when the table leaves memory again
    evict(service, table_id)
    assert store.snapshot(table_id).digest != values.get("digest", "")  # type: ignore[union-attr]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="affray.table.restore"):
        assert messages(service, table_id, tokens) == before
    assert "not used" not in caplog.text and service.table(table_id).snapshot_seq == table.version


class _Runs:
    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self) -> tuple[object, tuple[str, ...]]:
        import os

        return os.system, (self.command,)


def test_a_rebuilt_table_takes_the_next_action_at_the_right_version(service: TableService, store: Store) -> None:
    created, tokens = open_human(service, "spellchrome/ford_duel")  # one actor at a time: no choice stands earlier
    table_id = created["table"]
    rng = random.Random(5)
    for _ in range(5):
        assert step(service, table_id, tokens, rng)
    version = service.table(table_id).version
    evict(service, table_id)
    for token in tokens.values():
        table, seat = service.authenticate(table_id, token)
        legal = as_object(service.state(table, seat)["legal"])
        if legal:
            actor, specs = next(iter(legal.items()))
            action = as_object(as_object(as_list(specs)[0])["action"])
            with pytest.raises(Refusal) as stale:
                service.submit(table, seat, actor, action, version - 1)
            assert stale.value.code == "stale_version"
            answer = service.submit(table, seat, actor, action, version)
            assert answer["version"] == version + 1 and answer["seq"] == version
            break
    else:
        raise AssertionError("nobody was due to act")
    assert [r.seq for r in store.records(table_id)] == list(range(version + 1))


class Heard:
    def __init__(self) -> None:
        self.pushes: list[Push] = []

    def __call__(self, push: Push) -> None:
        self.pushes.append(push)


def test_a_table_with_a_follower_never_leaves_memory(service: TableService) -> None:
    created, tokens = open_human(service, "witchhammer/yard_duel")
    table_id = created["table"]
    table, seat = service.authenticate(table_id, tokens["bruna"])
    follower = Follower(seat, seat.token_hash or "", Heard())
    service.audience.follow(table, follower)
    assert service.evict_idle(now=FAR) == [] and table_id in service.loaded()
    service.audience.unfollow(table, follower)
    assert service.evict_idle(now=FAR) == [table_id]


def test_a_table_with_a_waiting_long_poll_never_leaves_memory(service: TableService) -> None:
    created, tokens = open_human(service, "witchhammer/yard_duel")
    table_id = created["table"]
    app = create_app(service, limiter=RateLimiter(rate=1e6, burst=1e6))
    with TestClient(app) as client:
        answers: list[int] = []
        headers = {"Authorization": f"Bearer {tokens['bruna']}"}
        poll = threading.Thread(
            target=lambda: answers.append(
                client.get(f"/api/tables/{table_id}", params={"since": 0, "timeout": 30}, headers=headers).json()[
                    "version"
                ]
            )
        )
        poll.start()
        waiting = threading.Event()
        for _ in range(1000):  # bounded: until the long-poll has subscribed
            if service.audience.hears(table_id):
                waiting.set()
                break
            waiting.wait(0.01)
        assert waiting.is_set()
        assert service.evict_idle(now=FAR) == [] and table_id in service.loaded()
        assert step(service, table_id, tokens, random.Random(1))  # the poll's answer: the next version
        poll.join(30)
        assert answers == [1]
    assert service.evict_idle(now=FAR) == [table_id]


def test_a_table_in_use_stays_and_eviction_can_be_off(store: Store) -> None:
    never = TableService(store, policy_pause=0, idle_evict=None)
    created, _ = open_human(never, "witchhammer/yard_duel")
    assert never.evict_idle(now=FAR) == [] and created["table"] in never.loaded()
    never.close()
    service = TableService(store, policy_pause=0, idle_evict=600)
    made, _ = open_human(service, "witchhammer/yard_duel")
    assert service.evict_idle() == []  # just created
    service.table(created["table"])
    assert service.evict_idle() == []  # just used
    assert sorted(service.evict_idle(now=FAR)) == sorted([created["table"], made["table"]])
    service.close()


def test_serve_help_names_idle_evict_and_a_bad_value_is_refused_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from affray.web import server as web_server

    def would_serve(*_: object, **__: object) -> None:
        raise AssertionError("the bad value was accepted and a server would have started")

    # in this process (tests/cli_run.py); an accepted value fails the test here instead of serving for ever
    monkeypatch.setattr(web_server, "serve", would_serve)
    shown = affray("serve", "--help")
    assert shown.returncode == 0 and "--idle-evict" in shown.stdout
    for bad in ("-5", "soon", "0.5", "nan"):
        done = affray("serve", "--idle-evict", bad, "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", "1")
        said = done.stdout + done.stderr
        assert done.returncode == 2 and "Traceback" not in said, said
        assert (
            "--idle-evict takes a number of seconds from 1 to 604800 (a week), or 0 to keep every table in "
            "memory" in " ".join(said.split())
        ), said
    assert not (tmp_path / "x.db").exists()  # refused before anything opened the database


def test_a_table_whose_countdown_runs_stays_and_is_loaded_at_start(store: Store) -> None:
    """Rule: WH-B20 (the Drama Timer, which the GM starts and the server calls when it runs out)."""
    from affray.table import gm

    service = TableService(store, policy_pause=0, idle_evict=600)
    created, _ = open_human(service, "witchhammer/mill_ambush", 3, {"drama_timer": True})
    quiet, _ = open_human(service, "witchhammer/mill_ambush", 4)
    table, seat = service.authenticate(created["table"], created["gm"]["token"])
    assert gm.start_timer(service.ledger, service.worker, table, seat, 3600)["timer"] is not None
    assert service.evict_idle(now=FAR) == [quiet["table"]]  # the one without a running countdown
    service.close()
    again = TableService(store, policy_pause=0, idle_evict=600)
    loaded = threading.Event()
    for _ in range(1000):  # bounded: the worker loads the timed tables first thing
        if created["table"] in again.loaded():
            loaded.set()
            break
        loaded.wait(0.01)
    assert loaded.is_set() and again.loaded() == [created["table"]]
    again.close()


def test_undo_records_and_rulings_come_back_from_a_snapshot(service: TableService, store: Store) -> None:
    """A GM's rewind and rulings before the snapshot: the rebuilt table gives every seat the same message, and a
    rewind after it goes back along the same lines as a full replay's table does."""
    from affray.table import gm

    created, tokens = open_human(service, "spellchrome/ford_duel")
    table_id = created["table"]
    rng = random.Random(8)
    for _ in range(4):
        assert step(service, table_id, tokens, rng)
    table, master = service.authenticate(table_id, tokens["gm"])
    gm.take_back(service.ledger, table, master, 2, table.version, True)
    for _ in range(3):
        assert step(service, table_id, tokens, rng)
    actor = next(a for a in table.match.names() if a != "gm")
    bar = as_object(as_list(as_object(as_object(gm.adjustable(table, master)["combatants"])[actor])["bars"])[0])
    for value in (as_int(bar["max"]) - 1, as_int(bar["max"])):
        gm.adjust(
            service.ledger,
            table,
            master,
            table.version,
            None,
            "a ruling",
            [{"combatant": actor, "bar": bar["name"], "value": value}],
        )
    assert [r.kind for r in table.match.records].count("undo") == 1
    assert [r.kind for r in table.match.records].count("gm") == 2
    before = messages(service, table_id, tokens)
    evict(service, table_id)
    assert messages(service, table_id, tokens) == before
    rebuilt, master = service.authenticate(table_id, tokens["gm"])
    assert rebuilt.snapshot_seq == rebuilt.version  # from the snapshot
    gm.take_back(service.ledger, rebuilt, master, 3, rebuilt.version, True)
    row = store.table(table_id)
    assert row is not None
    replayed = build_table(row, store.seats(table_id), store.records(table_id), store.chat(table_id))
    for token in tokens.values():
        _, seat = service.authenticate(table_id, token)
        assert encode(service.state(rebuilt, seat)) == encode(service.state(replayed, replayed.seats[seat.name]))
