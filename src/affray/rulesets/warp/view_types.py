"""The typed WaRP parts of a view (core/view.py): the combatant's detail with its sheet (traits, flaws, weapons,
armour, trait roles, serious wounds), the view's detail (light, reach, the pending attack and decision, the ground,
gestalt). Built by :mod:`affray.rulesets.warp.views`; read-only once built.

Rules: WR-01, WR-09, WR-12, WR-15, WR-19, WR-21, WR-22, WR-31 (the sheet's parts), WR-20 and WR-X12 (the table's
reading of agility rolls), WR-35 (gestalt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from affray.core.view import PanelKind, View


@dataclass(slots=True)
class TraitView:
    """A trait on a sheet (WR-01, WR-09, WR-20, WR-31)."""

    id: str
    name: str
    dice: int
    combat: bool
    agility: bool
    fighting: bool
    uses: tuple[str, ...]


@dataclass(slots=True)
class FlawView:
    name: str
    affects: tuple[str, ...]
    dodge_dice: int | None


@dataclass(slots=True)
class RangedView:
    factor: int
    row: str
    gunfire: bool
    thrown: bool
    temporary: bool


@dataclass(slots=True)
class WeaponView:
    """A weapon's profile: melee factor, missile profile, handiness (WR-12, WR-15, WR-31)."""

    id: str
    name: str
    handiness: int
    melee: int | None
    ranged: RangedView | None

    def factor(self, mode: str) -> int:
        """The damage factor used hand to hand (``melee``) or as a missile (WR-12)."""
        if mode == "melee":
            return self.melee or 0
        return self.ranged.factor if self.ranged is not None else 0


@dataclass(slots=True)
class ProtectionView:
    """All armour worn, summed (WR-19, WR-21, WR-22)."""

    dice: int
    flat: int
    bullet_dice: int
    penalty_dice: int


@dataclass(slots=True)
class TraitLock:
    """A non-combat trait's role this round (WR-09, WR-B15)."""

    trait: str
    role: str


@dataclass(slots=True)
class SeriousWoundView:
    kind: str
    daily_loss: int


@dataclass(slots=True)
class WarpSheet:
    """A character's numbers: open for PCs and for the seats that control it, else GM-level."""

    id: str
    hp: int
    max_hp: int
    stun: int
    ceiling: int
    experience: int
    traits: dict[str, TraitView]
    flaws: tuple[FlawView, ...]
    weapons: dict[str, WeaponView]  # the weapons carried now (bare hands always)
    counts: dict[str, int]  # how many of each (thrown weapons are used up)
    protection: ProtectionView
    locks: tuple[TraitLock, ...]
    cover_nearby: str
    serious_wounds: tuple[SeriousWoundView, ...]

    def trait(self, tid: str | None) -> TraitView | None:
        return self.traits.get(tid) if tid else None

    def weapon(self, wid: str) -> WeaponView:
        """A carried weapon's profile (``KeyError`` if not carried)."""
        return self.weapons[wid]


@dataclass(slots=True)
class WarpCombatantDetail:
    """What the envelope's combatant part does not hold: the weapon in hand, armour, cover, holds, the sheet."""

    pc: bool
    status: str
    down_state: str
    messed_up: bool
    wielding: str
    weapon: WeaponView
    armour: tuple[str, ...]
    cover: str
    moved: bool
    prone: bool
    held_by: str
    holding: bool
    desperate: bool
    initiative: int
    sheet: WarpSheet | None


@dataclass(slots=True)
class AttackView:
    attacker: str
    target: str
    weapon: str
    mode: str
    maneuver: str
    special: str
    distance: float
    claim: str


@dataclass(slots=True)
class DecisionView:
    kind: str
    actor: str
    about: str


@dataclass(slots=True)
class GroundItem:
    weapon: str
    position: float


@dataclass(slots=True)
class GestaltRoll:
    actor: str
    total: int


@dataclass(slots=True)
class SideTotal:
    side: str
    total: int


@dataclass(slots=True)
class GestaltView:
    round: int
    rolled: tuple[str, ...]
    rolls: tuple[GestaltRoll, ...]
    totals: tuple[SideTotal, ...]
    winner: str | None
    resolved: bool


@dataclass(slots=True)
class WarpDetail:
    """WaRP's part of a view: light, melee reach, the pending attack and decision, the ground, gestalt, and the
    table's reading of which rolls require agility (options ``agility_rolls``, ``untrained_agility``: WR-20,
    WR-X12), so that a client works out the dice of a roll with the ruleset's own rule."""

    #: The positions along one line, in metres.
    PANELS: ClassVar[tuple[PanelKind, ...]] = ("line",)

    darkness: str
    reach_m: float
    agility_rolls: str
    untrained_agility: bool
    attack: AttackView | None
    decision: DecisionView | None
    ground: tuple[GroundItem, ...]
    special_maneuvers: tuple[str, ...]
    gestalt: GestaltView | None


WarpView = View[WarpDetail, WarpCombatantDetail]
