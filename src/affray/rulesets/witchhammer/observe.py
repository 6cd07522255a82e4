"""What a WitchHammer policy observes: typed, read-only, read from the state only when asked (redacted as views).

:class:`WitchHammerObservation` is built in O(1) per decision; each property reads the state when a policy asks for
it. It shows exactly what the seat's view (:mod:`affray.rulesets.witchhammer.views`) shows and no more, with the same
redaction (:func:`~affray.rulesets.witchhammer.views.sight`): everyone's public numbers, positions and statuses, how
many cards each combatant has face down (never which), and the hand and deck only of a combatant the seat may open
or see. Properties return ints, strings, tuples and read-only mappings, never the state's own objects.
Rules: WH-02, WH-03 (face-down cards), WH-05, WH-20 (the Malus), WH-21 (status modifiers).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from affray.core.engine import Viewer
from affray.core.memo import Memo
from affray.core.policy import SeenCombatant, StateObservation
from affray.rulesets.witchhammer.state import Fighter, WitchHammerState
from affray.rulesets.witchhammer.view_types import CardInfo, StatusInfo
from affray.rulesets.witchhammer.views import WitchHammerView, cards_shown, sight, status_table, view
from affray.rulesets.witchhammer.wounds import malus_of

Square = tuple[int, int]


class SeenFighter(SeenCombatant[Fighter]):
    """One combatant as a seat sees it (its view's :class:`~affray.core.view.CombatantView`, read live)."""

    __slots__ = ("_opened", "_sees", "_state")

    def __init__(self, state: WitchHammerState, f: Fighter, opened: bool, sees: bool) -> None:
        self._state, self._f, self._opened, self._sees = state, f, opened, sees

    @property
    def down(self) -> bool:
        """Out of the fight: down, defeated, fallen or dead (WH-22)."""
        return bool(self._f.out)

    @property
    def at(self) -> Square:
        """The square it stands on."""
        return self._f.pos

    @property
    def poise(self) -> int:
        return self._f.poise

    @property
    def max_poise(self) -> int:
        return self._f.max_poise

    @property
    def health(self) -> int:
        return self._f.health

    @property
    def attack(self) -> int:
        """The sheet's Attack bonus (WH-11)."""
        return self._f.attack

    @property
    def defense(self) -> int:
        """The sheet's normal Defense (WH-12)."""
        return self._f.defense

    @property
    def defenses(self) -> Mapping[str, int]:
        """The sheet's aspect Defenses (WH-13, WH-14)."""
        return MappingProxyType(self._f.defenses)

    @property
    def solid_damage(self) -> int:
        """Damage added on a Solid Hit (WH-B5)."""
        return self._f.solid_damage

    @property
    def malus(self) -> int:
        """The total Malus, Health loss and statuses (WH-20, WH-21)."""
        return malus_of(self._state, self._f)

    @property
    def mod_attack(self) -> int:
        """The status modifiers in force (WH-21): Attack, Defense, movement and the aspect Defenses."""
        return self._f.mod_attack

    @property
    def mod_defense(self) -> int:
        return self._f.mod_defense

    @property
    def mod_move(self) -> int:
        return self._f.mod_move

    @property
    def mod_defenses(self) -> Mapping[str, int]:
        return MappingProxyType(self._f.mod_defenses)

    @property
    def placed(self) -> int:
        """How many Action cards it has face down this vignette (everyone sees that a card went down)."""
        return len(self._f.slots)

    @property
    def psych_placed(self) -> bool:
        """Whether it has played a Psych card face down this vignette."""
        return self._f.psych is not None

    @property
    def hand(self) -> Mapping[str, int] | None:
        """Copies still free this vignette, card by card in deck order; only for the seat that plays it."""
        if not self._opened:
            return None
        return MappingProxyType({c: n for c, n in self._f.hand.items() if n > 0})

    @property
    def held(self) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
        """:attr:`hand` as two tuples: its deck's cards in deck order, and the copies of each still free this
        vignette (0 for a card played or spent). A policy keys what it remembers by it without building a mapping
        or a pair per card. Only for the seat that plays it."""
        if not self._opened:
            return None
        hand = self._f.hand
        return tuple(hand), tuple(hand.values())

    @property
    def attack_bonus(self) -> int:
        """What its blows add to a card's Attack before position: the sheet's Attack, the statuses' and the Malus
        (WH-11, WH-20, WH-21)."""
        f = self._f
        return f.attack + f.mod_attack + malus_of(self._state, f)

    @property
    def guard(self) -> tuple[int, int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], int]:
        """Everything an attack on it reads of its Defense, as one value: the sheet's normal Defense, the statuses'
        modifier, the sheet's aspect Defenses, the statuses' aspect modifiers and the Malus (WH-12..WH-14, WH-20,
        WH-21); the card in force is left out, face down until its round."""
        f = self._f
        return (
            f.defense,
            f.mod_defense,
            tuple(f.defenses.items()),
            tuple(f.mod_defenses.items()),
            malus_of(self._state, f),
        )

    @property
    def deck(self) -> Mapping[str, int] | None:
        """Its deck (WH-04); for the seat that plays it and GM-level viewers."""
        return MappingProxyType(self._f.deck) if self._sees else None


class _Seen:
    """A seat's windows on every combatant of one state, in actor order and by id. A window reads its combatant as
    it is now, and a match keeps its combatants for good, so they are made once per match and seat."""

    __slots__ = ("all", "by_id", "state", "statuses", "viewer")

    def __init__(self, state: WitchHammerState, viewer: Viewer, memo: Memo) -> None:
        self.state, self.viewer = state, viewer
        #: The setup's status table, read-only, the same object for the whole match (and every match of its store).
        self.statuses: Mapping[str, StatusInfo] = memo.static("wh.statuses.ro", _read_only_statuses, state, memo)
        marks = sight(state, viewer, memo)[0]
        self.all = tuple(
            [SeenFighter(state, f, m[0], m[1]) for f, m in zip(state.fighters.values(), marks, strict=True)]
        )
        self.by_id = dict(zip(state.fighters, self.all, strict=True))


class WitchHammerObservation(StateObservation[WitchHammerState]):
    """What ``actor``'s policy sees through ``viewer`` (see the module docstring)."""

    __slots__ = ("_seen",)
    _memo: Memo  # the ruleset always passes the match's memo

    def __init__(self, state: WitchHammerState, viewer: Viewer, actor: str, memo: Memo) -> None:
        # StateObservation's fields, set here rather than through super(): one is made for every decision
        self._state, self._viewer, self._actor, self._memo = state, viewer, actor, memo
        self._seen: _Seen | None = None

    def _fighters(self) -> _Seen:
        """The seat's windows on the combatants (:class:`_Seen`), from the match's memo."""
        seen = self._seen
        if seen is None:
            state, viewer = self._state, self._viewer
            # Kept until the memo resets (a rebuilt state); asked with another state, they are made again. Named by
            # the seat (a str hashes at once, a Viewer hashes and compares its fields), checked below.
            seen = self._memo.keyed(("wh.seen", viewer.seat), None, _Seen, state, viewer, self._memo)
            if seen.state is not state or (seen.viewer is not viewer and seen.viewer != viewer):
                seen = _Seen(state, viewer, self._memo)
            self._seen = seen
        return seen

    @property
    def phase(self) -> str:
        """``psych``, ``planning``, ``deaths_door`` or ``over`` (WH-01)."""
        return self._state.phase

    @property
    def vignette(self) -> int:
        return self._state.vignette

    @property
    def combatants(self) -> tuple[SeenFighter, ...]:
        """Every combatant in actor order, as this seat sees it."""
        return self._fighters().all

    @property
    def enemies(self) -> tuple[SeenFighter, ...]:
        """The combatants of other sides than the actor's that are not down, in actor order (what the view shows of
        every combatant: its side and whether it is down); none for the GM."""
        me = self._state.fighters.get(self._actor)
        if me is None:
            return ()
        side, out = me.side, []
        for s in (self._seen or self._fighters()).all:  # a plain loop, not a comprehension: every plan asks
            f = s._f
            if not f.out and f.side != side:
                out.append(s)
        return tuple(out)

    @property
    def me(self) -> SeenFighter | None:
        """The combatant the policy acts for (``None`` for the GM, who rules and calls time but fights no one)."""
        return (self._seen or self._fighters()).by_id.get(self._actor)

    @property
    def cards(self) -> Mapping[str, CardInfo]:
        """The cards this seat may read: those in force and those of every deck it sees (the view's cards)."""
        table = cards_shown(self._state, self._viewer, self._memo)
        # the table lives in the same static store for the whole match, so its id names it (no reuse)
        return self._memo.static(("wh.cards.ro", id(table)), MappingProxyType, table)

    @property
    def statuses(self) -> Mapping[str, StatusInfo]:
        """The setup's status table, the same object for every observation of the match (policies may key their
        digests by it)."""
        return (self._seen or self._fighters()).statuses

    def view(self) -> WitchHammerView:
        """The seat's whole typed view (through the match's memo)."""
        return view(self._state, self._viewer, self._state.window, self._memo)


def _read_only_statuses(state: WitchHammerState, memo: Memo) -> Mapping[str, StatusInfo]:
    return MappingProxyType(status_table(state, memo))
