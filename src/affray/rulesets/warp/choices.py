"""A WaRP actor's legal actions, answered from the state where that pays (the choices a policy asks of: core/policy.py).

:class:`WarpChoices` is the core :class:`~affray.core.policy.Choices` (every answer equals what
:func:`affray.rulesets.warp.legal` lists, in its order) with the one question the policies ask on almost every turn
answered without building the listing: :meth:`WarpChoices.attacks`, the attacks on offer as bare actions (no
labels, no specs), kept in the memo's setup store by :func:`~affray.rulesets.warp.legal.attack_key`. A
turn's listing holds a dozen labelled specs; the policies only ever read its attacks unless no foe is in reach.
The answers are shared: read-only, like everything a memo keeps.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import Action, ActionSpec, Window
from affray.core.memo import Cache, Memo
from affray.core.policy import Choices
from affray.rulesets.warp.legal import attack_actions, attack_key, defense_actions
from affray.rulesets.warp.state import WarpState

TURN_PHASES = ("turn", "held")
KEPT_ATTACKS = 256  # attack lists kept per fighter in the setup's store (Memo.cache: shared or a live match's own)


class WarpChoices(Choices):
    """``actor``'s choices now; ``window`` is the open window (worked out once per match version)."""

    __slots__ = ("_memo", "_state", "_window")

    def __init__(
        self,
        actor: str,
        listing: Callable[[], list[ActionSpec]],
        state: WarpState,
        window: Callable[[], Window | None],
        memo: Memo | None,
    ) -> None:
        super().__init__(actor, listing)
        self._state = state
        self._window = window
        self._memo = memo

    def attacks(self) -> list[Action]:
        """The attacks on offer, as ``[s.action for s in self.of("attack")]`` gives them (WR-08..WR-17, WR-30)."""
        if self._all is not None:
            return [s.action for s in self._all if s.action["type"] == "attack"]
        window = self._window()
        state = self._state
        if window is None or self.actor not in window.actors or state.decisions or window.phase not in TURN_PHASES:
            return []
        f = state.fighters[self.actor]
        if self._memo is None:
            return attack_actions(state, f)
        # kept while nothing it depends on changes: in a melee exchange the same attacks come back turn after turn
        # The attacks depend on the setup, the options and attack_key alone, so they are kept in the setup's store,
        # which every match of a simulation chunk shares (the same exchanges of blows come back fight after fight);
        # bounded, since positions are open.
        kept: Cache[tuple[object, ...], list[Action]] = self._memo.cache(
            ("warp-attacks", f.id), KEPT_ATTACKS, KEPT_ATTACKS
        )
        key = attack_key(state, f)
        found = kept.get(key)
        return kept.keep(key, attack_actions(state, f)) if found is None else found

    def defenses(self) -> list[Action]:
        """The defenses on offer against the pending attack, as ``[s.action for s in self.of("defend")]`` gives
        them (WR-04, WR-08, WR-09, WR-14, WR-31)."""
        if self._all is not None:
            return [s.action for s in self._all if s.action["type"] == "defend"]
        window = self._window()
        state = self._state
        if window is None or self.actor not in window.actors or window.phase != "defend":
            return []
        return defense_actions(state)
