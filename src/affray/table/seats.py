"""A seat of a live table (docs/table.md): who sits there, what it plays, and the hash of the token that opens it.

Its own module, below the table's data (:mod:`affray.table.state`) and the parts of seat messages
(:mod:`affray.table.parts`), because both name it: the parts read a table and a seat, and the table holds its parts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SeatInfo:
    """A seat of a live table: ``role`` gm/player/spectator, the actors it plays, its token hash."""

    name: str
    role: str
    actors: tuple[str, ...]
    controller: str
    token_hash: str | None = None
