"""What a Spellchrome policy sees: a typed, read-only observation read lazily from the state (redacted as views).

Nothing is hidden on the battle map (``views.py``): HP, EX-HP, positions, weapons, spells and the attacks of
opportunity left are public at the table, so every seat observes the same facts and only ``controlled`` differs.
:class:`SpellchromeObservation` is built in O(1) per decision; each property reads the state when asked and returns
plain values (ints, strings, tuples) or a :class:`FighterSeen`, a read-only window on one combatant. ``view()`` is
the seat's whole typed view (through the match's memo), the same one :meth:`SpellchromeRuleset.view` gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol

from affray.core.engine import Viewer
from affray.core.memo import Memo
from affray.core.policy import StateObservation
from affray.core.view import controlled
from affray.rulesets.spellchrome.health import after_the_fight
from affray.rulesets.spellchrome.state import MELEE_KINDS, Combatant, SpellchromeState
from affray.rulesets.spellchrome.views import SpellchromeView


class WholeView(Protocol):
    """What makes a seat's whole typed view: the ruleset (its ``view(state, viewer, memo)``), handed over as it is, so
    that no bound method is made for every decision."""

    def view(self, state: SpellchromeState, viewer: Viewer, memo: Memo | None = None) -> SpellchromeView: ...


Square = tuple[int, int]


class FighterSeen:
    """One combatant as the table sees it (SC-01 HP, SC-02..SC-06 statuses, SC-17 squares, SC-27 melee-armed)."""

    __slots__ = ("_c", "_controlled", "_id", "_kind", "_side")

    def __init__(self, c: Combatant, is_controlled: bool) -> None:
        self._c = c
        self._controlled = is_controlled
        self._id, self._side, self._kind = c.id, c.side, c.kind  # fixed for the fight, read at every decision

    @property
    def id(self) -> str:
        return self._id

    @property
    def name(self) -> str:
        return self._c.name

    @property
    def side(self) -> str:
        return self._side

    @property
    def kind(self) -> str:
        """character, npc or monster."""
        return self._kind

    @property
    def controlled(self) -> bool:
        """The observing seat plays this combatant."""
        return self._controlled

    @property
    def status(self) -> str:
        """normal, unconscious, dying, stable, surrendered or dead (SC-02..SC-06)."""
        return self._c.status

    @property
    def able(self) -> bool:
        """Can act: HP of 1 or more and still in the fight (SC-02, SC-03)."""
        return self._c.able

    @property
    def hp(self) -> int:
        return self._c.hp

    @property
    def max_hp(self) -> int:
        return self._c.max_hp

    @property
    def ex_hp(self) -> int:
        return self._c.ex_hp

    @property
    def at(self) -> Square:
        """The square it stands on."""
        return self._c.pos

    @property
    def aoo_left(self) -> int:
        """Attacks of opportunity left this round (SC-26)."""
        return self._c.aoo_left

    @property
    def wielding(self) -> str:
        return self._c.wielding

    @property
    def weapon_kind(self) -> str:
        """The kind of the weapon in hand: melee, natural, unarmed or ranged."""
        c = self._c
        return c.arms[c.wielding].kind

    @property
    def weapon_range(self) -> int:
        """The range increment of the weapon in hand, in squares (0 for close weapons)."""
        c = self._c
        return c.arms[c.wielding].range_sq

    @property
    def melee_armed(self) -> bool:
        """Able and wielding a melee or natural weapon: it threatens the squares around it (SC-27, ruling SC-R3)."""
        c = self._c
        return c.able and c.arms[c.wielding].kind in MELEE_KINDS

    @property
    def spells(self) -> tuple[tuple[str, str, int], ...]:
        """``(id, effect, uses left)`` of each spell it knows (ruling SC-R8)."""
        return tuple((s, k.effect, k.uses) for s, k in self._c.spells.items())

    @property
    def has_spells(self) -> bool:
        """It knows a spell (whether or not it has casts left)."""
        return bool(self._c.spells)

    def spell_effect(self, sid: str) -> str:
        """The effect of its spell ``sid`` (heal, steal_life...)."""
        return self._c.spells[sid].effect


class _Seen:
    """A seat's windows on every combatant of one state, in order and by id, and (:meth:`foes_of`) those of another
    side than a combatant's."""

    __slots__ = ("all", "by_id", "foes", "state", "viewer")

    def __init__(self, state: SpellchromeState, viewer: Viewer) -> None:
        self.state, self.viewer = state, viewer
        combatants = state.combatants
        made = [FighterSeen(c, controlled(viewer, a)) for a, c in combatants.items()]
        self.all = tuple(made)
        self.by_id: Mapping[str, FighterSeen] = MappingProxyType(dict(zip(combatants, made, strict=True)))
        # Per combatant, those of other sides, made when first asked: a seat mostly observes for one combatant, and
        # a simulation makes these windows for every seat of every fight (all of them at once took 3/4 of the time).
        self.foes: dict[str, tuple[FighterSeen, ...]] = {}

    def foes_of(self, actor: str) -> tuple[FighterSeen, ...]:
        """The windows on those of another side than ``actor``'s, in order (sides do not change in a fight); read
        off the state, not through the windows' properties."""
        found = self.foes.get(actor)
        if found is None:
            side = self.state.combatants[actor].side
            found = self.foes[actor] = tuple(
                [f for f, c in zip(self.all, self.state.combatants.values(), strict=True) if c.side != side]
            )
        return found


class SpellchromeObservation(StateObservation[SpellchromeState]):
    """What ``actor``'s seat sees now (see the module docstring)."""

    __slots__ = ("_seen", "_whole")
    _memo: Memo  # always a memo here (a fresh one when the caller has none)

    def __init__(
        self, state: SpellchromeState, viewer: Viewer, actor: str, memo: Memo | None, whole: WholeView
    ) -> None:
        # StateObservation's fields, set here rather than through super(): one is made for every decision
        self._state, self._viewer, self._actor = state, viewer, actor
        self._memo = memo if memo is not None else Memo()
        self._whole = whole
        self._seen: _Seen | None = None

    @property
    def phase(self) -> str:
        """attack_of_opportunity, aftermath (SC-04), turn, or over: the pending window's phase."""
        state = self._state
        if state.outcome is not None:
            return "over"
        if state.opportunity is not None:
            return "attack_of_opportunity"
        if state.turn is None:
            return "setup"
        return "aftermath" if state.decided is not None else "turn"

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def standard_left(self) -> bool:
        """The acting combatant still has its standard action this turn (SC-15); False with no turn under way."""
        turn = self._state.turn
        return turn is not None and turn.standard_left

    @property
    def move_left(self) -> bool:
        """The acting combatant still has its move action this turn (SC-15); False with no turn under way."""
        turn = self._state.turn
        return turn is not None and turn.move_left

    @property
    def after_the_fight(self) -> bool:
        """The fight is decided while the dying bleed on: no more blows (SC-04)."""
        return after_the_fight(self._state)

    @property
    def monsters_finish_the_dying(self) -> bool:
        """The match option of ruling SC-R7."""
        return self._state.options.monsters_finish_the_dying

    def _fighters(self) -> _Seen:
        """The windows on the combatants, made once per match and seat: a window reads its combatant as it is now,
        and a match keeps its combatants for good (a rebuilt state resets the memo)."""
        if self._seen is None:
            state, viewer = self._state, self._viewer
            # Kept until the memo resets (a rebuilt state); asked with another state, they are made again.
            # Named by the seat (a str hashes at once, a Viewer hashes and compares its fields), checked below.
            seen = self._memo.keyed(("spellchrome.seen", viewer.seat), None, _Seen, state, viewer)
            if seen.state is not state or (seen.viewer is not viewer and seen.viewer != viewer):
                seen = _Seen(state, viewer)
            self._seen = seen
        return self._seen

    # The properties below read the windows made at the first of them (self._seen) without a call: every decision
    # asks several.

    @property
    def fighters(self) -> tuple[FighterSeen, ...]:
        """Every combatant, in the match's order of sides."""
        return (self._seen or self._fighters()).all

    @property
    def by_id(self) -> Mapping[str, FighterSeen]:
        """Every combatant by id (read-only)."""
        return (self._seen or self._fighters()).by_id

    @property
    def foes(self) -> tuple[FighterSeen, ...]:
        """Every combatant of another side than the actor's, in the match's order, whether able or not."""
        seen = self._seen or self._fighters()
        try:
            return seen.foes[self._actor]  # made at the seat's first decision for this actor
        except KeyError:
            return seen.foes_of(self._actor)

    @property
    def me(self) -> FighterSeen:
        """The combatant the policy acts for."""
        return (self._seen or self._fighters()).by_id[self._actor]

    def view(self) -> SpellchromeView:
        """The seat's whole typed view (built once per version through the match's memo)."""
        return self._whole.view(self._state, self._viewer, self._memo)
