"""The store's values: small frozen dataclasses handed in and out, never SQLAlchemy rows.

Secrets (a table's seed, a seat's token hash) are kept out of ``repr`` so that a log line or a traceback that
prints a row does not carry them. JSON fields hold whatever JSON the caller gave; they come back equal. A table or
seat row read back whose JSON has not the shape its fields are typed with (an object, a list of names: a hand-edited
or damaged row) is refused with :class:`DamagedRow` as it is made, naming the row and the column, so that no reader
goes on with it; JSON that does not parse at all fails earlier, as the database driver reads it (a ``ValueError``
too). ``store/check.py`` finds both kinds in a whole database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from affray.core.json import JsonObject
from affray.core.plugin import UNRECORDED_RULES_VERSION, rules_changed

if TYPE_CHECKING:
    from sqlalchemy import RowMapping

Role = Literal["gm", "player", "spectator"]
RecordKind = Literal["action", "undo", "gm"]
ROLES: tuple[str, ...] = ("gm", "player", "spectator")
RECORD_KINDS: tuple[str, ...] = ("action", "undo", "gm")


class StoreError(Exception):
    """The database cannot be used: a bad URL, a server that does not answer, a schema this program cannot read.

    The message is one sentence for the person running the server; the CLI prints it and exits non-zero.
    """


class UnknownTable(StoreError):
    """A write named a table id that is not in the store (reads answer None or empty instead)."""


class DamagedRow(ValueError):
    """A stored row whose JSON column does not hold what affray writes there (see the module docstring)."""


def _shaped(value: object, kind: type, where: str, what: str) -> None:
    if not isinstance(value, kind):
        raise DamagedRow(f"{where} is not {what} (it holds JSON of another shape)")


@dataclass(frozen=True)
class NewTable:
    """What ``Store.create_table`` needs. ``seed_hex`` is the secret seed and ``salt_hex`` the salt secret (None: a
    table without one, as before schema v6): they stay on the server. ``rules_version``: the ruleset's rules version
    the table is made under (``Plugin.rules_version``)."""

    id: str
    ruleset: str
    title: str
    scenario: str
    setup: JsonObject
    options: JsonObject
    seed_hex: str = field(repr=False)
    commitment: str
    rules_version: str
    config: JsonObject = field(default_factory=dict)
    salt_hex: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class TableRow:
    """A stored table. ``ended_at`` and ``outcome`` are None while the table is open. Times are Unix seconds.
    ``rules_version``: the rules version it was made under ("1" for a table stored before versions were recorded)."""

    id: str
    ruleset: str
    title: str
    scenario: str
    setup: JsonObject
    options: JsonObject
    seed_hex: str = field(repr=False)
    commitment: str
    created_at: float
    ended_at: float | None
    outcome: JsonObject | None
    config: JsonObject
    rules_version: str
    salt_hex: str | None = field(default=None, repr=False)  # the salt secret (None on a table made before v6)

    def __post_init__(self) -> None:
        for column in ("setup", "options", "config"):
            _shaped(getattr(self, column), dict, f"the {column} of table {self.id}", "a JSON object")
        if self.outcome is not None:
            _shaped(self.outcome, dict, f"the outcome of table {self.id}", "a JSON object or null")

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    def rules_refusal(self) -> str | None:
        """Why this affray does not serve the table (:func:`rules_refusal`), or None. ``KeyError``: an unknown
        ruleset."""
        return rules_refusal(self.ruleset, self.rules_version)


def rules_refusal(ruleset: str, rules_version: str | None) -> str | None:
    """The sentence a table made under ``ruleset``'s rules version ``rules_version`` (None: not recorded, "1") is
    refused with when this affray runs another version of those rules: it is not replayed under other rules, and
    nothing of it is deleted. None when this affray runs that version. ``KeyError``: an unknown ruleset."""
    refusal = rules_changed(ruleset, rules_version, "table")
    if refusal is None:
        return None
    made = UNRECORDED_RULES_VERSION if rules_version is None else rules_version
    return (
        f"{refusal}: it is not served, and its rows are kept (an affray that runs {ruleset} rules version {made} "
        f"serves it)"
    )


@dataclass(frozen=True)
class Seat:
    """One seat of a table. ``token_hash`` is the SHA-256 hex of its token (None for a seat nobody joins)."""

    seat: str
    token_hash: str | None = field(repr=False)
    actors: tuple[str, ...]
    controller: str
    role: Role

    def values(self, table_id: str) -> dict[str, object]:
        """Its row of ``seats``."""
        return {
            "table_id": table_id,
            "seat": self.seat,
            "token_hash": self.token_hash,
            "actors": list(self.actors),
            "controller": self.controller,
            "role": self.role,
        }

    @classmethod
    def of(cls, row: RowMapping) -> Seat:
        """The seat of a row of ``seats`` (:class:`DamagedRow` when its actors are not a list of names)."""
        actors = row["actors"]
        if not isinstance(actors, list) or not all(isinstance(actor, str) for actor in actors):
            raise DamagedRow(
                f"the actors of seat {row['seat']!r} of table {row['table_id']} are not a JSON list of names"
            )
        return cls(
            seat=row["seat"],
            token_hash=row["token_hash"],
            actors=tuple(row["actors"]),
            controller=row["controller"],
            role=row["role"],
        )


@dataclass(frozen=True)
class Record:
    """One entry of a table's log of record.

    ``kind`` "action": ``payload`` is the action object, ``actor`` the actor it is for. ``kind`` "undo":
    ``payload`` is ``{"to": N}``, back to version N. ``kind`` "gm": ``payload`` is the GM's ruling. ``chain`` is the
    hex hash chained to the previous record (computed by the caller). ``created_at`` is set by the store when the
    record is appended; the value given to ``append`` is ignored. ``chosen_at``: the version a simultaneous move was
    chosen at, when earlier than ``seq`` (not an input of the chain).
    """

    seq: int
    kind: RecordKind
    seat: str | None
    actor: str | None
    payload: JsonObject
    chain: str
    submission_id: str | None = None
    created_at: float | None = None
    chosen_at: int | None = None

    def values(self, table_id: str, now: float) -> dict[str, object]:
        """Its row of ``records``, created at ``now``."""
        return {
            "table_id": table_id,
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "actor": self.actor,
            "payload": self.payload,
            "submission_id": self.submission_id,
            "chain": self.chain,
            "created_at": now,
            "chosen_at": self.chosen_at,
        }

    @classmethod
    def of(cls, row: RowMapping) -> Record:
        """The record of a row of ``records`` (its payload any JSON, as it was given: the table layer refuses a log
        whose payloads its rules cannot replay)."""
        return cls(
            seq=row["seq"],
            kind=row["kind"],
            seat=row["seat"],
            actor=row["actor"],
            payload=row["payload"],
            chain=row["chain"],
            submission_id=row["submission_id"],
            created_at=row["created_at"],
            chosen_at=row["chosen_at"],
        )


@dataclass(frozen=True)
class ChatLine:
    """One chat line or free roll of a table. ``n`` counts from 0 per table; ``to`` is None (everyone), ``"gm"`` or
    a seat name (a whisper); ``kind`` "chat" (``body`` ``{"text"}``) or "roll" (``body`` ``{"notation", "roll",
    "first"}``: the roll and its first free draw index). ``at`` is set by the store."""

    n: int
    seat: str
    to: str | None
    kind: str
    body: JsonObject
    at: float = 0.0


@dataclass(frozen=True)
class AuditEntry:
    """One GM intervention, kept beside the log of record: ``n`` counts from 0 per table."""

    n: int
    at: float
    who: str | None
    kind: str
    detail: JsonObject


@dataclass(frozen=True)
class Snapshot:
    """A table's state at version ``seq`` (after records 0 .. seq - 1), as the table layer wrote it: ``code`` names
    the program that wrote it, ``chain`` is the chain head at ``seq``, ``digest`` the SHA-256 hex of ``body``. The
    body is as secret as the seed (face-down cards, the dice's position): kept out of ``repr``, never sent to a
    seat."""

    seq: int
    code: str
    chain: str
    digest: str
    body: bytes = field(repr=False)
