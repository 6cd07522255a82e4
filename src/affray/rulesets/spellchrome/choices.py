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
from typing import TypeVar

from affray.core.engine import ActionSpec
from affray.core.fields import square
from affray.core.memo import Memo
from affray.core.policy import Choices
from affray.rulesets.spellchrome.legal import TurnListing
from affray.rulesets.spellchrome.state import SpellchromeState

BLOW_KINDS = frozenset({"attack", "full_attack"})
MOVE_KINDS = frozenset({"step", "move", "withdraw", "run"})
SUPPORT_KINDS = frozenset({"first_aid", "draw", "give_up", "end_turn"})
#: ``(x, y, provokes)``: a listed move's end square and whether its warning says it provokes (SC-28).
End = tuple[int, int, bool]
T = TypeVar("T")


class TurnChoices(Choices):
    """The acting combatant's turn choices (see the module docstring)."""

    __slots__ = ("_parts",)

    def __init__(self, actor: str, parts: TurnListing) -> None:
        # Choices' fields, set here rather than through super(): one is made for every decision
        self.actor, self._listing, self._all, self._parts = actor, parts.all, None, parts

    def __bool__(self) -> bool:
        # the support part (the end of the turn, mostly) first: the moves, the dearest part, seldom need building
        parts = self._parts
        return bool(parts.support() or parts.aid() or parts.blows() or parts.spells() or parts.moves().specs)

    def of(self, kind: str) -> list[ActionSpec]:
        parts = self._parts
        # the lists of one part are returned as they are kept: read-only, like every listing
        if kind in BLOW_KINDS:
            return parts.blows_of(kind)
        if kind == "cast":
            return parts.spells()
        if kind in MOVE_KINDS:
            return parts.moves().of(kind)
        if kind == "first_aid":
            return parts.aid()
        if kind == "end_turn":
            return parts.end()  # the one end of the turn, always listed last (offers.support_actions)
        if kind in SUPPORT_KINDS:
            return [s for s in parts.support() if s.action["type"] == kind]
        return []

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per ``key`` for this turn's movement listing (:meth:`.legal.Moves.derived`): ``build``
        may read only the listed moves and what ``key`` names."""
        return self._parts.moves().derived(key, build)

    def ends(self, kind: str) -> tuple[End, ...]:
        """The end squares of :meth:`of` ``kind`` (a movement kind), in the same order (see :data:`End`)."""
        return self._parts.moves().ends(kind) if kind in MOVE_KINDS else ()


def derived(choices: Choices, key: Hashable, build: Callable[[], T]) -> T:
    """:meth:`TurnChoices.derived` of any choices (a plain :class:`Choices` builds every time)."""
    return choices.derived(key, build) if isinstance(choices, TurnChoices) else build()


def move_ends(choices: Choices, kind: str) -> tuple[End, ...]:
    """:meth:`TurnChoices.ends` of any choices (a plain :class:`Choices` over a listing reads its specs)."""
    if isinstance(choices, TurnChoices):
        return choices.ends(kind)
    return tuple((*square(s.action, "to"), any(n.startswith("provokes") for n in s.notes))
                 for s in choices.of(kind))


#: What ``Ruleset.legal`` is: the whole listing, for the choices that are not a turn's.
Legal = Callable[[SpellchromeState, str, Memo | None], list[ActionSpec]]


def choices_for(state: SpellchromeState, actor: str, memo: Memo | None, legal: Legal) -> Choices:
    """``actor``'s choices now: :class:`TurnChoices` on its own turn (``Ruleset.pending`` is a turn or an aftermath
    window for it), else the base class over ``legal``'s listing (``Ruleset.legal``: an attack of opportunity, or
    nothing to do)."""
    turn = state.turn
    if state.outcome is None and state.opportunity is None and turn is not None and turn.actor == actor:
        return TurnChoices(actor, TurnListing(state, state.combatants[actor], turn, memo if memo is not None
                                              else Memo()))
    return Choices(actor, partial(legal, state, actor, memo))
