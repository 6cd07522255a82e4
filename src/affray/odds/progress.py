"""Progress of long exact solves, and the sizes a solver refuses (docs/odds.md).

A duel solver explores states, solves components and pushes the rounds distribution forward; for a large duel
that takes seconds to minutes. The solvers call :func:`tick` as they go; whoever wants to show progress (the
``affray odds duel`` command) wraps the solve in :func:`reporting` with a callback. Without one, :func:`tick`
costs a context-variable read. Nothing here reads a clock: the callback decides how often to draw.

:func:`too_large` is the one sentence every solver gives when it refuses a size it cannot finish.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: ``(stage, done, total)``: ``stage`` is "exploring states", "solving components" or "rounds"; ``total`` is
#: ``None`` while unknown.
Reporter = Callable[[str, int, "int | None"], None]

_REPORTER: contextvars.ContextVar[Reporter | None] = contextvars.ContextVar("affray_odds_progress", default=None)
EVERY = 1_000  # solvers tick every this many states (a reporter throttles further by time)

#: The exact solvers' limits: exact Fractions over this many states grow to thousands of digits and take hours.
EXACT_MAX_STATES = 60_000
FLOAT_MAX_STATES = 200_000


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """Send the progress of every solve inside the ``with`` block to ``reporter``."""
    token = _REPORTER.set(reporter)
    try:
        yield
    finally:
        _REPORTER.reset(token)


def tick(stage: str, done: int, total: int | None = None) -> None:
    """Report progress (a no-op unless :func:`reporting` is active)."""
    reporter = _REPORTER.get()
    if reporter is not None:
        reporter(stage, done, total)


def state_limit(exact: bool, max_states: int) -> int:
    """The number of states a solve may explore: ``max_states``, and in exact mode no more than
    :data:`EXACT_MAX_STATES` (exact fractions over more states do not finish in a sitting)."""
    return min(max_states, EXACT_MAX_STATES) if exact else max_states


def too_large(states: int, exact: bool) -> str:
    """Why a solve over more than ``states`` states is refused, and what to do instead."""
    if exact and states <= EXACT_MAX_STATES:
        return (
            f"more than {states:,} states: exact fractions over that many grow to thousands of digits and "
            f"would take hours; the float solver (without --exact) gives the same to 12 digits"
        )
    return (
        f"more than {states:,} states: too large to solve exactly in memory and time (hit points and "
        f"positions multiply); try lower hit points or a smaller scenario, or simulate it (affray sim)"
    )
