"""What a WaRP policy sees: a typed, read-only observation that reads the state lazily (redacted like the seat's view).

:class:`WarpObservation` shows a seat exactly what its view (:mod:`affray.rulesets.warp.views`) shows and no more:
where people stand, what they wield, whether they look hurt (Messed Up, down, dead) for everyone; a character's
numbers (hit points, temporary damage, experience, traits, weapon factors) only where the view opens the sheet
(PCs, the characters the seat controls, or an omniscient seat). Built in O(1): nothing is read until a policy asks,
and :meth:`WarpObservation.view` builds the seat's whole typed view through the match's memo.

Every property returns an immutable value (ints, strings, tuples) or a :class:`SeenFighter`, a read-only wrapper:
a policy cannot change the state through what it observes (``tests/conformance``: read-only, and the leak test
walks every property).
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import Viewer, Window
from affray.core.memo import Memo
from affray.core.policy import SeenCombatant, StateObservation
from affray.rulesets.warp.mechanics import DEFAULT_DICE
from affray.rulesets.warp.state import UNARMED, Fighter, WarpState
from affray.rulesets.warp.view_types import WarpView


def _factor(f: Fighter, wid: str, mode: str) -> int:
    """A weapon's damage factor hand to hand or as a missile, 0 if it cannot be used so (WR-12)."""
    arm = f.arms[wid]
    if mode == "melee":
        return arm.melee or 0
    return arm.ranged.factor if arm.ranged is not None else 0


class SeenFighter(SeenCombatant[Fighter]):
    """One combatant as a seat sees it; the numbers are ``None`` where the sheet is closed to the seat."""

    __slots__ = ("_open",)

    def __init__(self, f: Fighter, open_sheet: bool) -> None:
        self._f = f
        self._open = open_sheet

    # -- what everyone sees (besides the id and side) ------------------------------------------------

    @property
    def pc(self) -> bool:
        return self._f.pc

    @property
    def status(self) -> str:
        """fighting, down, dying, dead, escaped or beaten (WR-25, WR-26)."""
        return self._f.status

    @property
    def messed_up(self) -> bool:
        """Looks Messed Up (WR-24)."""
        return self._f.messed

    @property
    def position(self) -> float:
        """Metres along the line (ruling WR-X2)."""
        return self._f.position

    @property
    def holding(self) -> bool:
        """Holds its action (WR-06)."""
        return self._f.holding

    @property
    def wielding(self) -> str:
        return self._f.wielding

    @property
    def wielded_melee(self) -> int:
        """The damage factor of the weapon in hand used hand to hand (WR-12)."""
        return _factor(self._f, self._f.wielding, "melee")

    def wielded_factor(self, mode: str) -> int:
        """The weapon in hand's factor used as ``mode`` (what everyone sees of it, WR-12)."""
        return _factor(self._f, self._f.wielding, mode)

    @property
    def wielded_missile(self) -> bool:
        """Whether the weapon in hand has a missile profile (a gun, a thrown weapon: WR-15)."""
        return self._f.arms[self._f.wielding].ranged is not None

    # -- the sheet, where the view opens it --------------------------------------------------------------
    @property
    def sheet_open(self) -> bool:
        """Whether this seat sees the character's numbers (a PC, or GM-level access to it)."""
        return self._open

    @property
    def hp(self) -> int | None:
        return self._f.hp if self._open else None

    @property
    def max_hp(self) -> int | None:
        return self._f.max_hp if self._open else None

    @property
    def stun(self) -> int | None:
        """Temporary (taser) damage (WR-29)."""
        return self._f.stun if self._open else None

    @property
    def experience(self) -> int | None:
        """Experience Pool dice left (WR-04)."""
        return self._f.experience if self._open else None

    @property
    def traits(self) -> tuple[tuple[str, int], ...]:
        """Each trait and its dice (WR-01); empty where the sheet is closed."""
        return tuple((t.id, t.dice) for t in self._f.traits.values()) if self._open else ()

    @property
    def weapons(self) -> tuple[tuple[str, int, int], ...]:
        """Each weapon carried now with its melee and missile factors (WR-12); empty where the sheet is closed."""
        if not self._open:
            return ()
        return tuple((w, _factor(self._f, w, "melee"), _factor(self._f, w, "ranged")) for w in self._carried())

    def _carried(self) -> list[str]:
        f = self._f
        return [w for w in f.arms if w == UNARMED or f.carried.get(w, 0) > 0]

    def trait_dice(self, tid: str | None) -> int | None:
        """The dice of trait ``tid`` (2 for none, WR-03); ``None`` where the sheet is closed."""
        if not self._open:
            return None
        trait = self._f.traits.get(tid) if tid else None
        return DEFAULT_DICE if trait is None else trait.dice

    def factor(self, wid: str, mode: str) -> int | None:
        """A carried weapon's factor used as ``mode``; ``None`` where the sheet is closed or it is not carried."""
        f = self._f
        if not self._open or wid not in f.arms or (wid != UNARMED and f.carried.get(wid, 0) <= 0):
            return None
        return _factor(f, wid, mode)


class WarpObservation(StateObservation[WarpState]):
    """What the policy playing ``actor`` sees from ``viewer``'s seat (see the module docstring)."""

    __slots__ = ("_build", "_seen", "_window")
    _memo: Memo  # the ruleset always passes the match's memo

    def __init__(
        self,
        state: WarpState,
        viewer: Viewer,
        actor: str,
        window: Callable[[], Window | None],
        build: Callable[[], WarpView],
        memo: Memo,
    ) -> None:
        super().__init__(state, viewer, actor, memo)
        self._window = window
        self._build = build
        self._seen: dict[str, SeenFighter] = {}

    @property
    def phase(self) -> str:
        """The phase of the window now open (``turn``, ``held``, ``defend``, ``initiative``...), ``""`` if none."""
        window = self._window()
        return window.phase if window is not None else ""

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def special_maneuvers(self) -> tuple[str, ...]:
        """The maneuvers with a special effect (WR-30), as the view lists them."""
        state = self._state
        return self._memo.static(
            "warp-specials", lambda: tuple(m.id for m in state.maneuvers.values() if m.special != "none")
        )

    @property
    def combatants(self) -> tuple[SeenFighter, ...]:
        return tuple(self.fighter(a) for a in self._state.fighters)

    @property
    def me(self) -> SeenFighter | None:
        """The actor itself (``None`` for the GM, who is no combatant)."""
        return self.fighter(self._actor) if self._actor in self._state.fighters else None

    def fighter(self, fid: str) -> SeenFighter:
        """Combatant ``fid`` as this seat sees it (``KeyError`` for nobody)."""
        seen = self._seen.get(fid)
        if seen is None:
            f = self._state.fighters[fid]
            seen = self._seen[fid] = SeenFighter(f, f.pc or self._viewer.may_see(fid))
        return seen

    def view(self) -> WarpView:
        """The seat's whole typed view (kept for the match's version in its memo)."""
        return self._build()
