"""Schemas of WitchHammer content (schools, cards, passives, traits, statuses, characters, monsters) and scenarios.

Cards carry an above-the-line part (Init, Defense, aspect Defenses: WH-05) and a below-the-line list of
typed effect nodes picked by ``type`` (DESIGN.md contract 7): ``move``, ``attack``, ``damage``, ``effect``,
``save``, ``check`` and ``recover``. Rules: WH-02..WH-05, WH-07..WH-18, WH-24, WH-27, WH-28, WH-33, WH-34,
WH-B17 (the default base stat line of a PC), WH-B18 (copies), WH-B22 (no bought Ranged/Fire/Ice Defense).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from affray.core.hidden import HIDDEN_HELP
from affray.core.scenario import CombatantBase, ScenarioBase, Side, Strict

Aspect = Literal["melee", "ranged", "fire", "ice", "poison", "con", "agility", "fear", "will", "gas", "breath"]
DefenseKind = Literal["ranged", "fire", "ice", "poison", "con", "agility", "fear", "will"]
SaveKind = Literal["con", "agility", "fear", "will", "fire", "ice"]
Skill = Literal["charm", "intimidation", "tracking", "perception", "stealth", "spirit_lore", "history"]
Range = Literal["close", "short", "medium", "long"]
Selector = Literal["nearest_enemy", "farthest_enemy", "largest_enemy", "weakest_enemy", "nearest_ally"]
Recipient = Literal[
    "self",
    "target",
    "nearest_enemy",
    "farthest_enemy",
    "largest_enemy",
    "weakest_enemy",
    "nearest_ally",
    "each_enemy",
    "each_ally",
    "each_adjacent_enemy",
]
Difficulty = int | Literal["picnic", "easy", "medium", "hard", "extremely_hard"]
SIZES = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "huge": 4, "gargantuan": 5}
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]


class Move(Strict):
    """Mandatory movement toward or away from a reference. Rules: WH-07, WH-08."""

    type: Literal["move"]
    distance: int = Field(ge=1, le=20)
    direction: Literal["toward", "away"] = "toward"
    reference: Selector = "nearest_enemy"


class Damage(Strict):
    """Damage without a roll. Inside an attack's ``on_hit``/``on_solid_hit`` it adds to that attack's damage
    before penetration (WH-B5); elsewhere it is dealt directly to ``to``."""

    type: Literal["damage"]
    amount: int = Field(ge=1, le=60)
    to: Recipient = "target"
    poise_only: bool = Field(default=False, description="only Poise is hurt: no penetration, no overflow (WH-A8)")


class Effect(Strict):
    """Start a status on ``to`` for ``rounds`` of its turns, or for the rest of the vignette. Rule: WH-24."""

    type: Literal["effect"]
    status: str
    rounds: int | Literal["vignette"] = 1
    to: Recipient = "target"


class Recover(Strict):
    """Regain Poise, up to max (catch your breath). Rule: WH-B10."""

    type: Literal["recover"]
    poise: int = Field(ge=1, le=60)
    to: Recipient = "self"


class Save(Strict):
    """``to`` saves: d20 + the matching Defense - Malus >= difficulty. Rule: WH-27."""

    type: Literal["save"]
    save: SaveKind
    difficulty: Difficulty = "medium"
    to: Recipient = "target"
    on_fail: list[Node] = Field(default_factory=list)
    on_success: list[Node] = Field(default_factory=list)


class Check(Strict):
    """The actor makes a skill check: d20 + skill >= difficulty (default Medium). Rule: WH-28."""

    type: Literal["check"]
    skill: Skill
    difficulty: Difficulty = "medium"
    on_success: list[Node] = Field(default_factory=list)
    on_fail: list[Node] = Field(default_factory=list)


class Attack(Strict):
    """An attack roll against the card's target. Rules: WH-09..WH-18."""

    type: Literal["attack"]
    attack: int = Field(ge=-20, le=30, description="the card's Attack (WH-11)")
    aspects: list[Aspect] = Field(default_factory=lambda: list[Aspect](["melee"]))
    range: Range = "close"
    target: Literal["nearest_enemy", "farthest_enemy", "largest_enemy", "weakest_enemy", "each_enemy"] = "nearest_enemy"
    poise_only: bool = False
    on_hit: list[Node] = Field(default_factory=list)
    on_solid_hit: list[Node] = Field(default_factory=list)

    @model_validator(mode="after")
    def _no_nested_attacks(self) -> Attack:
        for node in (*self.on_hit, *self.on_solid_hit):
            if isinstance(node, Attack | Move):
                raise ValueError("on_hit/on_solid_hit hold damage, effect, save, check or recover nodes")
        return self


Node = Annotated[Move | Attack | Damage | Effect | Recover | Save | Check, Field(discriminator="type")]
Save.model_rebuild()
Check.model_rebuild()
Attack.model_rebuild()


class Modifiers(Strict):
    """Stat changes from a passive, a trait or a status. Rules: WH-11, WH-12, WH-21, WH-34."""

    attack: int = 0
    defense: int = 0
    init: int = 0
    poise: int = 0
    health: int = 0
    solid_damage: int = 0
    malus: int = Field(default=0, le=0, description="an extra Malus (WH-21); 0 or negative")
    move: int = Field(default=0, description="added to every move distance (armour, a broken leg)")
    defenses: dict[DefenseKind, int] = Field(default_factory=dict)
    skills: dict[Skill, int] = Field(default_factory=dict)


class School(Strict):
    name: str
    levels: int = Field(default=1, ge=1, le=5)
    incompatible: list[str] = Field(default_factory=list, description="schools a PC may not also know (WH-33)")
    description: str = ""


class Card(Strict):
    """An Action or Psych card. Rules: WH-02, WH-03, WH-05."""

    name: str
    kind: Literal["action", "psych"] = "action"
    school: str | None = Field(default=None, description="None for a monster's own card")
    level: int = Field(default=1, ge=1, le=5)
    one_shot: bool = False
    copies: int = Field(default=1, ge=1, le=4, description="identical copies in a deck (WH-B18)")
    init: int = Field(default=0, ge=-20, le=20)
    defense: int = Field(default=0, ge=-20, le=20)
    defenses: dict[DefenseKind, int] = Field(default_factory=dict, description="above-the-line aspect Defenses")
    below: list[Node] = Field(default_factory=list, description="resolved in order on the card's turn")
    text: str = ""

    @model_validator(mode="after")
    def _psych_has_no_line(self) -> Card:
        if self.kind == "psych" and (self.init or self.defense or self.defenses):
            raise ValueError("a Psych card has no Init or Defense line; give it effect nodes in 'below'")
        if self.kind == "psych" and any(isinstance(n, Attack | Move) for n in self.below):
            raise ValueError("a Psych card cannot move or attack")
        return self


class Passive(Strict):
    """A learned passive technique. Rule: WH-34."""

    name: str
    school: str
    level: int = Field(default=1, ge=1, le=5)
    modifiers: Modifiers
    text: str = ""


class Trait(Strict):
    """Chrome for PCs (skill bonuses) or a monster template modifier (Size Small, Sickly...)."""

    name: str
    modifiers: Modifiers = Field(default_factory=Modifiers)
    text: str = ""


class Tick(Strict):
    """What a status does at the start of each of the bearer's turns. Rule: WH-24."""

    wounds: int = Field(default=0, ge=0, le=20)
    damage: int = Field(default=0, ge=0, le=40)
    poise: int = Field(default=0, ge=-40, le=40, description="Poise change (negative drains)")


class Status(Strict):
    """A status effect: a tick, a skipped turn, stat modifiers, or a block on Poise recovery."""

    name: str
    tick: Tick = Field(default_factory=Tick)
    skip_turn: bool = False
    no_poise_recovery: bool = False
    modifiers: Modifiers = Field(default_factory=Modifiers)
    text: str = ""


class Sheet(Strict):
    """Combat statistics shared by PCs and monsters. Defaults are WH-B17's base line for a new PC."""

    name: str
    poise: int = Field(default=20, ge=1, le=200)
    health: int = Field(default=12, ge=1, le=400)
    attack: int = Field(default=0, ge=-20, le=20)
    defense: int = Field(default=0, ge=-20, le=20)
    init: int = Field(default=0, ge=-20, le=20)
    solid_damage: int = Field(default=0, ge=0, le=20, description="Damage on Solid Hit (WH-32, WH-B5)")
    defenses: dict[DefenseKind, int] = Field(default_factory=dict)
    skills: dict[Skill, int] = Field(default_factory=dict)
    size: Size = "medium"
    traits: list[str] = Field(default_factory=list)
    armour: str | None = Field(default=None, description="an armour id (WH-36)")
    description: str = ""


class Character(Sheet):
    """A PC. ``techniques`` are learned cards and passives (WH-34); the General school is known (WH-33), but its
    techniques are learned like any other's (their cards are the deck under the default ``general_school_deck``,
    WH-A5). ``rewards`` and ``traded_school_points`` say what paid for schools and techniques beyond creation's
    (WH-31, WH-33, WH-35); the content tests check that every character's points cover what it knows."""

    schools: dict[str, int] = Field(default_factory=dict, description="school id -> level known")
    techniques: list[str] = Field(default_factory=list, description="learned cards and passives (WH-34)")
    rewards: list[Literal["hunt", "defeat", "witch"]] = Field(
        default_factory=list, description="adventure rewards earned so far (WH-35)"
    )
    traded_school_points: int = Field(
        default=0, ge=0, le=40, description="School points traded for 5 Technique points each (WH-33)"
    )
    hat: str = ""


class Monster(Sheet):
    """A monster with its own action deck (cards and Psych cards by id). Rule: WH-03."""

    poise: int = Field(default=15, ge=0, le=400)
    health: int = Field(default=10, ge=1, le=400)
    deck: list[str] = Field(min_length=1)
    weaknesses: list[str] = Field(default_factory=list)
    tier: Literal["farmer", "beast", "horror", "witch"] = "beast"


class WitchHammerContent(Strict):
    """One WitchHammer content file: any of the sections."""

    ruleset: Literal["witchhammer"]
    schools: dict[str, School] = Field(default_factory=dict)
    cards: dict[str, Card] = Field(default_factory=dict)
    passives: dict[str, Passive] = Field(default_factory=dict)
    traits: dict[str, Trait] = Field(default_factory=dict)
    armour: dict[str, Trait] = Field(default_factory=dict, description="armour sets: Defense at a cost (WH-36)")
    statuses: dict[str, Status] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)
    monsters: dict[str, Monster] = Field(default_factory=dict)


Facing = Literal["n", "ne", "e", "se", "s", "sw", "w", "nw"]


class WitchHammerCombatant(CombatantBase):
    hidden: bool = Field(default=False, description=HIDDEN_HELP)
    at: tuple[int, int] = Field(description="(column, row) from the top left of the map")
    facing: Facing | None = Field(default=None, description="default: toward the nearest enemy (WH-B14)")
    poise: int | None = Field(default=None, ge=0, description="starting Poise, if not max")
    health: int | None = Field(default=None, description="starting Health, if not max")
    deck: list[str] | None = Field(default=None, description="replace the content's deck or techniques' cards")


class WitchHammerScenario(ScenarioBase):
    ruleset: Literal["witchhammer"]
    map: str | None = Field(
        default=None, description="ASCII map: '.' open, '#' wall, '~' and '^' difficult, '%' a whole move"
    )
    size: tuple[int, int] = Field(default=(12, 12), description="width, height of an open map when no map is given")
    sides: list[Side[WitchHammerCombatant]]  # at least two: ScenarioBase checks it
