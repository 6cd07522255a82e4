"""A live table's data in memory: the match, its seats, its chain, its config, and one lock (docs/table.md).

Everything that reads or changes a :class:`Table` holds ``table.lock`` (a plain threading lock: the web server's
threads, the policy worker and the store's listener all come here). ``changed`` is a condition on that lock that
long-polls wait on. What a seat is sent of it is built above, in :mod:`affray.table.messages`; how it changes, in
:mod:`affray.table.ledger`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from affray.ai.base import Policy
from affray.core.chain import chain_value
from affray.core.engine import GM, SPECTATOR, ActionSpec
from affray.core.json import JsonObject
from affray.core.match import Match
from affray.core.plugin import Countdown
from affray.core.rng import chain_key, policy_rng
from affray.odds.hints import hints
from affray.store import ChatLine
from affray.table.errors import FORBIDDEN, Refusal
from affray.table.parts import SharedParts
from affray.table.seats import SeatInfo

__all__ = ["SeatInfo", "Table", "countdown_of"]


@dataclass(eq=False)
class Table:
    """One live table. See the module docstring; fields other than the lock change only under it."""

    id: str
    title: str
    scenario: str
    match: Match
    seed_hex: str
    seats: dict[str, SeatInfo]
    policies: dict[str, Policy]
    config: JsonObject
    #: The table's salt secret (hex; core/rng.py): its seals' salts, its chain's record salts, its whispers' dice.
    #: Empty for a table stored before it had one (its chain and free rolls as log format 3 made them).
    salt_hex: str = field(default="", repr=False)
    chains: list[str] = field(default_factory=list)
    ended: JsonObject | None = None
    by_submission: dict[str, int] = field(default_factory=dict)
    stored_end: bool = False  # the store knows the table ended
    policy_due: int = -1  # the version a policy move is scheduled for (one at a time)
    chat: list[ChatLine] = field(default_factory=list)  # every line, whispers included (table/chat.py)
    connected: dict[str, int] = field(default_factory=dict)  # open connections per seat, in this process
    shared: SharedParts = field(default_factory=SharedParts, repr=False)  # parts of seat messages, built once
    snapshot_seq: int = 0  # the version of its newest snapshot in the store (table/snapshot.py)
    used: float = 0.0  # when a request or a record last touched it (monotonic): the idle eviction's clock
    # Another process changed it since this copy was current, and nothing here heard it then: it catches up on its
    # next use (affray.table.catch_up), not at every change (docs/table.md, "Several processes").
    behind_store: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    changed: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)
        # Policies draw from their own generator, never the match's dice, derived one way from the match's seed so
        # that the seed reproduces their decisions (core/rng.py policy_rng).
        self.policy_rng = policy_rng(self.match.rng)

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def head(self) -> str:
        """The chain head: the commitment before the first record."""
        return self.chains[-1] if self.chains else self.match.commitment

    @property
    def over(self) -> bool:
        return self.ended is not None or self.match.outcome() is not None

    @property
    def paused(self) -> bool:
        return bool(self.config.get("paused"))

    def outcome(self) -> JsonObject | None:
        outcome = self.match.outcome()
        if outcome is not None:
            return {"winner": outcome.winner, "reason": outcome.reason}
        return self.ended

    @property
    def chain_key(self) -> bytes | None:
        """The key of its chain's record salts (log format 4), None for a table without a salt secret."""
        return chain_key(bytes.fromhex(self.salt_hex)) if self.salt_hex else None

    def link(self, seq: int) -> str:
        """The chain value of the match's record ``seq`` after the current head (core/chain.py)."""
        return chain_value(self.head, self.match.records[seq], self.chain_key)

    def extend_chain(self) -> str:
        """Link the match's next unchained record into the chain; returns its chain value."""
        value = self.link(len(self.chains))
        self.chains.append(value)
        return value

    def seat(self, name: str) -> SeatInfo:
        seat = self.seats.get(name)
        if seat is None:
            raise Refusal("unknown_seat", f"This table has no seat '{name}'.", FORBIDDEN)
        return seat

    def human_actors(self, seat: SeatInfo) -> list[str]:
        """The actors of ``seat`` that a person plays (policies play the rest on the server); the GM's seat plays too
        those who joined mid-fight (reinforcements: seated at the GM's seat by the match)."""
        joined = (
            [a for a, s in self.match.seats.items() if s == GM != a and a not in seat.actors]
            if seat.role == "gm"
            else []
        )
        return [a for a in (*seat.actors, *joined) if a not in self.policies]

    def legal_for(self, seat: SeatInfo) -> dict[str, list[JsonObject]]:
        """Legal actions of the seat's person-played actors that are due now (none while paused or over), each with
        its odds ``hint`` (:func:`affray.odds.hints.hints`; ``""`` where there is none): :meth:`due_specs` as JSON."""
        return {
            actor: [{**spec.to_dict(), "hint": text} for spec, text in zip(specs, texts, strict=True)]
            for actor, specs, texts in self.due_specs(seat)
        }

    def due_specs(self, seat: SeatInfo) -> list[tuple[str, list[ActionSpec], list[str]]]:
        """Each person-played actor of the seat that is due now (none while paused or over), its legal actions and
        their odds hints, one text per spec (``""`` for none), from the seat's own view."""
        window = None if self.over or self.paused else self.match.pending()
        if window is None:
            return []
        mine = set(self.human_actors(seat))
        due = [a for a in window.actors if a in mine]
        if not due:
            return []
        view = self.match.view(self.match_seat(seat))
        out = []
        for actor in due:
            specs = self.match.legal(actor)
            out.append((actor, specs, hints(self.match.plugin, view, actor, specs)))
        return out

    def match_seat(self, seat: SeatInfo) -> str:
        """The seat name the match knows (the spectator is the match's spectator)."""
        return SPECTATOR if seat.role == "spectator" else seat.name


def countdown_of(match: Match) -> Countdown | None:
    """The countdown the ruleset's record declares (:class:`~affray.core.plugin.Countdown`), when it is on in
    ``match``; ``None`` otherwise."""
    declared = match.plugin.countdown
    return declared if declared is not None and declared.on(match.options) else None
