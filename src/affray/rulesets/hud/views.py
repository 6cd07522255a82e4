"""What a seat sees of a HuD match: the one envelope of :mod:`affray.core.view` and the HuD's typed parts.

The HuD hides nothing (declarations are public, WL-09), so every viewer gets the same facts; only ``controlled``
and ``you`` differ. Each combatant has one bar, ``HP`` (WL-04, WL-08), a ``place`` position (WL-B13: combatants
sharing a place are engaged) and a :class:`HudCombatantDetail`; the view's :class:`HudDetail` holds the open
exchange, pursuit or Dice Simplified duel and the rule options the rolls depend on.

The view's detail is built once per match version (``memo.now``) and each combatant again only when something
it shows has changed (``memo.keyed``); views are read-only. :class:`HudCombatantDetail` reads like a
:class:`~affray.rulesets.hud.state.Fighter` to the modifier functions of :mod:`affray.rulesets.hud.combat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from affray.core.engine import Viewer, Window
from affray.core.fields import maybe_text, text
from affray.core.json import Json
from affray.core.memo import Memo
from affray.core.view import Bar, CombatantView, Fact, PanelKind, Position, Status, View, controlled, envelope
from affray.rulesets.hud.freeform import REFERENCE
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.state import Fighter, HudState


@dataclass(slots=True)
class WeaponView:
    """A carried weapon or shield (content, WL-B2) and where it is now (``hand``, ``stowed`` or ``dropped`` at
    ``place``, WL-19)."""

    id: str
    name: str
    kind: str
    hands: int
    carry: str
    attack: int
    defense: int
    damage: int
    location: str
    place: int


@dataclass(slots=True)
class PlanItem:
    """One declared action of the round (WL-10): ``type`` and its target, weapon or text."""

    type: str
    target: str | None = None
    weapon: str | None = None
    text: str | None = None

    @classmethod
    def of(cls, item: Mapping[str, Json]) -> PlanItem:
        """A declared plan item (checked when declared, WL-10) as a view's item."""
        return cls(text(item, "type"), maybe_text(item, "target"), maybe_text(item, "weapon"), maybe_text(item, "text"))


@dataclass(slots=True)
class HudCombatantDetail:
    """A combatant's HuD part: stats, armour, weapons, this round's plan, defenses and penalties, and its place's
    range band (``engaged``, ``near`` or ``far``, WL-B13)."""

    place: int
    band: str
    out: str
    agility: int
    strength: int
    armour: str
    armour_penalty: int
    injury_mod: int
    actions: int
    initiative: int
    weapons: tuple[WeaponView, ...]
    plan: tuple[PlanItem, ...] | None
    defenses: int
    penalty: int
    penalty_next: int
    additional_used: int
    charged: bool
    closed: bool

    def in_hand(self) -> tuple[WeaponView, ...]:
        return tuple(w for w in self.weapons if w.location == "hand")

    def weapon(self, weapon_id: str) -> WeaponView:
        return next(w for w in self.weapons if w.id == weapon_id)


@dataclass(slots=True)
class ExchangeView:
    """An attack awaiting a decision (WL-11..WL-14): ``stage`` is ``defend``, ``follow`` or ``parry``."""

    attacker: str
    defender: str
    kind: str
    stage: str
    attack: int
    defense: int


@dataclass(slots=True)
class PursuitView:
    """A disengage in progress (WL-21, WL-22): who flees, who chose what, who is still to choose."""

    fleeing: str
    choices: dict[str, str]
    waiting: tuple[str, ...]


@dataclass(slots=True)
class DuelView:
    """A Dice Simplified exchange awaiting the defender's die (WL-06)."""

    attacker: str
    defender: str
    die: str
    total: int


@dataclass(slots=True)
class HudDetail:
    """The view's HuD part: the open exchange, pursuit or duel, the free round (WL-16), Free Form's reference
    text (WL-00) and the rule options the rolls depend on (so hints use the ruleset's own modifiers)."""

    #: The places, who shares one (engaged) and the pursuit (WL-B13, WL-21).
    PANELS: ClassVar[tuple[PanelKind, ...]] = ("places",)

    options: HudOptions
    exchange: ExchangeView | None = None
    pursuit: PursuitView | None = None
    duel: DuelView | None = None
    free_round: bool = False
    emergency: str | None = None
    reference: str | None = None
    posts: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)


HudView = View[HudDetail, HudCombatantDetail]
Seen = CombatantView[HudCombatantDetail]


def _weapons(f: Fighter) -> tuple[WeaponView, ...]:
    return tuple(
        WeaponView(a.id, a.name, a.kind, a.hands, a.carry, a.attack, a.defense, a.damage, a.location, a.place)
        for a in f.arms.values()
    )


#: How the view names a way of being out of the fight (``down`` and ``escaped`` as they are).
OUT_STATUS = {"out": "out of the fight"}


def _statuses(f: Fighter) -> tuple[Status, ...]:
    """Lasting conditions with their remaining rounds: out of the fight, the additional-action penalties (WL-17)."""
    out: list[Status] = []
    if f.out:
        out.append(Status(OUT_STATUS.get(f.out, f.out)))
    if f.penalty:
        out.append(Status(f"{f.penalty:+d} to every roll", 1))
    if f.penalty_next:
        out.append(Status(f"{f.penalty_next:+d} to every roll next round", 2))
    if f.charged:
        out.append(Status("charged", 1))
    return tuple(out)


def _plan(f: Fighter) -> tuple[PlanItem, ...] | None:
    if not f.declared:
        return None
    return tuple(PlanItem.of(i) for i in f.plan)


def _combatant_detail(
    f: Fighter, weapons: tuple[WeaponView, ...], plan: tuple[PlanItem, ...] | None
) -> HudCombatantDetail:
    return HudCombatantDetail(
        f.place,
        f.band,
        f.out,
        f.agility,
        f.strength,
        f.armour,
        f.armour_penalty,
        f.injury_mod,
        f.actions,
        f.initiative,
        weapons,
        plan,
        f.defenses,
        f.penalty,
        f.penalty_next,
        f.additional_used,
        f.charged,
        f.closed,
    )


def _seen(state: HudState, f: Fighter, viewer: Viewer, memo: Memo) -> Seen:
    """One combatant as ``viewer`` sees it. Its detail is shared by every viewer and rebuilt only when something
    it shows has changed (the plan changes only with the declaration and the round), its weapons only when one
    moves; the seat's own wrapper only adds ``controlled``."""
    arms = tuple((a.location, a.place) for a in f.arms.values())
    key = (
        state.round,
        f.hp,
        f.place,
        f.band,
        f.out,
        f.initiative,
        f.declared,
        f.defenses,
        f.penalty,
        f.penalty_next,
        f.additional_used,
        f.charged,
        f.closed,
        arms,
    )

    def parts() -> tuple[Position, tuple[Bar, ...], tuple[Status, ...], HudCombatantDetail, tuple[Fact, ...]]:
        weapons = memo.keyed(("hud-weapons", f.id), arms, lambda: _weapons(f))
        plan = memo.keyed(("hud-plan", f.id), (state.round, f.declared), lambda: _plan(f))
        detail = _combatant_detail(f, weapons, plan)
        return (
            Position("place", f.place),
            (Bar("HP", f.hp, f.max_hp),),
            _statuses(f),
            detail,
            sheet_rows(state, detail),
        )

    def seen(mine: bool) -> Seen:
        position, bars, statuses, detail, sheet = memo.keyed(("hud-parts", f.id), key, parts)
        # down: out of the fight by harm or taken out by the GM (an escape is not down)
        return CombatantView(
            f.id, f.name, f.side, mine, position, bars, statuses, f.out in ("down", "out"), False, detail, sheet
        )

    mine = controlled(viewer, f.id)
    return memo.keyed(("hud-combatant", f.id, mine), key, lambda: seen(mine))


def _weapon_words(w: WeaponView) -> str:
    """``spear (weapon, attack +1, defense +0, damage 1, two hands, in hand)`` (WL-B2, WL-19)."""
    where = {"hand": "in hand", "stowed": "stowed"}.get(w.location) or f"dropped at place {w.place}"
    hands = "one hand" if w.hands == 1 else f"{w.hands} hands" if w.hands > 1 else "no hands"
    return f"{w.name} ({w.kind}, attack {w.attack:+d}, defense {w.defense:+d}, damage {w.damage:+d}, {hands}, {where})"


def _plan_words(item: PlanItem, state: HudState, weapons: tuple[WeaponView, ...]) -> str:
    """A declared action as a person says it: ``attack the Night-Widow with the spear`` (WL-10)."""
    words = [item.type.replace("_", " ")]
    if item.target:
        target = state.fighters.get(item.target)
        words.append(target.name if target is not None else item.target.replace("_", " "))
    if item.weapon:
        weapon = next((w.name for w in weapons if w.id == item.weapon), item.weapon.replace("_", " "))
        words.append(f"with {weapon}")
    if item.text:
        words.append(f"({item.text})")
    return " ".join(words)


def sheet_rows(state: HudState, d: HudCombatantDetail) -> tuple[Fact, ...]:
    """The combatant's sheet in words (``CombatantView.sheet``; the HuD hides nothing, WL-09): stats, armour with
    its attack penalty and injury bonus, weapons and where they are (WL-19), the round's initiative, plan (WL-10),
    defenses and additional actions (WL-17)."""
    rows = [
        Fact("Agility", str(d.agility)),
        Fact("Strength", str(d.strength)),
        Fact("Armour", f"{d.armour} (attack {-d.armour_penalty:+d}, injury {d.injury_mod:+d})"),
        Fact("Actions", str(d.actions)),
    ]
    if d.initiative:  # a Chance roll (d11, WL-09): 0 before the first round's, and in the modes that roll none
        rows.append(Fact("Initiative", str(d.initiative)))
    if d.weapons:
        rows.append(Fact("Weapons", "; ".join(_weapon_words(w) for w in d.weapons)))
    if d.plan is not None:
        rows.append(Fact("Plan", "; ".join(_plan_words(i, state, d.weapons) for i in d.plan) or "nothing"))
    if d.defenses:
        rows.append(Fact("Defenses this round", str(d.defenses)))
    if d.additional_used:
        rows.append(Fact("Additional actions", str(d.additional_used)))
    if d.closed:
        rows.append(Fact("Free move", "used"))
    return tuple(rows)


def _detail(state: HudState) -> HudDetail:
    ex, p, d = state.exchange, state.pursuit, state.duel
    return HudDetail(
        state.options,
        None if ex is None else ExchangeView(ex.attacker, ex.defender, ex.kind, ex.stage, ex.attack, ex.defense),
        None if p is None else PursuitView(p.fleeing, dict(p.choices), tuple(p.waiting)),
        None if d is None else DuelView(d.attacker, d.defender, d.attacker_die, d.attacker_total),
        state.free_round,
        state.emergency_actor or None,
        REFERENCE if state.mode == "free_form" else None,
        state.posts,
    )


def view(state: HudState, viewer: Viewer, window: Window | None, memo: Memo | None = None) -> HudView:
    """The seat's view (see the module docstring). With ``memo=None`` everything is built fresh."""
    memo = Memo() if memo is None else memo
    detail = memo.now("hud-detail", lambda: _detail(state))
    seen = tuple(_seen(state, f, viewer, memo) for f in state.fighters.values())
    return envelope(
        "hud",
        mode=state.mode,
        round=state.round,
        phase=state.phase,
        order=state.order,
        window=window,
        outcome=state.outcome,
        viewer=viewer,
        combatants=seen,
        detail=detail,
    )
