"""A live table in memory: the match, its seats, its chain, its config, and one lock (docs/table.md).

Everything that reads or changes a :class:`Table` holds ``table.lock`` (a plain threading lock: the web server's
threads, the policy worker and the store's listener all come here). ``changed`` is a condition on that lock that
long-polls wait on. The per-seat message (:func:`seat_message`) is built here, one seat at a time, so that no
seat's message is ever sent to another.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Required, TypedDict, cast

from affray.ai.base import Policy
from affray.core.chain import chain_value
from affray.core.engine import SPECTATOR, ActionSpec
from affray.core.json import Json, JsonObject
from affray.core.match import Match
from affray.core.plugin import Countdown, plugin
from affray.core.rng import chain_key, policy_rng
from affray.odds.hints import hints
from affray.store import ChatLine
from affray.table import patch
from affray.table.errors import FORBIDDEN, Refusal
from affray.table.shared import SharedParts


@dataclass(slots=True)
class SeatInfo:
    """A seat of a live table: ``role`` gm/player/spectator, the actors it plays, its token hash."""

    name: str
    role: str
    actors: tuple[str, ...]
    controller: str
    token_hash: str | None = None


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
    # next use (TableService.keep_up), not at every change (docs/table.md, "Several processes").
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
        """The actors of ``seat`` that a person plays (policies play the rest on the server)."""
        return [a for a in seat.actors if a not in self.policies]

    def legal_for(self, seat: SeatInfo) -> dict[str, list[JsonObject]]:
        """Legal actions of the seat's person-played actors that are due now (none while paused or over), each with
        its odds ``hint`` (:func:`affray.odds.hints.hints`; ``""`` where there is none): :meth:`due_specs` as JSON."""
        return {actor: [{**spec.to_dict(), "hint": text} for spec, text in zip(specs, texts, strict=True)]
                for actor, specs, texts in self.due_specs(seat)}

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
            out.append((actor, specs, hints(self.match.ruleset.name, view, actor, specs)))
        return out

    def match_seat(self, seat: SeatInfo) -> str:
        """The seat name the match knows (the spectator is the match's spectator)."""
        return SPECTATOR if seat.role == "spectator" else seat.name


class Answer(TypedDict, total=False):
    """The answer to an accepted action or ruling: its version, seq and the seat's events; ``chosen_at`` when it was
    chosen at an earlier version (:meth:`~affray.table.service.TableService.submit`)."""

    version: Required[int]
    seq: Required[int]
    events: Required[list[Json]]
    chosen_at: int


def seat_message(table: Table, seat: SeatInfo, since: int = 0, chat_since: int = 0) -> JsonObject:
    """What ``seat`` may know now: its view, its due legal actions, its redacted log from ``since`` on (each event
    told in a sentence, ``text``), the chat lines it may read from line ``chat_since`` on, the version, the
    commitment and chain head, the outcome, and the seed (null until the end); the GM's also says which seats are
    connected. Call under ``table.lock``.

    The view, the legal actions and the told log entries come from ``table.shared`` (:mod:`affray.table.shared`):
    built once and shared by every message (of this seat, or of a seat that may see the same) that holds them."""
    return _message(table, seat, since, chat_since, False)


def seat_units(table: Table, seat: SeatInfo, since: int = 0, chat_since: int = 0) -> dict[str, patch.Unit]:
    """:func:`seat_message` cut into its units (:func:`affray.table.patch.cut`), for a protocol-2 push: the view and
    the legal actions come already cut from ``table.shared``, as the JSON text it keeps."""
    return patch.cut(_message(table, seat, since, chat_since, True))


def _message(table: Table, seat: SeatInfo, since: int, chat_since: int, cut: bool) -> JsonObject:
    from affray.table.chat import read_before, visible

    match, name = table.match, table.match_seat(seat)
    shared = table.shared
    head, tail = shared.table_fields(table, cut)  # the same for every seat (in a pass of pushes, built and cut once)
    message: JsonObject = {
        **head,
        "seat": seat.name,
        "role": seat.role,
        "actors": list(seat.actors),
        # A Cut stands in for the value it holds (patch.cut takes it as is); it never leaves this module otherwise.
        "view": cast(Json, shared.view_cut(match, name)) if cut else shared.view(match, name),
        "legal": (cast(Json, shared.legal_cut(table, seat)) if cut else
                  {actor: list[Json](specs) for actor, specs in shared.legal(table, seat).items()}),
        "log": shared.log(match, since, name),
        "since": since,
        "chat": list[Json](visible(table, seat, chat_since)),
        "chat_since": read_before(table, seat.name, chat_since),  # in the seat's own count: no whisper shows
        **tail,
    }
    if seat.role == "gm":
        message["connected"] = {s: n for s, n in table.connected.items() if n > 0}
    return message


def table_fields(table: Table) -> tuple[JsonObject, JsonObject]:
    """The fields of every seat's message that are the table's, not the seat's, in the message's order: those before
    the seat's own fields (the table, its title, ruleset and version) and those after them (the people one may
    whisper to, the commitment and chain head, pause, timer, countdown, outcome, and the seed once it is over)."""
    from affray.table.chat import speaker

    match = table.match
    head: JsonObject = {"table": table.id, "title": table.title, "ruleset": match.ruleset.name,
                        "version": match.version}
    tail: JsonObject = {
        "seats": [{"seat": s.name, "role": s.role, "name": speaker(table, s.name)} for s in table.seats.values()
                  if s.role != "spectator" and s.token_hash is not None],  # the people one may whisper to
        "commitment": match.commitment,
        "chain": table.head,
        "paused": table.paused,
        "timer": table.config.get("timer"),
        "countdown": countdown_offer(match),
        "outcome": table.outcome(),
        "seed": table.seed_hex if table.over else None,
    }
    return head, tail


def countdown_of(match: Match) -> Countdown | None:
    """The countdown the ruleset's record declares (:class:`~affray.core.plugin.Countdown`), when it is on in
    ``match``; ``None`` otherwise."""
    declared = plugin(match.ruleset.name).countdown
    return declared if declared is not None and declared.on(match.options) else None


def countdown_offer(match: Match) -> JsonObject | None:
    """What the pages show of the countdown that is on: its name, rule and usual length in seconds."""
    countdown = countdown_of(match)
    if countdown is None:
        return None
    return {"name": countdown.name, "rule": countdown.rule, "seconds": countdown.length(match.options)}


COMPACT_LIMIT = 2048


def compact_text(table: Table, seat: SeatInfo) -> str:
    """A short text form of the seat's state and choices (at most 2 KB of UTF-8), for an in-world heads-up
    display's script.

    The view is read only through its common envelope (``combatants``, ``bars``, ``down``), defensively."""
    match = table.match
    view = match.view_json(table.match_seat(seat))
    outcome = table.outcome()
    head = f"{table.id} v{match.version} {match.ruleset.name} r{view.get('round', '?')} {view.get('phase', '')}"
    lines = [head.strip()]
    if outcome is not None:
        lines.append(f"OVER: {outcome.get('winner') or 'draw'} ({outcome.get('reason')})")
    elif table.paused:
        lines.append("PAUSED")
    for c in view.get("combatants") or []:
        if not isinstance(c, dict):
            continue
        bars = " ".join(f"{b.get('name')} {b.get('value')}/{b.get('max')}" for b in c.get("bars") or []
                        if isinstance(b, dict))
        mark = "*" if c.get("controlled") else " "
        lines.append(f"{mark}{c.get('name', c.get('id'))}: {bars}{' DOWN' if c.get('down') else ''}")
    for actor, specs in table.legal_for(seat).items():
        lines.append(f"{actor} to act:")
        lines.extend(f"{i}) {spec['label']}" for i, spec in enumerate(specs, 1))
    return _fit(lines, COMPACT_LIMIT)


def _fit(lines: list[str], limit: int) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        cost = len(line.encode()) + 1
        if size + cost > limit - 4:
            out.append("...")
            break
        out.append(line)
        size += cost
    return "\n".join(out)

