"""The choices of a WitchHammer actor, answered from the state where that pays (core/policy.py, ``Choices``).

The listing (:func:`~affray.rulesets.witchhammer.planning.legal`) is every card and every ordered pair of cards in
hand; policies mostly ask whether one action is among them (``allows``) or which kinds there are, which the state
answers directly. Every answer equals what :class:`~affray.core.policy.Choices` would answer on the listing
(``tests/conformance`` checks it). Rules: WH-02, WH-03, WH-B8, WH-B18, WH-B20.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import GM, Action, ActionSpec
from affray.core.policy import Choices
from affray.rulesets.witchhammer.actions import SLOTS
from affray.rulesets.witchhammer.state import Fighter, WitchHammerState


class WitchHammerChoices(Choices):
    """``actor``'s legal actions in ``state`` (see the module docstring)."""

    __slots__ = ("_state",)

    def __init__(self, state: WitchHammerState, actor: str, listing: Callable[[], list[ActionSpec]]) -> None:
        # Choices' fields, set here rather than through super(): one is made for every decision
        self.actor, self._listing, self._all, self._state = actor, listing, None, state

    def _fighter(self) -> Fighter | None:
        """The actor when it is a combatant in the open Psych or Planning window, else ``None``."""
        window = self._state.window
        if window is None or self.actor not in window.actors or window.phase == "deaths_door" or self.actor == GM:
            return None
        return self._state.fighters[self.actor]

    def _room_and_hand(self, f: Fighter) -> tuple[bool, int, dict[str, int]]:
        """The open phase (Psych or not), the slots left and the cards of the phase's kind in hand (WH-02, WH-03)."""
        state = self._state
        psych = state.phase == "psych"
        room = (0 if f.psych is not None else 1) if psych else SLOTS - len(f.slots)
        want = "psych" if psych else "action"
        cards = state.cards
        return psych, room, {c: n for c, n in f.hand.items() if n > 0 and cards[c].kind == want}

    def kinds(self) -> frozenset[str]:
        f = self._fighter()
        if f is None:
            return super().kinds()
        psych, room, hand = self._room_and_hand(f)
        if room == 0 or not hand:
            return frozenset(("ready",))
        return frozenset(("ready", "psych" if psych else "place", "commit"))

    def allows(self, action: Action) -> bool:
        f = self._fighter()
        if f is None:
            return super().allows(action)
        kind = action.get("type")
        if kind == "ready":
            return len(action) == 1
        psych, room, hand = self._room_and_hand(f)
        if room == 0 or len(action) != 2:
            return False
        if kind == ("psych" if psych else "place"):
            return _held(action.get("card"), hand)
        cards = action.get("cards")
        if kind != "commit" or not isinstance(cards, list) or not 1 <= len(cards) <= min(room, 2):
            return False
        if not all(_held(c, hand) for c in cards):
            return False
        first = cards[0]
        return len(cards) == 1 or first != cards[1] or (isinstance(first, str) and hand[first] >= 2)


def _held(card: object, hand: dict[str, int]) -> bool:
    return isinstance(card, str) and card in hand
