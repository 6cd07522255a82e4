"""Spellchrome character sheets: abilities and modifiers, Ancient Sign, level, hit points per level, saves from the
sign's table, feats, skills and gear.

Rules: SC-01 (HP; Toughness), SC-12 (save = d20 + base save + ability modifier), SC-14 (base saves by sign and
level), SC-B2 (modifier = ⌊(score − 10) / 2⌋), SC-B8 (HP per level from the sign). A sheet may write down the
numbers a player keeps on paper (``modifiers``, ``max_hp``, ``saves``); each one written is checked against the
rules, and ``show`` prints them all computed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from affray.characters.sheet import SheetModel, Summary, listing, signed
from affray.core.content import ContentLibrary, Problem
from affray.core.scenario import Strict
from affray.core.sheets import FightSheet
from affray.rulesets.spellchrome.content_model import Abilities, Character, Skill
from affray.rulesets.spellchrome.mechanics import ability_modifier

ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
SAVES = {"fortitude": "constitution", "reflex": "dexterity", "will": "wisdom"}  # Rule: SC-12


class Saves(Strict):
    """Save bonuses as written on a sheet: base (sign table, SC-14) + ability modifier (SC-12)."""

    fortitude: int = Field(ge=-10, le=40)
    reflex: int = Field(ge=-10, le=40)
    will: int = Field(ge=-10, le=40)


class Gear(Strict):
    armour: str | None = Field(default=None, description="an armour id")
    weapons: list[str] = Field(default_factory=list, description="weapon ids")
    wielding: str | None = Field(default=None, description="the weapon in hand at the start; default the first")
    items: list[str] = Field(default_factory=list, description="everything else, by name")

    @model_validator(mode="after")
    def _wielding_carried(self) -> Gear:
        if len(set(self.weapons)) != len(self.weapons):
            raise ValueError("a weapon id may appear once in 'weapons'")
        if self.wielding is not None and self.wielding not in self.weapons:
            raise ValueError(f"wielding names '{self.wielding}', which is not in 'weapons'")
        return self


class SpellchromeSheet(SheetModel):
    ruleset: Literal["spellchrome"]
    sign: str = Field(description="an Ancient Sign id (SC-14)")
    level: int = Field(default=1, ge=1, le=20)
    abilities: Abilities = Field(default_factory=Abilities)
    modifiers: dict[Literal["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"], int] = (
        Field(default_factory=dict, description="as written; checked against SC-B2")
    )
    max_hp: int | None = Field(default=None, ge=1, le=999, description="as written; checked (SC-01, SC-B8)")
    saves: Saves | None = Field(default=None, description="as written; checked (SC-12, SC-14)")
    base_attack: int = Field(default=0, ge=0, le=20, description="base attack bonus (SC-B1)")
    speed_ft: int = Field(default=30, ge=5, le=120, multiple_of=5)
    initiative_bonus: int = Field(default=0, ge=-10, le=20)
    defense_bonus: int = Field(default=0, ge=0, le=15)
    feats: list[str] = Field(default_factory=list)
    skills: dict[Skill, int] = Field(default_factory=dict, description="trained skills and their total bonus")
    spells: dict[str, int] = Field(default_factory=dict, description="spell id -> casts per fight")
    gear: Gear = Field(default_factory=Gear)

    @field_validator("feats")
    @classmethod
    def _feats_once(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a feat is taken once")
        return value


def modifier(sheet: SpellchromeSheet, ability: str) -> int:
    score: int = getattr(sheet.abilities, ability)
    return ability_modifier(score)


def base_saves(sheet: SpellchromeSheet, content: ContentLibrary) -> tuple[int, int, int]:
    """The sign's table at the sheet's level (SC-14)."""
    row = content.sections["signs"][sheet.sign].saves[sheet.level - 1]
    return row[0], row[1], row[2]


def save_totals(sheet: SpellchromeSheet, content: ContentLibrary) -> dict[str, int]:
    """Base save + ability modifier for each save (SC-12)."""
    base = dict(zip(SAVES, base_saves(sheet, content), strict=True))
    return {kind: base[kind] + modifier(sheet, ability) for kind, ability in SAVES.items()}


def max_hp(sheet: SpellchromeSheet, content: ContentLibrary) -> int:
    """level × (the sign's HP per level + Con modifier, at least 1) + feat bonuses such as Toughness (SC-01, SC-B8);
    the same sum the ruleset makes."""
    per_level = int(content.sections["signs"][sheet.sign].hp_per_level) + modifier(sheet, "constitution")
    feats = content.sections.get("feats", {})
    bonus: int = sum(feats[f].hp_bonus for f in sheet.feats if f in feats)
    return sheet.level * max(1, per_level) + bonus


def problems(sheet: SpellchromeSheet, content: ContentLibrary) -> list[Problem]:
    out = []
    signs = content.sections.get("signs", {})
    if sheet.sign not in signs:
        return [
            Problem("sign", f"an Ancient Sign of the content (known: {', '.join(sorted(signs))}); got '{sheet.sign}'")
        ]
    for section, ids in (("feats", sheet.feats), ("spells", list(sheet.spells))):
        for n, item in enumerate(ids):
            if item not in content.sections.get(section, {}):
                where = f"{section}[{n}]" if section == "feats" else f"spells.{item}"
                out.append(
                    Problem(
                        where,
                        f"a {section[:-1]} of the content (known: "
                        f"{', '.join(sorted(content.sections.get(section, {})))}); got '{item}'",
                    )
                )
    for n, wid in enumerate(sheet.gear.weapons):
        if wid not in content.sections.get("weapons", {}):
            out.append(Problem(f"gear.weapons[{n}]", f"a weapon of the content; got '{wid}'"))
    if sheet.gear.armour is not None and sheet.gear.armour not in content.sections.get("armour", {}):
        out.append(Problem("gear.armour", f"an armour of the content; got '{sheet.gear.armour}'"))
    if out:
        return out
    for ability, written in sheet.modifiers.items():
        if written != modifier(sheet, ability):
            out.append(
                Problem(
                    f"modifiers.{ability}",
                    f"{signed(modifier(sheet, ability))} for a score of "
                    f"{getattr(sheet.abilities, ability)} (SC-B2); got "
                    f"{signed(written)}",
                )
            )
    if sheet.max_hp is not None and sheet.max_hp != max_hp(sheet, content):
        out.append(
            Problem(
                "max_hp",
                f"{max_hp(sheet, content)} = level {sheet.level} × (HP per level + Con "
                f"modifier) + feats (SC-01, SC-B8); got {sheet.max_hp}",
            )
        )
    if sheet.saves is not None:
        for kind, total in save_totals(sheet, content).items():
            written = getattr(sheet.saves, kind)
            if written != total:
                out.append(
                    Problem(
                        f"saves.{kind}",
                        f"{signed(total)} = base from {signs[sheet.sign].name} at level "
                        f"{sheet.level} + {SAVES[kind]} modifier (SC-12, SC-14); got "
                        f"{signed(written)}",
                    )
                )
    return out


def character(sheet: SpellchromeSheet) -> Character:
    return Character(
        name=sheet.name,
        level=sheet.level,
        sign=sheet.sign,
        abilities=sheet.abilities,
        base_attack=sheet.base_attack,
        speed_ft=sheet.speed_ft,
        initiative_bonus=sheet.initiative_bonus,
        defense_bonus=sheet.defense_bonus,
        armour=sheet.gear.armour,
        weapons=list(sheet.gear.weapons),
        wielding=sheet.gear.wielding,
        feats=list(sheet.feats),
        skills=dict(sheet.skills),
        spells=dict(sheet.spells),
        description=sheet.description,
    )


def summary(sheet: SpellchromeSheet, content: ContentLibrary) -> Summary:
    sign = content.sections["signs"][sheet.sign]
    abilities = [(a.capitalize(), f"{getattr(sheet.abilities, a)} ({signed(modifier(sheet, a))})") for a in ABILITIES]
    base = dict(zip(SAVES, base_saves(sheet, content), strict=True))
    saves = [
        (
            kind.capitalize(),
            f"{signed(total)} (base {signed(base[kind])}, {SAVES[kind][:3]} {signed(modifier(sheet, SAVES[kind]))})",
        )
        for kind, total in save_totals(sheet, content).items()
    ]
    core = [
        ("Ancient Sign", sign.name),
        ("Level", str(sheet.level)),
        ("Hit points", f"{max_hp(sheet, content)} ({sign.hp_per_level} per level + Con)"),
        ("Base attack", signed(sheet.base_attack)),
        ("Speed", f"{sheet.speed_ft} ft"),
        ("Initiative", signed(sheet.initiative_bonus + modifier(sheet, "dexterity"))),
    ]
    feats = content.sections.get("feats", {})
    lists = [
        ("Feats", listing([feats[f].name for f in sheet.feats])),
        ("Skills", listing([f"{s} {signed(b)}" for s, b in sheet.skills.items()])),
        ("Spells", listing([f"{s} ×{n}" for s, n in sheet.spells.items()])),
        ("Armour", sheet.gear.armour or "none"),
        ("Weapons", listing(sheet.gear.weapons)),
        ("Items", listing(sheet.gear.items)),
    ]
    return Summary(
        f"{sheet.name} (Spellchrome)" + (f": {sheet.description}" if sheet.description else ""),
        [
            ("Character", core),
            ("Abilities (SC-B2)", abilities),
            ("Saves (SC-12, SC-14)", saves),
            ("Feats, skills and gear", lists),
        ],
        [],
    )


class SpellchromeRules:
    ruleset = "spellchrome"
    model = SpellchromeSheet
    operations = ()  # nothing beyond new, check and show
    builder_options = None

    def problems(self, sheet: SpellchromeSheet, content: ContentLibrary) -> list[Problem]:
        return problems(sheet, content)

    def notes(self, sheet: SpellchromeSheet, content: ContentLibrary) -> list[str]:
        return []

    def for_fight(self, sheet: SpellchromeSheet, content: ContentLibrary) -> FightSheet:
        return FightSheet(character(sheet))

    def summary(self, sheet: SpellchromeSheet, content: ContentLibrary) -> Summary:
        return summary(sheet, content)


#: This ruleset's character sheet rules (its plug-in record names them).
RULES = SpellchromeRules()
