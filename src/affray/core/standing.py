"""Whether an action chosen at an earlier version still stands: the rule that keeps simultaneous moves from
bouncing (the table's "everyone acts" windows).

A client names the version it chose at. Where several actors are due in the same *simultaneous* window
(:attr:`affray.core.engine.Window.simultaneous`: WitchHammer's Psych and Planning, the Sim HuD's pursuers), two
players who click at once both chose at version V, and the second to arrive finds version V + 1. Its choice still
stands when

- every record since V is an action of *another* actor, taken in that same opening of the window,
- the window is still open (the same opening) and the actor is still in it,
- and (checked afterwards by the ruleset's ``step``, as for any action) the action is still legal for it now.

Anything else is ``stale_version``, with the cause in ``reason``: ``moved_on`` (the phase moved on, or the window was
never simultaneous), ``acted_since`` (the same actor acted since V, e.g. from another tab) or ``taken_back`` (a take
back or a GM ruling since V).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from affray.core.engine import Rejected, Window

if TYPE_CHECKING:
    from affray.core.records import Record

ACTION = "action"
MOVED_ON = "moved_on"
ACTED_SINCE = "acted_since"
TAKEN_BACK = "taken_back"


def _stale(reason: str, message: str) -> Rejected:
    return Rejected("stale_version", message, reason)


def stands(
    records: Sequence[Record],
    opened: Sequence[str],
    window: Window | None,
    actor: str,
    version: int,
    names: Mapping[str, str],
) -> Rejected | None:
    """``None`` when ``actor``'s action chosen at ``version`` may still be taken now (see the module docstring),
    else the ``stale_version`` refusal saying why. ``opened[v]`` is the simultaneous key of the window that was open
    when record ``v`` was taken ("" for any other window); ``window`` is the window open now."""
    now = len(records)
    if not 0 <= version < now:
        return _stale(MOVED_ON, "That choice was made at a point this fight has not reached; look again and choose.")
    since = records[version:]
    for record in since:
        if record.kind != ACTION:
            return _stale(TAKEN_BACK, "Something was taken back or ruled since you chose; look again and choose anew.")
        if record.actor == actor:
            return _stale(
                ACTED_SINCE,
                f"{names.get(actor, actor)} has already acted since you chose (another tab or device?); look again.",
            )
    key = opened[version]
    if not key or any(opened[record.seq] != key for record in since):
        return _stale(MOVED_ON, "The fight has moved on since you chose; look again and choose anew.")
    if window is None or window.simultaneous != key or actor not in window.actors:
        return _stale(MOVED_ON, "That phase is over; look again and choose anew.")
    return None
