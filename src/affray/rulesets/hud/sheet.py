"""Sim HuD character sheets: stats (Endurance, Agility, Strength), weapons and armour, as recorded in the HuD.

Rules: WL-03 (stats, armour classes, weapons), WL-08 (Endurance is HP in Combat Nerdified), WL-B2 (a PC's stats
are small: Agility and Strength 0–5, Endurance 3–10), WL-B12 (the trained-witcher tag), WL-20 (what is in hand).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from affray.characters.sheet import SheetModel, Summary, listing, signed
from affray.core.content import ContentLibrary, Problem
from affray.core.scenario import Strict
from affray.core.sheets import FightSheet
from affray.rulesets.hud.content_model import Character


class Stats(Strict):
    """A PC's HuD stats (ruling WL-B2: never larger than a die can outweigh)."""

    endurance: int = Field(ge=3, le=10, description="hit points in Combat Nerdified (WL-08)")
    agility: int = Field(default=0, ge=0, le=5)
    strength: int = Field(default=0, ge=0, le=5)


class HudSheet(SheetModel):
    ruleset: Literal["hud"]
    stats: Stats
    armour: str | None = Field(default=None, description="an armour id (light, medium or heavy)")
    weapons: list[str] = Field(default_factory=list, description="weapon ids carried")
    in_hand: list[str] | None = Field(default=None, description="in hand at the start; default: the first weapon")
    trained_witcher: bool = Field(default=False, description="draws from the back for free (WL-20, WL-B12)")

    @field_validator("weapons")
    @classmethod
    def _once(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a weapon id may appear once in 'weapons'")
        return value

    @field_validator("in_hand")
    @classmethod
    def _carried(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        missing = [w for w in value or [] if w not in info.data.get("weapons", [])]
        if missing:
            raise ValueError(f"weapons that are carried; not {', '.join(missing)}")
        return value


def problems(sheet: HudSheet, content: ContentLibrary) -> list[Problem]:
    weapons = content.sections.get("weapons", {})
    out = [
        Problem(f"weapons[{n}]", f"a weapon of the content (known: {', '.join(sorted(weapons))}); got '{w}'")
        for n, w in enumerate(sheet.weapons)
        if w not in weapons
    ]
    armour = content.sections.get("armour", {})
    if sheet.armour is not None and sheet.armour not in armour:
        out.append(
            Problem("armour", f"an armour of the content (known: {', '.join(sorted(armour))}); got '{sheet.armour}'")
        )
    if not out and sheet.in_hand is not None:
        hands = sum(weapons[w].hands for w in sheet.in_hand)
        if hands > 2:
            out.append(Problem("in_hand", f"what fits in two hands (WL-20); these need {hands}"))
    return out


def character(sheet: HudSheet) -> Character:
    return Character(
        name=sheet.name,
        endurance=sheet.stats.endurance,
        agility=sheet.stats.agility,
        strength=sheet.stats.strength,
        armour=sheet.armour,
        weapons=list(sheet.weapons),
        in_hand=sheet.in_hand,
        tags=["trained_witcher"] if sheet.trained_witcher else [],
        description=sheet.description,
    )


def summary(sheet: HudSheet, content: ContentLibrary) -> Summary:
    weapons = content.sections.get("weapons", {})
    stats = [
        ("Endurance", f"{sheet.stats.endurance} (HP in Combat Nerdified, WL-08)"),
        ("Agility", str(sheet.stats.agility)),
        ("Strength", str(sheet.stats.strength)),
    ]
    arms = [
        (
            weapons[w].name,
            f"{weapons[w].kind}, {weapons[w].hands}-handed, attack {signed(weapons[w].attack)}, "
            f"defense {signed(weapons[w].defense)}, damage {signed(weapons[w].damage)}",
        )
        for w in sheet.weapons
    ]
    armour = content.sections.get("armour", {}).get(sheet.armour) if sheet.armour else None
    gear = [
        (
            "Armour",
            f"{armour.name} ({armour.weight}: attack penalty {armour.penalty}, injury {signed(armour.injury)})"
            if armour
            else "none",
        ),
        ("In hand", listing(sheet.in_hand if sheet.in_hand is not None else sheet.weapons[:1])),
        ("Trained witcher", "yes" if sheet.trained_witcher else "no"),
    ]
    return Summary(
        f"{sheet.name} (Sim HuD)" + (f": {sheet.description}" if sheet.description else ""),
        [("Stats (WL-03)", stats), ("Weapons", arms), ("Armour and hands", gear)],
        [],
    )


class HudRules:
    ruleset = "hud"
    model = HudSheet
    operations = ()  # nothing beyond new, check and show
    builder_options = None

    def problems(self, sheet: HudSheet, content: ContentLibrary) -> list[Problem]:
        return problems(sheet, content)

    def notes(self, sheet: HudSheet, content: ContentLibrary) -> list[str]:
        return [] if sheet.weapons else ["no weapons: only the bare d13 for Attack and Damage (WL-B2)"]

    def for_fight(self, sheet: HudSheet, content: ContentLibrary) -> FightSheet:
        return FightSheet(character(sheet))

    def summary(self, sheet: HudSheet, content: ContentLibrary) -> Summary:
        return summary(sheet, content)


#: This ruleset's character sheet rules (its plug-in record names them).
RULES = HudRules()
