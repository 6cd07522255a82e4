"""What a HuD policy sees: a typed, read-only observation read lazily from the state (redacted like the seat's view).

The HuD declares everything in the open (WL-09), so every seat's view shows the same facts: each combatant's
stats, HP bar, place and band (WL-B13), weapons and where they are (WL-19), this round's plan once declared, its
defenses and penalties (WL-17), and the open exchange, pursuit or Dice Simplified duel. :class:`HudObservation`
shows exactly those facts and nothing the view does not (no damage tallies, no trained-witcher tag, no dice to
come), built in O(1): each property reads the state when asked. Nothing it returns is a state object: a combatant
is a :class:`SeenFighter` (read-only properties over its :class:`~affray.rulesets.hud.state.Fighter`), weapons,
plans and the exchange are fresh copies (:mod:`affray.rulesets.hud.views` types). ``view()`` builds the seat's whole
typed view through the match's memo.

:class:`HudChoices` answers the policies' questions from the state where the listing is costly: the kinds of a
declaration window (``declare``, never an empty listing) and of the reaction windows, without building the usual
plans (:func:`~affray.rulesets.hud.plans.legal_plans`) or the specs.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import ActionSpec
from affray.core.policy import Choices, SeenCombatant, StateObservation
from affray.rulesets.hud import emergency, nerdified, pursuit
from affray.rulesets.hud.state import Arm, Fighter, HudState
from affray.rulesets.hud.views import DuelView, ExchangeView, HudView, PlanItem, PursuitView, WeaponView, view
from affray.rulesets.hud.windows import pending


class SeenFighter(SeenCombatant[Fighter]):
    """One combatant as every seat sees it (the view's :class:`~affray.rulesets.hud.views.HudCombatantDetail`
    and HP bar), read-only. Reads like a fighter to the modifier functions of :mod:`affray.rulesets.hud.combat`
    (``FighterLike``: ``in_hand()``, ``place``, ``armour_penalty``, ``injury_mod``, ``penalty``, ``charged``)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self._f.name

    @property
    def hp(self) -> int:
        """The HP bar's value (WL-04, WL-08)."""
        return self._f.hp

    @property
    def max_hp(self) -> int:
        return self._f.max_hp

    @property
    def out(self) -> str:
        """``""``, ``down`` or ``escaped``."""
        return self._f.out

    @property
    def place(self) -> int:
        return self._f.place

    @property
    def band(self) -> str:
        return self._f.band

    @property
    def agility(self) -> int:
        return self._f.agility

    @property
    def strength(self) -> int:
        return self._f.strength

    @property
    def armour(self) -> str:
        return self._f.armour

    @property
    def armour_penalty(self) -> int:
        return self._f.armour_penalty

    @property
    def injury_mod(self) -> int:
        return self._f.injury_mod

    @property
    def actions(self) -> int:
        return self._f.actions

    @property
    def initiative(self) -> int:
        return self._f.initiative

    @property
    def defenses(self) -> int:
        return self._f.defenses

    @property
    def penalty(self) -> int:
        return self._f.penalty

    @property
    def penalty_next(self) -> int:
        return self._f.penalty_next

    @property
    def additional_used(self) -> int:
        return self._f.additional_used

    @property
    def charged(self) -> bool:
        return self._f.charged

    @property
    def closed(self) -> bool:
        return self._f.closed

    @property
    def weapons(self) -> tuple[WeaponView, ...]:
        """Every carried weapon and where it is (copies)."""
        return tuple(_weapon(a) for a in self._f.arms.values())

    @property
    def plan(self) -> tuple[PlanItem, ...] | None:
        """This round's declared plan, ``None`` before the declaration (copies)."""
        f = self._f
        if not f.declared:
            return None
        return tuple(PlanItem.of(i) for i in f.plan)

    def in_hand(self) -> tuple[WeaponView, ...]:
        """The weapons in hand (copies), in carried order."""
        return tuple(_weapon(a) for a in self._f.arms.values() if a.location == "hand")

    def holds(self, kind: str) -> bool:
        """Whether a weapon of ``kind`` (``melee``, ``ranged``, ``shield``) is in hand."""
        return any(a.location == "hand" and a.kind == kind for a in self._f.arms.values())


def _weapon(a: Arm) -> WeaponView:
    return WeaponView(a.id, a.name, a.kind, a.hands, a.carry, a.attack, a.defense, a.damage, a.location, a.place)


class HudObservation(StateObservation[HudState]):
    """What the policy playing ``actor`` sees, read lazily (see the module docstring)."""

    __slots__ = ()

    @property
    def mode(self) -> str:
        return self._state.mode

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def prompt(self) -> str:
        """The phase of the decision now due (the view's ``prompt.phase``), ``""`` when none is."""
        window = pending(self._state)
        return "" if window is None else window.phase

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(self._state.order)

    @property
    def me(self) -> SeenFighter:
        return SeenFighter(self._state.fighters[self._actor])

    @property
    def combatants(self) -> tuple[SeenFighter, ...]:
        """Everyone, in the scenario's order."""
        return tuple(SeenFighter(f) for f in self._state.fighters.values())

    @property
    def foes(self) -> tuple[SeenFighter, ...]:
        """The actor's foes still in the fight, in the scenario's order."""
        side = self._state.fighters[self._actor].side
        return tuple([SeenFighter(f) for f in self._state.fighters.values() if not f.out and f.side != side])

    @property
    def free_round(self) -> bool:
        return self._state.free_round

    @property
    def exchange(self) -> ExchangeView | None:
        """The attack awaiting a decision (WL-11..WL-14), a copy."""
        ex = self._state.exchange
        return None if ex is None else ExchangeView(ex.attacker, ex.defender, ex.kind, ex.stage, ex.attack, ex.defense)

    @property
    def pursuit(self) -> PursuitView | None:
        p = self._state.pursuit
        return None if p is None else PursuitView(p.fleeing, dict(p.choices), tuple(p.waiting))

    @property
    def duel(self) -> DuelView | None:
        d = self._state.duel
        return None if d is None else DuelView(d.attacker, d.defender, d.attacker_die, d.attacker_total)

    def combatant(self, combatant_id: str) -> SeenFighter:
        return SeenFighter(self._state.fighters[combatant_id])

    def view(self) -> HudView:
        """The seat's whole typed view (built through the match's memo)."""
        return view(self._state, self._viewer, pending(self._state), self._memo)


class HudChoices(Choices):
    """``actor``'s legal actions, with :meth:`kinds` answered from the state in the Combat Nerdified windows
    (equal to the listing's kinds: ``tests/conformance`` checks it)."""

    __slots__ = ("_state",)

    def __init__(self, state: HudState, actor: str, listing: Callable[[], list[ActionSpec]]) -> None:
        super().__init__(actor, listing)
        self._state = state

    def kinds(self) -> frozenset[str]:
        window = pending(self._state)
        if window is None or self.actor not in window.actors:
            return frozenset()
        phase, state, actor = window.phase, self._state, self.actor
        if phase == "declare":  # the usual plans are never empty: all-defense always fits (WL-10)
            return DECLARE_KINDS
        if phase == "pursuit":
            return frozenset(pursuit.choices(state, actor))
        if phase == "emergency":
            return emergency.kinds(state, actor)
        if state.exchange is not None:
            return frozenset(nerdified.reaction_choices(state, actor))
        return super().kinds()


DECLARE_KINDS = frozenset({"declare"})
