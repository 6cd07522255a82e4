"""WitchHammer match state: plain slotted dataclasses, mutated in place by the apply part of ``step``.

Content arrives as plain data (the setup); cards and statuses are compiled once into :class:`CardDef` and
:class:`StatusDef`. Effect nodes stay the plain dicts of the setup, read by ``type``: :data:`Node` types them, one
``TypedDict`` per node type of the content schema (:mod:`.content_model`). Rules: WH-01..WH-06.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict

from affray.core.engine import Outcome, Window
from affray.core.grid import Grid, Pos
from affray.core.sealed import Sealed
from affray.rulesets.witchhammer.options import WitchHammerOptions


class MoveNode(TypedDict):
    """Mandatory movement toward or away from a reference (WH-07, WH-08)."""

    type: Literal["move"]
    distance: int
    direction: Literal["toward", "away"]
    reference: str


class AttackNode(TypedDict):
    """An attack roll against the card's target (WH-09..WH-18), and what a hit and a Solid Hit trigger."""

    type: Literal["attack"]
    attack: int
    aspects: list[str]
    range: str
    target: str
    poise_only: bool
    on_hit: list[Node]
    on_solid_hit: list[Node]


class DamageNode(TypedDict):
    """Damage without a roll (WH-B5; WH-A8 for Poise only)."""

    type: Literal["damage"]
    amount: int
    to: str
    poise_only: bool


class EffectNode(TypedDict):
    """A status started on ``to`` for ``rounds`` of its turns, or for the vignette (WH-24)."""

    type: Literal["effect"]
    status: str
    rounds: int | Literal["vignette"]
    to: str


class RecoverNode(TypedDict):
    """Poise regained, up to max (WH-B10)."""

    type: Literal["recover"]
    poise: int
    to: str


class SaveNode(TypedDict):
    """A saving throw of ``to`` against a difficulty (WH-27)."""

    type: Literal["save"]
    save: str
    difficulty: int | str
    to: str
    on_fail: list[Node]
    on_success: list[Node]


class CheckNode(TypedDict):
    """A skill check of the actor against a difficulty (WH-28)."""

    type: Literal["check"]
    skill: str
    difficulty: int | str
    on_success: list[Node]
    on_fail: list[Node]


#: One effect node below a card's line, as the content schema dumps it (JSON in the setup).
Node = MoveNode | AttackNode | DamageNode | EffectNode | RecoverNode | SaveNode | CheckNode
ARRIVING = "arriving"  # Fighter.out of a reinforcement until the next vignette (join.py)
OFF_THE_MAP = ("defeated", "removed")  # Fighter.out values that leave the map (WH-B9; a GM ruling)


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card: above the line (Init, Defense, aspect Defenses) and the nodes below it. Rule: WH-05."""

    id: str
    name: str
    kind: str  # "action" or "psych"
    init: int
    defense: int
    defenses: dict[str, int]
    below: tuple[Node, ...]
    one_shot: bool
    text: str


@dataclass(frozen=True, slots=True)
class StatusDef:
    """A status effect's definition. Rule: WH-24."""

    id: str
    name: str
    tick_wounds: int
    tick_damage: int
    tick_poise: int
    skip_turn: bool
    no_poise_recovery: bool
    attack: int
    defense: int
    init: int
    malus: int
    move: int
    defenses: dict[str, int]

    @property
    def ticks(self) -> bool:
        return bool(self.tick_wounds or self.tick_damage or self.tick_poise)


@dataclass(slots=True)
class Status:
    """A status on a character: ``rounds`` of the bearer's turns left, or -1 for the rest of the vignette."""

    status: StatusDef
    rounds: int
    source: str


@dataclass(slots=True)
class Fighter:
    id: str
    name: str
    side: str
    kind: str  # "pc" or "monster"
    order: int  # stable actor order (WH-B13)
    size: int
    max_poise: int
    poise: int
    max_health: int
    health: int
    attack: int
    defense: int
    init: int
    solid_damage: int
    move: int
    defenses: dict[str, int]
    skills: dict[str, int]
    malus_by_wounds: tuple[int, ...]
    pos: Pos
    facing: Pos
    deck: dict[str, int]  # card id -> copies owned, less one-shots spent (WH-04, WH-B19)
    # "", "down" (PC at <= 0 Health), "defeated" (monster, off the map), "fallen" (monster, lies where it fell), "dead"
    # (failed death's door), "removed" (taken out of the fight by a GM ruling, off the map), "arriving" (joined by a
    # GM ruling, in the fight from the next vignette: join.py)
    out: str = ""
    # per vignette
    hand: dict[str, int] = field(default_factory=dict)  # copies still free this vignette (WH-B18)
    psych: Sealed | None = None
    psych_card: str = ""  # the Psych card revealed this vignette
    slots: list[Sealed] = field(default_factory=list)
    ready: bool = False
    shown: int = 0  # action slots revealed so far this vignette
    # per round
    card: CardDef | None = None  # the revealed card in force this round (WH-05)
    # effects
    statuses: list[Status] = field(default_factory=list)
    mod_attack: int = 0
    mod_defense: int = 0
    mod_init: int = 0
    mod_malus: int = 0
    mod_move: int = 0
    mod_defenses: dict[str, int] = field(default_factory=dict)
    stunned: bool = False
    no_recovery: bool = False
    ticking: bool = False  # a status in force ticks at the start of its turns (bleeding, burning: WH-24)
    afflictions: list[str] = field(default_factory=list)
    fate: str = ""  # after combat: "", "stable", "dead"
    dealt: int = 0  # damage (Poise and Health) dealt to others, for simulation reports
    taken: int = 0

    @property
    def up(self) -> bool:
        """Able to act: not down, defeated or dead (WH-22)."""
        return not self.out

    def add_mods(self, sd: StatusDef) -> None:
        """:meth:`refresh_mods` after a status of ``sd`` was added at the end of :attr:`statuses`: its modifiers
        added to the sums (the same sums and flags, in the same order, without going over every status again)."""
        self.mod_attack += sd.attack
        self.mod_defense += sd.defense
        self.mod_init += sd.init
        self.mod_malus += sd.malus
        self.mod_move += sd.move
        if sd.defenses:
            aspects = dict(self.mod_defenses)  # a new table, as refresh_mods makes: views may hold the old one
            for k, v in sd.defenses.items():
                aspects[k] = aspects.get(k, 0) + v
            self.mod_defenses = aspects
        self.stunned = self.stunned or sd.skip_turn
        self.no_recovery = self.no_recovery or sd.no_poise_recovery
        self.ticking = self.ticking or sd.ticks

    def refresh_mods(self) -> None:
        """Recompute the sums of status modifiers after a status starts or ends (WH-21), and whether one ticks."""
        a = d = i = m = mv = 0
        aspects: dict[str, int] = {}
        stunned = blocked = ticking = False
        for s in self.statuses:
            sd = s.status
            a += sd.attack
            d += sd.defense
            i += sd.init
            m += sd.malus
            mv += sd.move
            stunned = stunned or sd.skip_turn
            blocked = blocked or sd.no_poise_recovery
            ticking = ticking or sd.ticks
            for k, v in sd.defenses.items():
                aspects[k] = aspects.get(k, 0) + v
        self.mod_attack, self.mod_defense, self.mod_init, self.mod_malus, self.mod_move = a, d, i, m, mv
        self.mod_defenses, self.stunned, self.no_recovery, self.ticking = aspects, stunned, blocked, ticking


@dataclass(slots=True)
class WitchHammerState:
    options: WitchHammerOptions
    grid: Grid
    cards: dict[str, CardDef]
    statuses: dict[str, StatusDef]
    fighters: dict[str, Fighter]
    vignette: int = 0
    round: int = 0  # rounds so far, two per vignette (WH-B11)
    phase: str = "setup"  # psych, planning, deaths_door, over
    window: Window | None = None
    order: list[str] = field(default_factory=list)  # this round's initiative order
    initiative: dict[str, int] = field(default_factory=dict)
    targets: dict[tuple[str, str], str] = field(default_factory=dict)  # (actor, selector) -> locked target
    pending_fates: list[str] = field(default_factory=list)  # PCs awaiting the GM (deaths_door_failure)
    outcome: Outcome | None = None
    # Counts the steps that change the board: the Violence phase, the Psych reveal and the aftermath (everything
    # but hands, face-down cards and readiness). Views and legal lists derived from the board stay good in the
    # match's memo while it is unchanged (see views.py); it is rule state, not a cache.
    board: int = 0
    winner: str | None = None
    end_reason: str = ""
    # Withdrawals per first seal name ("v3.bruna.slot2" -> 1): a card placed again in that slot gets a seal of its
    # own ("v3.bruna.slot2.r1"), so opening it never opens the withdrawn one (planning.withdraw, WH-03).
    withdrawn: dict[str, int] = field(default_factory=dict)

    def enemies(self, f: Fighter) -> list[Fighter]:
        return [g for g in self.fighters.values() if g.up and g.side != f.side]

    def occupied(self, mover: Fighter) -> frozenset[Pos]:
        """Squares a mover may not enter: everyone else still on the map (downed PCs and bodies too)."""
        squares = []
        for g in self.fighters.values():  # a plain loop, not a comprehension: every move that steps asks
            if g is not mover and g.out not in OFF_THE_MAP:
                squares.append(g.pos)
        return frozenset(squares)
