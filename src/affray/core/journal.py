"""The step context: where a step's events go, and what the step must record (docs/architecture.md).

``Ruleset.step(state, actor, action, rng, journal)`` (and ``setup``) write their events into a :class:`Journal`, a
list of events that also says what the caller wants recorded:

- a **loud** journal (the default; every :class:`~affray.core.match.Match` uses one) keeps every event, with its dice
  records (``Rolled`` with the natural dice and their draw indices) and the sealed commits' salts and digests;
- a **quiet** journal (:data:`QUIET`, :data:`QUIET_TRUSTED`; the simulation fast path, :mod:`affray.sim.fast`)
  keeps nothing: ``append`` and ``extend`` drop what they are given, and the rules may skip building events, rolls
  and seal digests altogether where that pays (``if journal.loud: ...``). The rules draw **exactly the same dice**
  either way, so a quiet fight replayed with a loud journal is the same fight with its events (the fast path's
  tests check it for every example);
- ``validate``: ``False`` (:data:`QUIET_TRUSTED`) says the action was taken from the actor's legal choices by a
  policy, so the rules may skip the checks that only refuse what the listing never offers. A sampled share of
  simulated fights still validates, and the fuzz and every person's submission always do.

One mechanism instead of flags in rule states: the journal is the only thing that tells the rules how loud to be.
A quiet journal holds nothing, so the two quiet ones are shared singletons (no allocation per step).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsIndex

from affray.core.events import Event


class Journal(list[Event]):
    """A loud step context: a plain list of the step's events (see the module docstring)."""

    __slots__ = ("loud", "validate")

    def __init__(self, events: Iterable[Event] = (), *, validate: bool = True) -> None:
        super().__init__(events)
        self.loud = True
        self.validate = validate


class QuietJournal(Journal):
    """A quiet step context: records nothing (see the module docstring)."""

    __slots__ = ()

    def __init__(self, *, validate: bool = True) -> None:
        super().__init__(validate=validate)
        self.loud = False

    def append(self, event: Event) -> None:
        """Drop ``event``: nobody reads a quiet fight's events."""

    def extend(self, events: Iterable[Event]) -> None:
        """Drop ``events``."""

    def insert(self, index: SupportsIndex, event: Event) -> None:
        """Drop ``event``."""

    def __iadd__(self, events: Iterable[Event]) -> QuietJournal:  # type: ignore[override,misc]
        return self


#: Quiet, still validating: the sampled share of simulated fights that check every action.
QUIET = QuietJournal()
#: Quiet and trusting the action (it came from the actor's legal choices): the simulation fast path.
QUIET_TRUSTED = QuietJournal(validate=False)


def journal_for(journal: Journal | None) -> Journal:
    """``journal``, or a fresh loud one when the caller gave none (library calls, tests, :class:`Match`)."""
    return Journal() if journal is None else journal
