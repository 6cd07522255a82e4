"""Schemas of Spellchrome content (signs, weapons, armour, feats, spells, characters, monsters) and scenarios.

Rules: SC-01 (HP, Toughness), SC-07 (armour EX-HP and refill rate), SC-12/SC-14 (Ancient Sign save
tables), SC-17 (speed), SC-27 (the Guarded feats), SC-B1 (weapons, deflection, damage reduction: the
SRD-standard assumption), SC-B8 (HP per level comes from the sign). Content authors write these files;
a broken one fails with the file, the field and what was expected.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from affray.core.grid import Grid, MapError
from affray.core.hidden import HIDDEN_HELP
from affray.core.notation import NotationError, parse
from affray.core.scenario import CombatantBase, ScenarioBase, Side, Strict

Skill = Literal["heal", "concentration", "run", "tumble", "listen", "spot", "repair"]
SKILL_ABILITY: dict[str, str] = {
    "heal": "wisdom",
    "concentration": "constitution",
    "run": "strength",
    "tumble": "dexterity",
    "listen": "wisdom",
    "spot": "wisdom",
    "repair": "intelligence",
}
SaveRow = tuple[int, int, int]


def _dice(text: str) -> str:
    try:
        parse(text)
    except NotationError as exc:
        raise ValueError(str(exc)) from None
    return text


class AncientSign(Strict):
    """An Ancient Sign: base Fortitude/Reflex/Will by level 1..20 (SC-12, SC-14) and HP per level (SC-B8)."""

    name: str
    hp_per_level: int = Field(ge=1, le=20, description="hit points gained per level before Con (SC-B8)")
    saves: list[SaveRow] = Field(description="20 rows, levels 1..20, each [fortitude, reflex, will]")
    description: str = ""

    @field_validator("saves")
    @classmethod
    def _twenty_rising_rows(cls, rows: list[SaveRow]) -> list[SaveRow]:
        if len(rows) != 20:
            raise ValueError(f"exactly 20 rows (levels 1 to 20), got {len(rows)}")
        for level in range(1, 20):
            if any(b < a for a, b in zip(rows[level - 1], rows[level], strict=True)):
                raise ValueError(f"base saves never fall with level (level {level + 1} is below level {level})")
        return rows


class Weapon(Strict):
    """A weapon (SC-B1, SRD-standard assumption): damage dice, and for ranged weapons the range increment."""

    name: str
    kind: Literal["melee", "ranged", "unarmed", "natural"]
    damage: str = Field(description="dice notation, e.g. 1d8 (Str modifier is added for melee, SC-B1)")
    attack_bonus: int = Field(default=0, ge=-5, le=5)
    range_increment_ft: int | None = Field(default=None, ge=5, le=200, multiple_of=5)
    blunt: bool = Field(default=False, description="can be used for a knockout (SC-10)")
    description: str = ""

    @field_validator("damage")
    @classmethod
    def _damage_is_dice(cls, text: str) -> str:
        return _dice(text)

    @model_validator(mode="after")
    def _ranged_has_range(self) -> Weapon:
        if (self.kind == "ranged") != (self.range_increment_ft is not None):
            raise ValueError("ranged weapons, and only they, have range_increment_ft")
        return self


class Armour(Strict):
    """Armour: deflection (to Defense), damage reduction, EX-HP and its hourly refill. Rules: SC-07, SC-B1, SC-B6."""

    name: str
    deflection: int = Field(default=0, ge=0, le=15)
    damage_reduction: int = Field(default=0, ge=0, le=20)
    ex_hp: int = Field(default=0, ge=0, le=500)
    ex_hp_refill_per_hour: int = Field(default=0, ge=0, le=500)
    empowerable: bool = False
    description: str = ""

    @model_validator(mode="after")
    def _refill_needs_ex_hp(self) -> Armour:
        if self.ex_hp_refill_per_hour and not self.ex_hp:
            raise ValueError("an EX-HP refill rate needs ex_hp above 0")
        return self


class Feat(Strict):
    """A feat: a one-time HP bonus (Toughness, SC-01) or a guard against an AoO trigger (SC-27 (c), (d))."""

    name: str
    hp_bonus: int = Field(default=0, ge=0, le=20)
    guards: list[Literal["unarmed", "ranged"]] = Field(default_factory=list)
    description: str = ""


class Spell(Strict):
    """A spell: healing (Swift/Precise Healing, SC-06, SC-08) or Steal Life (SC-07)."""

    name: str
    effect: Literal["heal", "steal_life"]
    casting: Literal["standard", "minutes"] = Field(description="'minutes' cannot be cast in combat")
    range_squares: int = Field(ge=0, le=40, description="0: the caster only; 1: touch (self or adjacent)")
    dice: str
    per_level: int = Field(default=0, ge=0, le=5, description="added per caster level")
    max_level_bonus: int = Field(default=0, ge=0, le=40)
    save: Literal["none", "fortitude", "reflex", "will"] = "none"
    dc: int = Field(default=0, ge=0, le=40)
    half_on_save: bool = False
    healer_bonus: bool = Field(default=False, description="adds half the caster's Heal skill bonus")
    description: str = ""

    @field_validator("dice")
    @classmethod
    def _dice_is_dice(cls, text: str) -> str:
        return _dice(text)

    @model_validator(mode="after")
    def _save_has_dc(self) -> Spell:
        if (self.save == "none") != (self.dc == 0):
            raise ValueError("a spell with a save needs a dc above 0, and one without has none")
        return self


class Abilities(Strict):
    strength: int = Field(default=10, ge=1, le=40)
    dexterity: int = Field(default=10, ge=1, le=40)
    constitution: int = Field(default=10, ge=1, le=40)
    intelligence: int = Field(default=10, ge=1, le=40)
    wisdom: int = Field(default=10, ge=1, le=40)
    charisma: int = Field(default=10, ge=1, le=40)


class Character(Strict):
    """A character, NPC or monster sheet. Saves come from the sign (SC-14) unless given as ``saves``."""

    name: str
    kind: Literal["character", "npc", "monster"] = "character"
    level: int = Field(default=1, ge=1, le=20)
    sign: str | None = Field(default=None, description="an Ancient Sign id")
    saves: SaveRow | None = Field(default=None, description="base [fortitude, reflex, will] for sign-less sheets")
    max_hp: int | None = Field(default=None, ge=1, le=999, description="overrides level × (sign HP + Con)")
    abilities: Abilities = Field(default_factory=Abilities)
    base_attack: int = Field(default=0, ge=0, le=20, description="base attack bonus (SC-B1)")
    speed_ft: int = Field(default=30, ge=5, le=120, multiple_of=5)
    initiative_bonus: int = Field(default=0, ge=-10, le=20)
    defense_bonus: int = Field(default=0, ge=0, le=15, description="other Defense bonuses (natural armour)")
    armour: str | None = None
    weapons: list[str] = Field(default_factory=list)
    wielding: str | None = Field(default=None, description="the weapon in hand at the start; default the first")
    feats: list[str] = Field(default_factory=list)
    skills: dict[Skill, int] = Field(default_factory=dict, description="trained skills and their total bonus")
    spells: dict[str, int] = Field(default_factory=dict, description="spell id -> casts per fight")
    fills_square: bool = Field(default=False, description="cannot be tumbled past (SC-24)")
    description: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Character:
        if self.sign is None and self.saves is None:
            raise ValueError("a sheet needs an Ancient Sign ('sign') or base 'saves' [fort, ref, will]")
        if len(set(self.weapons)) != len(self.weapons):
            raise ValueError("a weapon id may appear once in 'weapons'")
        if self.wielding is not None and self.wielding not in self.weapons:
            raise ValueError(f"wielding names '{self.wielding}', which is not in 'weapons'")
        return self


class CharacterPatch(Strict):
    """Inline stats in a scenario: any Character field, overriding the referenced content."""

    name: str | None = None
    kind: Literal["character", "npc", "monster"] | None = None
    level: int | None = Field(default=None, ge=1, le=20)
    sign: str | None = None
    saves: SaveRow | None = None
    max_hp: int | None = Field(default=None, ge=1, le=999)
    abilities: Abilities | None = None
    base_attack: int | None = Field(default=None, ge=0, le=20)
    speed_ft: int | None = Field(default=None, ge=5, le=120, multiple_of=5)
    initiative_bonus: int | None = Field(default=None, ge=-10, le=20)
    defense_bonus: int | None = Field(default=None, ge=0, le=15)
    armour: str | None = None
    weapons: list[str] | None = None
    wielding: str | None = None
    feats: list[str] | None = None
    skills: dict[Skill, int] | None = None
    spells: dict[str, int] | None = None
    fills_square: bool | None = None
    description: str | None = None


class SpellchromeContent(Strict):
    """One Spellchrome content file: any of its sections."""

    ruleset: Literal["spellchrome"]
    signs: dict[str, AncientSign] = Field(default_factory=dict)
    weapons: dict[str, Weapon] = Field(default_factory=dict)
    armour: dict[str, Armour] = Field(default_factory=dict)
    feats: dict[str, Feat] = Field(default_factory=dict)
    spells: dict[str, Spell] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)
    monsters: dict[str, Character] = Field(default_factory=dict)


class SpellchromeCombatant(CombatantBase):
    hidden: bool = Field(default=False, description=HIDDEN_HELP)
    position: tuple[int, int] = Field(description="[x, y]: column and row from the map's top left")
    stats: CharacterPatch | None = None
    hp: int | None = Field(default=None, ge=-29, description="starting hit points, if not full")


class Surprise(Strict):
    """The aware side's initiative bonus, set by the GM after Listen/Spot checks (SC-16)."""

    aware: str
    bonus: int = Field(ge=1, le=10)


class SpellchromeScenario(ScenarioBase):
    ruleset: Literal["spellchrome"]
    map: str = Field(
        description="ASCII map: '.' open, '#' wall, '~' half speed, '^' third speed, '%' 5 ft per move action"
    )
    surprise: Surprise | None = None
    sides: list[Side[SpellchromeCombatant]]  # at least two: ScenarioBase checks it

    @field_validator("map")
    @classmethod
    def _readable_map(cls, text: str) -> str:
        try:
            Grid.parse(text)
        except MapError as exc:
            raise ValueError(str(exc)) from None
        return text

    @model_validator(mode="after")
    def _sheets_and_surprise(self) -> SpellchromeScenario:
        for _, c in self.combatants():
            if c.use is None and c.sheet is None and (c.stats is None or (c.stats.name is None and c.name is None)):
                raise ValueError(
                    f"combatant '{c.id}' needs 'use: <character or monster id>', 'sheet: <file>' or inline stats"
                )
        if self.surprise is not None and self.surprise.aware not in {s.name for s in self.sides}:
            raise ValueError(f"surprise.aware names '{self.surprise.aware}', which is not a side")
        return self
