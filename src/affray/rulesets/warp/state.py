"""WaRP match state: plain slotted dataclasses, mutated in place by the apply part of ``step``.

Positions are metres along one line (ruling WR-X2, ``docs/warp.md``): every WaRP distance rule (the
range rows, the paces, melee reach) needs only the distance between two characters, and on a line all
the paces (multiples of 2.5 m) stay exact. The state holds no caches: what views and legal lists derive
from it is kept in the match's :class:`~affray.core.memo.Memo` (the one cache mechanism; no cache fields in rule state).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from affray.core.engine import Outcome
from affray.core.json import JsonObject
from affray.rulesets.warp.options import WarpOptions

UNARMED = "unarmed"


class SeriousWound(TypedDict):
    """A serious wound a fighter took (WR-34): ``mis_heal`` or ``fatal``, and a fatal one's HP lost a day."""

    kind: str
    daily_loss: int


@dataclass(slots=True)
class TraitRating:
    """One trait on a sheet: the library entry and this character's dice (WR-01, WR-09, WR-20, WR-31)."""

    id: str
    name: str
    dice: int
    combat: bool
    agility: bool
    fighting: bool
    uses: tuple[str, ...]
    weapons: tuple[str, ...] = ()  # the weapons it is good with; empty: any

    def fits(self, weapon: str | None) -> bool:
        """Whether this trait serves an attack or defense with ``weapon`` (``None``: not checked)."""
        return weapon is None or not self.weapons or weapon in self.weapons


@dataclass(slots=True)
class Flaw:
    """A flaw: a penalty die on the rolls it affects; ``dodge_dice`` caps dodging (clumsy)."""

    id: str
    name: str
    affects: tuple[str, ...]
    dodge_dice: int | None


@dataclass(slots=True)
class RangedProfile:
    factor: int
    row: str
    gunfire: bool
    thrown: bool
    temporary: bool
    per_distance: bool


@dataclass(slots=True)
class Arm:
    """A weapon a character carries (or bare hands): factors, range row, handiness (WR-12, WR-15, WR-31)."""

    id: str
    name: str
    handiness: int
    wound: str
    melee: int | None  # melee damage factor, if it can be used hand to hand
    ranged: RangedProfile | None


@dataclass(slots=True)
class Protection:
    """All armour worn, summed (WR-19, WR-21, WR-22): dice and flat points, bullet-proof dice, penalty dice."""

    names: tuple[str, ...] = ()
    dice: int = 0
    flat: int = 0
    bullet_dice: int = 0
    penalty_dice: int = 0


@dataclass(slots=True)
class Fighter:
    id: str
    name: str
    side: str
    pc: bool
    max_hp: int
    hp: int
    ceiling: int  # HP level after the last recovery (WR-27)
    traits: dict[str, TraitRating]
    flaws: list[Flaw]
    arms: dict[str, Arm]
    carried: dict[str, int]  # weapon id -> how many (thrown weapons are used up)
    wielding: str
    armour: Protection
    experience: int
    position: float
    cover: str = "none"
    cover_nearby: str = "none"
    unaware: bool = False
    protecting: bool = False
    high_ground: bool = False
    stun: int = 0  # temporary (taser) damage, back in full at recovery (WR-29)
    status: str = "fighting"  # fighting, down, dying, dead, escaped, beaten
    down_state: str = ""
    wound_class: str = ""
    messed: bool = False
    initiative: int = 0
    initiative_pool: int = 0
    initiative_experience: int = 0
    # per turn and round
    locks: dict[str, str] = field(default_factory=dict)  # non-combat trait -> "attack"/"defense" (WR-09, WR-B15)
    turn_started: bool = False
    turn_done: bool = False
    holding: bool = False
    waited: int = -1  # the slot in which a holder chose to keep waiting (WR-06)
    desperate: bool = False
    moved: bool = False  # moved during its latest turn (target moving, WR-14)
    psych_round: int = -1  # round in which a psychological advantage gives a bonus die (WR-31)
    last_attack: tuple[int, str, str] | None = None  # (round, target, maneuver) for WR-B11
    prone: bool = False
    held_by: str = ""
    # ganging up (WR-31, ruling WR-B17): the round the four fields below are about, whether the defender has named
    # the foes it defends against normally, those foes, its distinct melee attackers in order, and those who carry
    # the bonus die
    gang_round: int = 0
    gang_chosen: bool = False
    gang_normal: list[str] = field(default_factory=list)
    gang_attackers: list[str] = field(default_factory=list)
    gang_bonus: list[str] = field(default_factory=list)
    serious: list[SeriousWound] = field(default_factory=list)
    dealt: int = 0  # HP taken off foes (simulation reports)
    taken: int = 0

    @property
    def out(self) -> bool:
        return self.status != "fighting"


@dataclass(slots=True)
class ManeuverInfo:
    id: str
    name: str
    melee: bool
    ranged: bool
    predictable: bool
    special: str


@dataclass(slots=True)
class Attack:
    """An attack between its declaration and its resolution (WR-08, WR-14, WR-30, WR-31)."""

    attacker: str
    target: str
    weapon: str
    mode: str  # "melee" or "ranged"
    trait: str | None
    maneuver: str
    special: str
    experience: int
    attacker_moving: bool
    distance: float
    repeated: bool = False  # same maneuver, same target, consecutive rounds (WR-B11)
    move_dir: str = ""  # a missile attacker moving as it shoots: "toward" or "away" (WR-14)
    move_m: float = 0.0
    claim: str = ""
    stage: str = "ruling"
    gm_bonus: int = 0
    gm_penalty: int = 0
    gm_predictable: bool = False
    margin: int = 0
    cover: str = "none"
    darkness: str = "none"
    defense_trait: str | None = None
    dodge: bool = True
    defense_experience: int = 0


@dataclass(slots=True)
class Decision:
    """A choice the engine waits for: ``kind`` (the window's phase), who makes it, and about whom."""

    kind: str
    actor: str
    about: str = ""
    data: JsonObject = field(default_factory=dict)


@dataclass(slots=True)
class Gestalt:
    """Gestalt combat (WR-35): every combatant's one roll, summed per side; GM sides stay secret."""

    round: int = 1
    rolls: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    resolved: bool = False


@dataclass(slots=True)
class WarpState:
    mode: str
    options: WarpOptions
    fighters: dict[str, Fighter]
    maneuvers: dict[str, ManeuverInfo]
    darkness: str = "none"
    round: int = 0
    phase: str = "setup"
    order: list[str] = field(default_factory=list)
    turn_index: int = 0
    slot: int = 0  # advances with every accepted action but 'wait' (WR-06)
    attack: Attack | None = None
    decisions: list[Decision] = field(default_factory=list)
    gestalt: Gestalt | None = None
    ground: list[tuple[str, float]] = field(default_factory=list)  # dropped or thrown weapons
    #: The characters the GM ruling being applied has taken out or put nearer death, in order: its settle tells it
    #: and empties the list, so it is empty between records (:mod:`affray.rulesets.warp.leave`).
    leaving: list[str] = field(default_factory=list)
    outcome: Outcome | None = None

    def current(self) -> Fighter | None:
        """Whose turn it is (``None`` outside the turn phase)."""
        if self.phase != "turn" or self.turn_index >= len(self.order):
            return None
        return self.fighters[self.order[self.turn_index]]

    def foes(self, f: Fighter) -> list[Fighter]:
        return [g for g in self.fighters.values() if g.status == "fighting" and g.side != f.side]  # not g.out

    def holders(self) -> list[Fighter]:
        return [g for g in self.fighters.values() if g.holding and not g.out]


def holder_name(state: WarpState, fid: str) -> str:
    """How a hold names its holder: by name, or by id where another fighter has the same name."""
    name = state.fighters[fid].name
    return name if sum(g.name == name for g in state.fighters.values()) == 1 else fid


def holder(state: WarpState, text: str) -> str | None:
    """The fighter a hold's ``held by ...`` names: by id (as rulings recorded before holds were named) or by its
    unique name."""
    if text in state.fighters:
        return text
    found = [g.id for g in state.fighters.values() if g.name == text]
    return found[0] if len(found) == 1 else None
