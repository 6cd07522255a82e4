"""The table service: the one face of every live table of one server process (docs/table.md), a thin one. It builds
the rooms of ``table/`` and hands each the narrow object it needs, never itself:

- the registry of the tables in memory (:mod:`affray.table.registry`), which opening (:mod:`affray.table.opening`)
  and loading (:mod:`affray.table.loading`) fill and the idle sweep empties (:mod:`affray.table.eviction`, which also
  keeps each table's snapshots: docs/table.md, "Tables in memory");
- the ledger (:mod:`affray.table.ledger`), every change's one path to the store: the match applies the step in memory
  under the table's lock, the record is appended (the database's unique (table, seq) decides races: a lost race is
  rolled back and answered ``stale_version``), and only then is the change acknowledged. A seat's actions
  (:mod:`affray.table.actions`), the GM's tools (:mod:`affray.table.gm`), the chat (:mod:`affray.table.chat`) and the
  policy seats (:mod:`affray.table.policy_seats`) all go through it;
- who hears each table (:mod:`affray.table.audience`), each seat's pushes built by :mod:`affray.table.feed` from
  what it receives (:mod:`affray.table.messages`);
- the store's change notices (one code path for SQLite and PostgreSQL), which wake subscribers, long-polls and the
  policy seats, and bring a copy up to date with records other processes appended (:mod:`affray.table.catch_up`; a
  table nothing here hears waits until its next use);
- which seat a token opens (:mod:`affray.table.access`).

The web layer calls the methods here, and the GM's tools and the chat with ``service.ledger`` (the countdown with
``service.worker`` too).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from affray.core.content import ContentLibrary
from affray.core.engine import Action
from affray.core.json import JsonObject
from affray.store import Store
from affray.table import actions, gm
from affray.table.access import Access
from affray.table.audience import Audience
from affray.table.catch_up import CatchUp
from affray.table.errors import Refusal
from affray.table.eviction import Eviction
from affray.table.feed import Follower
from affray.table.hooks import ServiceHooks
from affray.table.ledger import Ledger
from affray.table.loading import Loader
from affray.table.messages import Answer, seat_message
from affray.table.opening import Created, open_table
from affray.table.policy_seats import PolicySeats
from affray.table.registry import Registry, SetupStores
from affray.table.seats import SeatInfo
from affray.table.state import Table
from affray.table.worker import Worker

IDLE_EVICT = 600.0  # seconds a table stays in memory with no request and no connection (affray serve --idle-evict)


class TableService:
    """See the module docstring. Thread-safe; ``close()`` stops the worker and the store listener."""

    def __init__(
        self,
        store: Store,
        *,
        examples_dir: Path | None = None,
        policy_pause: float = 0.5,
        hooks: ServiceHooks | None = None,
        idle_evict: float | None = IDLE_EVICT,
    ) -> None:
        """``idle_evict``: seconds after which a table nobody uses leaves memory (None or 0: never)."""
        self.store = store
        self.hooks = hooks or ServiceHooks()  # what an observer (the metrics) hears: table/hooks.py
        self.examples_dir = examples_dir  # a folder of examples beside the rulesets' own (--examples)
        # each ruleset's content with the server's own folder's (--content, table/library.py): what the content library
        # lists and what an uploaded scenario's `use:` may name
        self.content: Mapping[str, ContentLibrary] = {}
        self.registry = Registry()
        self.setups = SetupStores()
        # who hears each table (WebSockets, long-polls), under the registry's lock: table/audience.py
        self.audience = Audience(
            self.registry.lock, self.registry.touch, lambda table_id, version: self.hooks.pushed(table_id, version)
        )
        self.worker = Worker()
        self.eviction = Eviction(self.registry, self.audience, store, self.worker, idle_evict or None)
        self.ledger = Ledger(store, self.setups, lambda: self.hooks.store_failed(), self.eviction.snapshot_soon)
        self.loader = Loader(self.ledger, self.setups)
        self.policies = PolicySeats(self.ledger, self.worker, policy_pause)
        self.catch_up = CatchUp(self.registry, self.ledger, self.audience, self.policies.schedule)
        self.access = Access(self.registry, self.ledger, self.table, self.catch_up.keep_up)
        self._listener = store.listen(self.catch_up.heard, on_reconnect=self.catch_up.reconnected)
        self.eviction.start(self.table)

    def close(self) -> None:
        self.worker.close()
        self._listener.close()

    @property
    def damaged(self) -> dict[str, str]:
        """Why each table found damaged here is, by id (:class:`affray.table.loading.Loader`)."""
        return self.loader.damaged

    # -- tables and seats -----------------------------------------------------------------------------------

    def create(
        self,
        scenario: str,
        options: Mapping[str, object] | None = None,
        controllers: Mapping[str, str] | None = None,
        seed: int | None = None,
        spectator: bool = True,
        seats: Mapping[str, str] | None = None,
    ) -> Created:
        """Open a table (:func:`affray.table.opening.open_table`); the answer holds every seat's token and link."""
        table, answer = open_table(
            self.ledger,
            self.setups,
            self.examples_dir,
            scenario,
            options,
            controllers,
            seed,
            spectator,
            seats,
            content=self.content,
        )
        self.registry.put(table)
        self.policies.schedule(table)
        return answer

    def table(self, table_id: str) -> Table:
        """The live table (loaded from the store on first use); 404 ``unknown_table`` otherwise."""
        table = self.registry.get(table_id)
        if table is None:
            return self._load(table_id)
        if table.behind_store:
            self.keep_up(table)
        return table

    def _load(self, table_id: str) -> Table:
        """Load a table (:meth:`affray.table.loading.Loader.load`) and hold it; one that another thread loaded
        meanwhile is that one's, else its countdown runs on and its policy move due is scheduled."""
        table = self.loader.load(table_id)
        held = self.registry.add(table)
        if held is table:
            gm.resume_timer(self.ledger, self.worker, table)
            self.policies.schedule(table)
        return held

    def authenticate(self, table_id: str, token: str | None) -> tuple[Table, SeatInfo]:
        """The table and seat a token opens; 401 otherwise (:meth:`affray.table.access.Access.authenticate`)."""
        return self.access.authenticate(table_id, token)

    def seat_in_memory(self, table_id: str, token: str) -> tuple[Table, SeatInfo] | None:
        """The table and seat ``token`` opens if this process holds the table, with no database lookup
        (:meth:`affray.table.access.Access.seat_in_memory`)."""
        return self.access.seat_in_memory(table_id, token)

    def keep_up(self, table: Table) -> None:
        """Bring ``table`` up to the store if other processes changed it while nothing here heard it
        (:meth:`affray.table.catch_up.CatchUp.keep_up`); nothing for a current one."""
        self.catch_up.keep_up(table)

    def follow(self, table: Table, follower: Follower) -> None:
        """:meth:`Audience.follow` on a current copy: caught up and followed under the table's lock, so that no
        notice falls between (one that came before found nobody hearing and left the table behind)."""
        with table.lock:
            self.keep_up(table)
            self.audience.follow(table, follower)

    def loaded(self) -> list[str]:
        return self.registry.ids()

    def held(self) -> list[Table]:
        """The tables in memory now (loading none)."""
        return self.registry.held()

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop every idle table from memory (:meth:`affray.table.eviction.Eviction.evict_idle`); returns their
        ids."""
        return self.eviction.evict_idle(now)

    def state(self, table: Table, seat: SeatInfo, since: int = 0) -> JsonObject:
        with table.lock:
            return seat_message(table, seat, max(0, since))

    # -- acting -------------------------------------------------------------------------------------------

    def submit(
        self, table: Table, seat: SeatInfo, actor: str, action: Action, version: int, submission_id: str | None = None
    ) -> Answer:
        """Take ``action`` for ``actor`` at ``version`` (:func:`affray.table.actions.submit`), heard by the hooks;
        the answer is ``{"version", "seq", "events"}`` with the seat's redacted events."""
        started = time.perf_counter()
        try:
            answer = actions.submit(self.ledger, table, seat, actor, action, version, submission_id)
        except Refusal as exc:
            self.hooks.refused(exc.code)
            raise
        self.hooks.accepted(table.id, answer["version"], started)
        return answer

    def take_back(self, table: Table, seat: SeatInfo, version: int) -> JsonObject:
        """A player takes back its own last action (:func:`affray.table.actions.take_back`)."""
        return actions.take_back(self.ledger, table, seat, version)

    def announce(self, table: Table) -> None:
        """Tell every process (and this one) about a change that appended nothing (pause, end, new token)."""
        self.ledger.announce(table)
