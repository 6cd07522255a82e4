"""A Spellchrome actor's legal actions, answered part by part (so a policy builds only what it asks for).

A turn's listing (``legal.turn_actions``) holds a few blows and spells, ~80 movement specs and a few support actions.
:class:`TurnChoices` answers ``of(kind)`` from the one part that holds ``kind`` (:class:`~.legal.TurnListing`), so
a policy that asks for attacks never builds the moves, and one that asks for moves gets them grouped by type from
the match's memo, with their end squares (:meth:`TurnChoices.ends`) for scoring without reading every spec. Every
answer equals what the base :class:`~affray.core.policy.Choices` gives on the whole listing, in its order
(``tests/conformance/test_fast_path.py`` checks it). Attacks of opportunity (two actions) use the base class.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import Protocol, TypeVar

from affray.core.engine import ActionSpec
from affray.core.fields import square
from affray.core.memo import Memo
from affray.core.policy import Choices
from affray.rulesets.spellchrome.legal import TurnListing
from affray.rulesets.spellchrome.state import SpellchromeState

BLOW_KINDS = frozenset({"attack", "full_attack"})
MOVE_KINDS = frozenset({"step", "move", "withdraw", "run"})
SUPPORT_KINDS = frozenset({"first_aid", "draw", "give_up", "end_turn"})
#: ``(x, y, provokes)``: a listed move's end square and whether it carries the warning code ``provokes`` (SC-28).
End = tuple[int, int, bool]
T = TypeVar("T")


class TurnChoices(TurnListing):
    """The acting combatant's turn choices: its listing's parts (:class:`~.legal.TurnListing`), asked part by part
    (see the module docstring)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        # the support part (the end of the turn, mostly) first: the moves, the dearest part, seldom need building
        return bool(self.support() or self.aid() or self.blows() or self.spells() or self.moves().specs)

    def of(self, kind: str) -> list[ActionSpec]:
        # the lists of one part are returned as they are kept: read-only, like every listing; the kinds asked most
        # (by the heuristic, at every decision) are looked for first
        if kind in BLOW_KINDS:
            return self.blows_of(kind)
        if kind == "first_aid":
            return self.aid()
        if kind == "end_turn":
            return self.end()  # the one end of the turn, always listed last (offers.support_actions)
        if kind in MOVE_KINDS:
            return self.moves().of(kind)
        if kind == "cast":
            return self.spells()
        if kind in SUPPORT_KINDS:
            return [s for s in self.support() if s.action["type"] == kind]
        return []

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per ``key`` for this turn's movement listing (:meth:`.legal.Moves.derived`): ``build``
        may read only the listed moves and what ``key`` names."""
        return self.moves().derived(key, build)

    def ends(self, kind: str) -> tuple[End, ...]:
        """The end squares of :meth:`of` ``kind`` (a movement kind), in the same order (see :data:`End`)."""
        return self.moves().ends(kind) if kind in MOVE_KINDS else ()


def derived(choices: Choices, key: Hashable, build: Callable[[], T]) -> T:
    """:meth:`TurnChoices.derived` of any choices (a plain :class:`Choices` builds every time)."""
    return choices.derived(key, build) if isinstance(choices, TurnChoices) else build()


def move_ends(choices: Choices, kind: str) -> tuple[End, ...]:
    """:meth:`TurnChoices.ends` of any choices (a plain :class:`Choices` over a listing reads its specs)."""
    if isinstance(choices, TurnChoices):
        return choices.ends(kind)
    return tuple((*square(s.action, "to"), "provokes" in s.warnings) for s in choices.of(kind))


class Lister(Protocol):
    """What lists the whole of an actor's legal actions (the ruleset: ``Ruleset.legal``)."""

    def legal(self, state: SpellchromeState, actor: str, memo: Memo | None = None) -> list[ActionSpec]: ...


def choices_for(state: SpellchromeState, actor: str, memo: Memo | None, lister: Lister) -> Choices:
    """``actor``'s choices now: :class:`TurnChoices` on its own turn (``Ruleset.pending`` is a turn or an aftermath
    window for it), else the base class over ``lister``'s listing (an attack of opportunity, or nothing to do)."""
    turn = state.turn
    if state.outcome is None and state.opportunity is None and turn is not None and turn.actor == actor:
        return TurnChoices(state, state.combatants[actor], turn, memo if memo is not None else Memo())
    return Choices(actor, partial(lister.legal, state, actor, memo))
