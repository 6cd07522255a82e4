"""A WaRP actor's legal actions, answered from the state where that pays (issue 16, item 4).

:class:`WarpChoices` is the core :class:`~affray.core.policy.Choices` (every answer equals what
:func:`affray.rulesets.warp.legal` lists, in its order) with the one question the policies ask on almost every turn
answered without building the listing: :meth:`WarpChoices.attacks`, the attacks on offer as bare actions (no
labels, no specs). A turn's listing holds a dozen labelled specs; the policies only ever read its attacks unless no
foe is in reach.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import Action, ActionSpec, Window
from affray.core.policy import Choices
from affray.rulesets.warp.legal import attack_actions
from affray.rulesets.warp.state import WarpState

TURN_PHASES = ("turn", "held")


class WarpChoices(Choices):
    """``actor``'s choices now; ``window`` is the open window (worked out once per match version)."""

    __slots__ = ("_state", "_window")

    def __init__(self, actor: str, listing: Callable[[], list[ActionSpec]], state: WarpState,
                 window: Callable[[], Window | None]) -> None:
        super().__init__(actor, listing)
        self._state = state
        self._window = window

    def attacks(self) -> list[Action]:
        """The attacks on offer, as ``[s.action for s in self.of("attack")]`` gives them (WR-08..WR-17, WR-30)."""
        if self._all is not None:
            return [s.action for s in self._all if s.action["type"] == "attack"]
        window = self._window()
        state = self._state
        if window is None or self.actor not in window.actors or state.decisions or window.phase not in TURN_PHASES:
            return []
        return attack_actions(state, state.fighters[self.actor])
