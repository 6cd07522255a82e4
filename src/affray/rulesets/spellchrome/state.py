"""Spellchrome match state: plain slotted dataclasses, mutated in place by the apply part of ``step``.

A combatant's hit-point state is derived from its HP (SC-02..SC-05) plus flags: ``stable`` (a dying character that
stopped losing HP, SC-06), ``surrendered`` (an NPC that gave up, SC-02), ``knocked_out`` (SC-10) and ``out`` (taken out
of the fight by a GM ruling: no turns, no blows, off the board for occupancy and threats).

Whether a combatant can act (``Combatant.able``) is kept, not worked out at every read: the rules ask it about eight
times per decision, and a property's call was 5% of a simulated fight. Whoever changes HP, ``surrendered``,
``knocked_out``, ``out`` or the Constitution score calls ``Combatant.settle()``; the ruleset's ``invariants`` (run
after every step by the conformance suite and after every GM ruling) checks that it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

from affray.core.engine import Outcome
from affray.core.grid import Grid, Pos
from affray.rulesets.spellchrome.mechanics import HpState, hp_state
from affray.rulesets.spellchrome.options import SpellchromeOptions

MELEE_KINDS = frozenset({"melee", "natural"})  # SC-R3: what makes a combatant "melee-armed"
CLOSE_KINDS = frozenset({"melee", "natural", "unarmed"})  # attacks that add Str and need adjacency


class Surprise(TypedDict):
    """The aware side and its initiative bonus (SC-16), as the GM set it after Listen/Spot checks."""

    aware: str
    bonus: int


class Resume(TypedDict):
    """What an attack of opportunity interrupted, to carry on with afterwards (SC-27): a ``motion``, an
    ``attack`` (its target, weapon, and whether a full attack) or a ``cast`` (the spell and its target)."""

    kind: Literal["motion", "attack", "cast"]
    target: NotRequired[str]
    weapon: NotRequired[str]
    full: NotRequired[bool]
    spell: NotRequired[str]


@dataclass(slots=True)
class Arm:
    """A carried weapon (SC-B1). ``range_sq`` is the range increment in squares (0 for close weapons)."""

    id: str
    name: str
    kind: str
    damage: str
    attack_bonus: int
    range_sq: int
    blunt: bool


@dataclass(slots=True)
class SpellKnown:
    """A spell and the casts left this fight (ruling SC-R8)."""

    id: str
    name: str
    effect: str
    casting: str
    range_squares: int
    dice: str
    per_level: int
    max_level_bonus: int
    save: str
    dc: int
    half_on_save: bool
    healer_bonus: bool
    uses: int


@dataclass(slots=True)
class Combatant:
    id: str
    name: str
    side: str
    kind: str
    level: int
    abilities: dict[str, int]
    mods: dict[str, int]
    saves: tuple[int, int, int]
    max_hp: int
    hp: int
    ex_hp_max: int
    ex_hp: int
    ex_refill: int
    deflection: int
    damage_reduction: int
    defense_bonus: int
    base_attack: int
    speed_ft: int
    initiative_bonus: int
    arms: dict[str, Arm]
    wielding: str
    feats: frozenset[str]
    guards: frozenset[str]
    skills: dict[str, int]
    spells: dict[str, SpellKnown]
    fills_square: bool
    pos: Pos
    stable: bool = False
    surrendered: bool = False
    dropped_round: int = 0  # the round it began dying (SC-B3)
    aoo_left: int = 1  # SC-26: one attack of opportunity per round
    initiative: int = 0
    last_treated_hour: int | None = None  # SC-08: once per 24 h
    knocked_out: bool = False  # SC-10: unconscious with HP ≥ 1 after a knockout blow
    out: bool = False  # taken out of the fight by a GM ruling (docs/spellchrome.md, "GM rulings")
    dealt: int = 0  # HP and EX-HP taken off others (simulation reports)
    taken: int = 0
    #: Can act: HP ≥ 1 and still in the fight (SC-02, SC-03; not taken out by the GM). Kept by :meth:`settle` (see
    #: the module docstring); derived, so neither compared nor shown.
    able: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.settle()

    def able_now(self) -> bool:
        """Whether it can act, worked out from HP, the flags and the Constitution score (SC-02, SC-03, SC-05)."""
        return (
            self.hp >= 1
            and not (self.surrendered or self.knocked_out or self.out)
            and self.abilities["constitution"] > 0
        )

    def settle(self) -> None:
        """Bring :attr:`able` up to date: call it after changing HP, ``surrendered``, ``knocked_out``, ``out`` or
        the Constitution score."""
        self.able = self.able_now()

    @property
    def hp_state(self) -> HpState:
        return hp_state(self.hp, self.abilities["constitution"])

    @property
    def status(self) -> str:
        """normal, unconscious, dying, stable, dead, surrendered or out (taken out of the fight by the GM)."""
        state = hp_state(self.hp, self.abilities["constitution"])  # self.hp_state, without the property's call
        if self.out and state != "dead":
            return "out"
        if state == "dying" and self.stable:
            return "stable"
        if state == "normal" and self.knocked_out:
            return "unconscious"
        if state == "normal" and self.surrendered:
            return "surrendered"
        return state

    @property
    def weapon(self) -> Arm:
        return self.arms[self.wielding]

    @property
    def melee_armed(self) -> bool:
        """Wields a melee or natural weapon, so it threatens adjacent squares (SC-27, ruling SC-R3)."""
        return self.arms[self.wielding].kind in MELEE_KINDS and self.able  # the weapon, then able: a cheap test first


@dataclass(slots=True)
class Turn:
    """What the acting combatant has used this turn (SC-15, SC-21, SC-22)."""

    actor: str
    move_left: bool = True
    standard_left: bool = True
    move_used_for: str = ""  # "", "move" (moved), "step" (claimed by a 5-foot step), "still" (draw etc.)
    moved: bool = False
    stepped: bool = False
    offered: set[str] = field(default_factory=set)  # foes already offered an AoO for movement (SC-R9)


@dataclass(slots=True)
class Motion:
    """A move in progress, paused while foes decide on attacks of opportunity."""

    actor: str
    kind: str  # move, withdraw, run, step
    start: Pos
    path: list[Pos]
    index: int = 0
    reported: int = 0  # squares of ``walked`` already told in a Moved event
    walked: list[Pos] = field(default_factory=list)
    tumble: bool = False


@dataclass(slots=True)
class Opportunity:
    """An action stopped by a provocation (SC-27): ``foes`` decide in turn, then ``resume`` runs."""

    provoker: str
    trigger: str
    foes: list[str]
    resume: Resume | None = None


@dataclass(slots=True)
class SpellchromeState:
    options: SpellchromeOptions
    grid: Grid
    combatants: dict[str, Combatant]
    surprise: Surprise | None = None
    round: int = 0
    order: list[str] = field(default_factory=list)
    turn_index: int = 0
    turn: Turn | None = None
    motion: Motion | None = None
    opportunity: Opportunity | None = None
    outcome: Outcome | None = None
    decided: Outcome | None = None  # the fight's result while the dying bleed on after it (SC-04, SC-06)
    decided_round: int = 0  # the round of the last blow (the fight's length in reports)
    hour: int = 0  # out-of-combat clock for EX-HP refill and once-a-day rules (SC-07, SC-08)

    # plain loops rather than comprehensions (a comprehension is a call of its own in this Python): every decision asks

    def foes_of(self, c: Combatant) -> list[Combatant]:
        side, out = c.side, []
        for o in self.combatants.values():
            if o.side != side:
                out.append(o)
        return out

    def at(self, pos: Pos) -> list[Combatant]:
        out = []
        for o in self.combatants.values():
            if o.pos == pos:
                out.append(o)
        return out
