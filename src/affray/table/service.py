"""The table service: the authority over every live table of one server process (docs/table.md).

``TableService(store)`` serves at once and loads a table from the store on its first use (from its newest snapshot
and the records after it, checked against the stored commitment and chain: :mod:`affray.table.restore`), drops a
table that nobody used for ``idle_evict`` seconds and keeps a snapshot of each table every
:data:`~affray.table.snapshot.SNAPSHOT_EVERY` records (:mod:`affray.table.residency`; docs/table.md, "Tables in
memory"), creates tables, checks tokens, takes actions, plays policy seats after a pause, and runs the GM tools
(:mod:`affray.table.gm`). Every change follows one path: the match applies the step in memory under the table's
lock, the record is appended to the store (the database's unique (table, seq) decides races: a lost race is rolled
back and answered ``stale_version``), and only then is the action acknowledged. The store's change notices (one code
path for SQLite and PostgreSQL) wake subscribers, long-polls and the policy worker, and bring a table up to date with
records other processes appended (:mod:`affray.table.notices`; a table nothing here hears waits until its next use).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from affray.core.engine import Action, Rejected
from affray.core.json import JsonObject
from affray.core.memo import TableStatic
from affray.store import Store, StoreError
from affray.table import notices, residency
from affray.table.audience import Audience
from affray.table.errors import CONFLICT, NOT_FOUND, UNAUTHORIZED, UNAVAILABLE, Refusal, refused_step
from affray.table.hooks import ServiceHooks
from affray.table.messages import Answer, seat_message
from affray.table.restore import (
    TableDamaged,
    build_table,
    refresh_seats,
    reload,
    to_store,
)
from affray.table.seats import SeatInfo
from affray.table.snapshot import SNAPSHOT_EVERY
from affray.table.state import Table
from affray.table.tokens import token_hash
from affray.table.worker import Worker

if TYPE_CHECKING:
    from affray.table.feed import Follower
    from affray.table.opening import Created

T = TypeVar("T")

log = logging.getLogger(__name__)

RACE_RETRIES = 3  # submissions of one action after lost races with other processes (each loss is another's record)
IDLE_EVICT = 600.0  # seconds a table stays in memory with no request and no connection (affray serve --idle-evict)




class TableService:
    """See the module docstring. Thread-safe; ``close()`` stops the worker and the store listener."""

    def __init__(self, store: Store, *, examples_dir: Path | None = None, policy_pause: float = 0.5,
                 hooks: ServiceHooks | None = None, idle_evict: float | None = IDLE_EVICT) -> None:
        """``idle_evict``: seconds after which a table nobody uses leaves memory (None or 0: never)."""
        self.store = store
        self.hooks = hooks or ServiceHooks()  # what an observer (the metrics) hears: table/hooks.py
        self.examples_dir = examples_dir  # a folder of examples beside the rulesets' own (--examples)
        self.policy_pause = policy_pause
        self._tables: dict[str, Table] = {}
        self._tables_lock = threading.Lock()
        # who hears each table (WebSockets, long-polls): table/audience.py
        self.audience = Audience(self._tables_lock, self._touch, lambda table_id, version:
                                 self.hooks.pushed(table_id, version))
        self.damaged: dict[str, str] = {}
        # The memo's setup-only stores, one per setup and options, shared by the tables of that scenario and gone
        # with the last of them (core/memo.py TableStatic).
        self._statics: weakref.WeakValueDictionary[str, TableStatic] = weakref.WeakValueDictionary()
        self.idle_evict = idle_evict or None
        self._snapshotting: set[str] = set()  # tables whose snapshot job is scheduled
        self.worker = Worker()
        self._listener = store.listen(functools.partial(notices.heard, self),
                                      on_reconnect=functools.partial(notices.reconnected, self))
        residency.start(self)

    def close(self) -> None:
        self.worker.close()
        self._listener.close()

    # -- creating ---------------------------------------------------------------------------------------

    def create(self, scenario: str, options: Mapping[str, object] | None = None,
               controllers: Mapping[str, str] | None = None, seed: int | None = None,
               spectator: bool = True, seats: Mapping[str, str] | None = None) -> Created:
        """Open a table (:func:`affray.table.opening.open_table`); the answer holds every seat's token and link."""
        from affray.table.opening import open_table

        table, answer = open_table(self, scenario, options, controllers, seed, spectator, seats)
        with self._tables_lock:
            self._tables[table.id] = table
            table.used = time.monotonic()
        self._schedule_policy(table)
        return answer

    # -- finding tables and seats ---------------------------------------------------------------------------

    def table(self, table_id: str) -> Table:
        """The live table (loaded from the store on first use); 404 ``unknown_table`` otherwise."""
        with self._tables_lock:
            table = self._tables.get(table_id)
            if table is not None:
                table.used = time.monotonic()
        if table is None:
            return self._load(table_id)
        if table.behind_store:
            self.keep_up(table)
        return table

    def keep_up(self, table: Table) -> None:
        """Bring ``table`` up to the store if other processes changed it while nothing here heard it
        (:func:`affray.table.notices.keep_up`); nothing for a current one."""
        notices.keep_up(self, table)

    def follow(self, table: Table, follower: Follower) -> None:
        """:meth:`Audience.follow` on a current copy: caught up and followed under the table's lock, so that no
        notice falls between (one that came before found nobody hearing and left the table behind)."""
        with table.lock:
            self.keep_up(table)
            self.audience.follow(table, follower)

    def loaded(self) -> list[str]:
        with self._tables_lock:
            return list(self._tables)

    def held(self) -> list[Table]:
        """The tables in memory now (loading none)."""
        with self._tables_lock:
            return list(self._tables.values())

    def static_for(self, ruleset: str, setup: object, options: object) -> TableStatic:
        """The memo's setup-only store for tables of this ruleset, setup and options (one per scenario, shared)."""
        key = hashlib.sha256(json.dumps([ruleset, setup, options], sort_keys=True).encode()).hexdigest()
        with self._tables_lock:
            found = self._statics.get(key)
            if found is None:
                found = self._statics[key] = TableStatic()
            return found

    def _load(self, table_id: str) -> Table:
        """Build a table from its rows. A table whose rows cannot be read or do not check out is answered 503
        ``table_damaged`` (at every request, each trying again), and only it: a row of malformed JSON or of another
        shape (``store.rows.DamagedRow``), a setup or config the rules cannot start from, a log that does not replay
        to its chain. The log says why; ``affray db check`` names the rows."""
        try:
            row = self._guard(lambda: self.store.table(table_id))
            if row is None:
                raise Refusal("unknown_table", "There is no such table.", NOT_FOUND)
            found_row = row
            table = self._guard(lambda: build_table(
                found_row, self.store.seats(table_id), self.store.records(table_id), self.store.chat(table_id),
                self.store.snapshot(table_id), self.static_for(found_row.ruleset, found_row.setup,
                                                               found_row.options)))
        except TableDamaged as exc:
            raise self._damaged(table_id, str(exc)) from None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            # Rows that do not parse (the driver's JSONDecodeError), of another shape (DamagedRow), or that the rules
            # cannot start from: this table's problem, never the next request's 500.
            log.debug("table %s: reading it failed", table_id, exc_info=True)
            raise self._damaged(table_id, f"table {table_id}: its stored rows cannot be read "
                                          f"({type(exc).__name__}: {exc}); 'affray db check' names them") from None
        with self._tables_lock:
            found = self._tables.get(table_id)
            if found is None:
                found = self._tables[table_id] = table
            found.used = time.monotonic()
        if found is table:  # loaded here (another thread may have loaded it meanwhile: then it is that one's)
            self._resume_timer(table)
            self._schedule_policy(table)
        return found

    def _damaged(self, table_id: str, why: str) -> Refusal:
        self.damaged[table_id] = why
        log.error("%s", why)
        return Refusal("table_damaged", "This table's stored rows do not check out, so it cannot be served; ask the "
                                        "server's operator ('affray db check' names the damage).", UNAVAILABLE)

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop every idle table from memory (:func:`affray.table.residency.evict_idle`); returns their ids."""
        return residency.evict_idle(self, now)

    def authenticate(self, table_id: str, token: str | None) -> tuple[Table, SeatInfo]:
        """The table and seat a token opens. A missing, wrong, replaced or other table's token: 401. A table this
        process holds decides from its seats in memory, without the database (:meth:`seat_in_memory`); another is
        looked up by the token's hash and loaded."""
        if not token:
            raise Refusal("no_token", "Send your seat's token as 'Authorization: Bearer TOKEN'.", UNAUTHORIZED)
        held = self.seat_in_memory(table_id, token)
        if held is not None:
            return held
        if self.in_memory(table_id):
            raise Refusal("bad_token", "This token does not open a seat at this table.", UNAUTHORIZED)
        found = self._guard(lambda: self.store.seat_by_token_hash(token_hash(token)))
        if found is None or found[0] != table_id:
            raise Refusal("bad_token", "This token does not open a seat at this table.", UNAUTHORIZED)
        table = self.table(table_id)
        with table.lock:
            seat = table.seats.get(found[1])
            if seat is None or seat.token_hash != token_hash(token):
                refresh_seats(self.store, table)
                seat = table.seats.get(found[1])
        if seat is None:
            raise Refusal("bad_token", "This token does not open a seat at this table.", UNAUTHORIZED)
        return table, seat

    def in_memory(self, table_id: str) -> bool:
        with self._tables_lock:
            return table_id in self._tables

    def seat_in_memory(self, table_id: str, token: str) -> tuple[Table, SeatInfo] | None:
        """The table and seat ``token`` opens, if this process holds the table in memory (None otherwise, or for a
        token that opens none of its seats). No database lookup: the seats in memory are the table's, kept current
        by this process's own changes and other processes' notices (a token another process replaced stops here
        with its notice, milliseconds later: docs/table.md, "Several processes"), so a valid seat is never held to
        the failed-login limits (:mod:`affray.web.logins`)."""
        with self._tables_lock:
            table = self._tables.get(table_id)
            if table is not None:
                table.used = time.monotonic()
        if table is None:
            return None
        if table.behind_store:  # changes of other processes that nothing here heard, new tokens among them
            self.keep_up(table)
        hashed = token_hash(token)
        with table.lock:
            seat = next((seat for seat in table.seats.values() if seat.token_hash == hashed), None)
        return None if seat is None else (table, seat)

    def state(self, table: Table, seat: SeatInfo, since: int = 0) -> JsonObject:
        with table.lock:
            return seat_message(table, seat, max(0, since))

    # -- acting -------------------------------------------------------------------------------------------

    def submit(self, table: Table, seat: SeatInfo, actor: str, action: Action, version: int,
               submission_id: str | None = None) -> Answer:
        """Take ``action`` for ``actor`` at ``version``; the answer is ``{"version", "seq", "events"}`` with the
        seat's redacted events. A retried ``submission_id`` returns the first answer."""
        started = time.perf_counter()
        try:
            answer = self._submit(table, seat, actor, action, version, submission_id)
        except Refusal as exc:
            self.hooks.refused(exc.code)
            raise
        self.hooks.accepted(table.id, answer["version"], started)
        return answer

    def _submit(self, table: Table, seat: SeatInfo, actor: str, action: Action, version: int,
                submission_id: str | None) -> Answer:
        key = f"{seat.name}/{submission_id}" if submission_id else None
        with table.lock:
            if key is not None and key in table.by_submission:
                return self._answer(table, seat, table.by_submission[key])
            self._check_open(table)
            if actor not in seat.actors or seat.role == "spectator":
                raise Refusal("not_your_seat", f"Your seat does not play '{actor}'.", 403)
            if actor in table.policies:
                raise Refusal("policy_seat", f"'{actor}' is played by the server's {table.policies[actor].name} "
                                             f"policy.", 403)
            for _ in range(RACE_RETRIES):
                result = table.match.submit(seat.name, actor, action, version=version)
                if isinstance(result, Rejected):
                    raise refused_step(result.code, result.message, result.reason)
                if self._commit(table, key):
                    return self._answer(table, seat, table.version - 1)
                # Another process took this seq first; the table now holds its record. The same choice may
                # still stand behind it (a simultaneous window): submit it again on the table as it is now.
                if key is not None and key in table.by_submission:
                    return self._answer(table, seat, table.by_submission[key])
            raise Refusal("stale_version", "Another action was taken first; look again and choose anew.", CONFLICT,
                          reason="moved_on")

    def take_back(self, table: Table, seat: SeatInfo, version: int) -> JsonObject:
        """A player takes back its own last action (refused once something was revealed since)."""
        with table.lock:
            self._check_open(table)
            result = table.match.take_back(seat.name, version=version)
            if isinstance(result, Rejected):
                raise refused_step(result.code, result.message, result.reason)
            if not self._commit(table, None):
                raise Refusal("stale_version", "Another action was taken first.", CONFLICT)
            return {"version": table.version}

    @staticmethod
    def _check_open(table: Table) -> None:
        if table.ended is not None:
            raise Refusal("table_ended", "The GM has ended this fight.", CONFLICT)
        if table.match.outcome() is not None:
            raise Refusal("match_over", "The fight is over; no more actions can be taken.", CONFLICT)
        if table.paused:
            raise Refusal("paused", "The GM has paused the table.", CONFLICT)

    def _answer(self, table: Table, seat: SeatInfo, seq: int) -> Answer:
        """The answer to an accepted action: its version, seq and the seat's events; ``chosen_at`` when it was
        chosen at an earlier version and stood behind other actors' moves (a simultaneous window)."""
        entries = table.match.events_since(seq, table.match_seat(seat))
        answer = Answer(version=seq + 1, seq=seq, events=entries[0]["events"] if entries else [])
        chosen_at = table.match.records[seq].chosen_at
        if chosen_at is not None:
            answer["chosen_at"] = chosen_at
        return answer

    def _commit(self, table: Table, key: str | None) -> bool:
        """Append the match's newest record to the store (under the table's lock). False, with the table rolled
        back to the store's log, when the database says another record took that seq first."""
        record = table.match.records[-1]
        chain = table.link(record.seq)
        try:
            ok = self.store.append(table.id, to_store(record, chain, key))
        except StoreError as exc:
            self.hooks.store_failed()
            log.error("table %s: append failed: %s", table.id, exc)
            self._reload(table)
            raise Refusal("store_unavailable", "The database did not take the action; try again.",
                          UNAVAILABLE) from None
        if not ok:
            self._reload(table)
            return False
        table.chains.append(chain)
        if key is not None:
            table.by_submission[key] = record.seq
        table.used = time.monotonic()  # a table whose policies play is in use
        if table.version - table.snapshot_seq >= SNAPSHOT_EVERY:
            residency.snapshot_soon(self, table)
        self._record_end(table)
        return True

    def _record_end(self, table: Table) -> None:
        outcome = table.match.outcome()
        if outcome is not None and not table.stored_end:
            table.stored_end = True
            self._guard(lambda: self.store.end_table(table.id, {"winner": outcome.winner, "reason": outcome.reason}))

    def _reload(self, table: Table) -> None:
        static = self.static_for(table.match.ruleset.name, table.match.setup_data, table.match.options_dict)
        self._guard(lambda: reload(self.store, table, static))

    # -- change notices ------------------------------------------------------------------------------------

    def _touch(self, table_id: str) -> None:
        """The table (if in memory) was used now. Under ``_tables_lock``."""
        table = self._tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()

    def changed(self, table: Table) -> None:
        """Push the change to every follower of ``table`` and wake every subscriber (:mod:`affray.table.audience`)."""
        self.audience.changed(table)

    def announce(self, table: Table) -> None:
        """Tell every process (and this one) about a change that appended nothing (pause, end, new token)."""
        self._guard(lambda: self.store.notify(table.id, table.version))

    # -- policies and timers --------------------------------------------------------------------------------

    def _schedule_policy(self, table: Table) -> None:
        with table.lock:
            if table.over or table.paused or table.policy_due == table.version:
                return
            window = table.match.pending()
            if window is None or not any(a in table.policies for a in window.actors):
                return
            table.policy_due = version = table.version
        self.worker.schedule(self.policy_pause, lambda: self._policy_turn(table, version))

    def _policy_turn(self, table: Table, version: int) -> None:
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
                log.error("table %s: policy %s chose a refused action for %s: %s", table.id, policy.name, actor,
                          result.message)
                return
            self._commit(table, None)

    def _resume_timer(self, table: Table) -> None:
        from affray.table.gm import resume_timer

        resume_timer(self, table)

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except StoreError as exc:
            self.hooks.store_failed()
            log.error("store: %s", exc)
            raise Refusal("store_unavailable", "The database is not available; try again.", UNAVAILABLE) from None
