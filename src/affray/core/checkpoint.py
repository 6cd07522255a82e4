"""A match's checkpoint: what its replay derived beyond its setup at one version, so that a table server's snapshot
(:mod:`affray.table.snapshot`) can put a fresh match there without replaying the fight (docs/table.md, "Tables in
memory"). :meth:`affray.core.match.Match.checkpoint` takes one; :meth:`~affray.core.match.Match.resume` puts a fresh
match at it, with the history :func:`history_at` rebuilds from the log of record and the checkpoint."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.core.events import Event, Revealed
from affray.core.json import JsonMapping, as_object
from affray.core.records import ACTION, IN_FORCE, Line, Record, ReplayError


@dataclass(slots=True)
class Checkpoint:
    """What a match's replay derived beyond its setup, at one version: enough to go on from there without replaying
    (a table server's snapshot, :mod:`affray.table.snapshot`). ``state`` is the ruleset's state, ``dice`` and
    ``salts`` the verifiable RNG's positions, ``events`` each record's events, ``opened`` each record's
    simultaneous key, and ``lines[v]`` the index of the last record in force at version ``v`` (-1: none). The
    records' inputs are not here: the log of record holds them."""

    state: object
    dice: int
    salts: int
    events: list[list[Event]]
    opened: list[str]
    lines: list[int]


@dataclass(slots=True)
class History:
    """A match's history at a checkpoint: its records (each with the checkpoint's events), the seals they revealed,
    and the line in force at each version (``lines[v]``; ``None`` before any record in force)."""

    records: list[Record]
    revealed: set[str]
    lines: list[Line | None]


def history_at(checkpoint: Checkpoint, records: Sequence[JsonMapping]) -> History:
    """The history of the match whose checkpoint was taken after ``records`` (``Record.to_dict`` entries, without
    events); a checkpoint that does not fit them raises :class:`ReplayError`."""
    count = len(records)
    if not (len(checkpoint.events) == len(checkpoint.opened) == count and len(checkpoint.lines) == count + 1):
        raise ReplayError(f"the checkpoint does not cover {count} records")
    built: dict[int, Line] = {}  # each record in force has one line: it, over the line it was taken on

    def line_at(last: int) -> Line | None:
        if last < 0:
            return None
        if last not in built:
            raise ReplayError(f"the checkpoint names record #{last} in force, which is not one")
        return built[last]

    history = History([], set(), [])
    for i, entry in enumerate(records):
        chosen = entry.get("chosen_at")
        record = Record(
            i,
            str(entry["seat"]),
            str(entry["actor"]),
            dict(as_object(entry["action"])),
            checkpoint.events[i],
            str(entry.get("kind", ACTION)),
            chosen if isinstance(chosen, int) and not isinstance(chosen, bool) else None,
        )
        if record.seq != entry["seq"]:
            raise ReplayError(f"record #{entry['seq']} is not at its place {i}")
        history.records.append(record)
        history.revealed.update(e.seal for e in record.events if isinstance(e, Revealed))
        if record.kind in IN_FORCE:
            built[i] = Line(i, line_at(checkpoint.lines[i]))
    history.lines = [line_at(last) for last in checkpoint.lines]
    return history
