"""WaRP character sheets: a central trait, two side traits, one of the three superior, a flaw, hit points.

Rules: WR-03 (SRD Creating a Character: traits rated 3 dice, 4 when superior; "narrow" traits 4, 6 when superior;
one flaw), WR-04 (the Experience Pool), WR-B9 (hit points default to 21), WR-19/WR-21 (armour layers). Traits,
flaws, weapons and armour are ids of the WaRP content (``rulesets/warp/content``), whose tags the fight uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field, field_validator

from affray.characters.sheet import SheetModel, Summary, listing
from affray.core.content import ContentLibrary, Problem
from affray.core.sheets import FightSheet
from affray.rulesets.warp.content_model import Character, Trait

DEFAULT_HP = 21  # Ruling WR-B9: the seed's own example of an ordinary adult
DICE = {(False, False): 3, (False, True): 4, (True, False): 4, (True, True): 6}  # (narrow, superior): WR-03


class WarpSheet(SheetModel):
    """A WaRP PC (the SRD's four traits) and what it carries."""

    ruleset: Literal["warp"]
    central: str = Field(description="the central trait: who the character is (a trait id)")
    side: list[str] = Field(description="exactly two side traits (trait ids)")
    superior: str = Field(description="which of the three traits is superior")
    narrow: list[str] = Field(default_factory=list, description="traits rated as narrow: 4 dice, 6 if superior")
    flaw: str = Field(description="the flaw (a trait id marked flaw)")
    signs: dict[str, str] = Field(default_factory=dict, description="trait id -> its visible sign")
    hp: int = Field(default=DEFAULT_HP, ge=1, le=200, description="max hit points (WR-B9)")
    experience: int = Field(default=0, ge=0, le=30, description="Experience Pool dice (WR-04)")
    weapons: list[str] = Field(default_factory=list)
    wielding: str | None = None
    armour: list[str] = Field(default_factory=list, description="layers, innermost first (WR-21)")

    @field_validator("side")
    @classmethod
    def _two_sides(cls, value: list[str]) -> list[str]:
        if len(value) != 2:
            raise ValueError(f"exactly two side traits (WR-03), got {len(value)}")
        return value

    def traits(self) -> list[str]:
        return [self.central, *self.side]

    def dice(self, trait: str) -> int:
        """Dice of one of the three traits: 3, superior 4; narrow 4, narrow superior 6 (WR-03)."""
        return DICE[(trait in self.narrow, trait == self.superior)]


def shape_problems(sheet: WarpSheet) -> list[Problem]:
    """The four traits fit together (WR-03): three different traits, a superior among them, narrow traits and
    signs of the character's own traits, a wielded weapon that is carried."""
    three = sheet.traits()
    out = []
    if len(set(three)) != 3:
        out.append(
            Problem(
                "side",
                f"the central trait and the two side traits are three different traits (WR-03); got {', '.join(three)}",
            )
        )
    if sheet.superior not in three:
        out.append(Problem("superior", f"one of the three traits ({', '.join(three)}) (WR-03); got '{sheet.superior}'"))
    for field, names in (("narrow", sheet.narrow), ("signs", list(sheet.signs))):
        stray = [t for t in names if t not in (*three, sheet.flaw)]
        if stray:
            out.append(Problem(field, f"the character's own traits; not {', '.join(stray)}"))
    if sheet.wielding not in (None, "unarmed") and sheet.wielding not in sheet.weapons:
        out.append(Problem("wielding", f"a weapon in 'weapons'; got '{sheet.wielding}'"))
    return out


def problems(sheet: WarpSheet, content: ContentLibrary) -> list[Problem]:
    traits = content.sections.get("traits", {})
    out = shape_problems(sheet)
    for where, tid in [("central", sheet.central), ("side[0]", sheet.side[0]), ("side[1]", sheet.side[1])]:
        trait = traits.get(tid)
        if trait is None:
            out.append(Problem(where, f"a trait of the content; got '{tid}' (known: {_known(traits, False)})"))
        elif trait.flaw:
            out.append(Problem(where, f"a trait, not a flaw ('{tid}' is a flaw: it belongs in 'flaw')"))
    flaw = traits.get(sheet.flaw)
    if flaw is None or not flaw.flaw:
        out.append(Problem("flaw", f"a flaw of the content; got '{sheet.flaw}' (flaws: {_known(traits, True)})"))
    for n, wid in enumerate(sheet.weapons):
        if wid not in content.sections.get("weapons", {}):
            out.append(Problem(f"weapons[{n}]", f"a weapon of the content; got '{wid}'"))
    for n, aid in enumerate(sheet.armour):
        if aid not in content.sections.get("armour", {}):
            out.append(Problem(f"armour[{n}]", f"an armour of the content; got '{aid}'"))
    return out


def _known(traits: Mapping[str, Trait], flaws: bool) -> str:
    return ", ".join(sorted(t for t, v in traits.items() if v.flaw == flaws))


def character(sheet: WarpSheet) -> Character:
    return Character(
        name=sheet.name,
        pc=True,
        hp=sheet.hp,
        traits={t: sheet.dice(t) for t in sheet.traits()},
        flaws=[sheet.flaw],
        weapons=list(sheet.weapons),
        wielding=sheet.wielding,
        armour=list(sheet.armour),
        experience=sheet.experience,
        description=sheet.description,
    )


def summary(sheet: WarpSheet, content: ContentLibrary) -> Summary:
    traits = content.sections.get("traits", {})

    def named(tid: str) -> str:
        name = traits[tid].name if tid in traits else tid
        sign = sheet.signs.get(tid)
        return f"{name} ({sign})" if sign else name

    rows = [("Central", f"{named(sheet.central)}: {sheet.dice(sheet.central)} dice")]
    rows += [("Side", f"{named(t)}: {sheet.dice(t)} dice") for t in sheet.side]
    rows += [("Superior", named(sheet.superior)), ("Flaw", named(sheet.flaw))]
    weapons = content.sections.get("weapons", {})
    first_melee = next((w for w in sheet.weapons if weapons[w].melee is not None), None)
    in_hand = sheet.wielding or first_melee or (sheet.weapons or ["unarmed"])[0]  # as the fight picks it
    gear = [("Weapons", listing(sheet.weapons)), ("Wielding", in_hand), ("Armour", listing(sheet.armour))]
    stats = [
        ("Hit points", str(sheet.hp)),
        ("Experience Pool", f"{sheet.experience} dice"),
        ("Anything else", "2 dice (WR-03)"),
    ]
    return Summary(
        f"{sheet.name} (WaRP)" + (f": {sheet.description}" if sheet.description else ""),
        [("Traits (WR-03)", rows), ("Numbers", stats), ("Gear", gear)],
        notes(sheet, content),
    )


def notes(sheet: WarpSheet, content: ContentLibrary) -> list[str]:
    return [] if sheet.weapons else ["no weapons: the character fights bare-handed (damage factor 1, WR-12)"]


class WarpRules:
    ruleset = "warp"
    model = WarpSheet
    operations = ()  # nothing beyond new, check and show
    builder_options = None

    def problems(self, sheet: WarpSheet, content: ContentLibrary) -> list[Problem]:
        return problems(sheet, content)

    def notes(self, sheet: WarpSheet, content: ContentLibrary) -> list[str]:
        return notes(sheet, content)

    def for_fight(self, sheet: WarpSheet, content: ContentLibrary) -> FightSheet:
        return FightSheet(character(sheet))

    def summary(self, sheet: WarpSheet, content: ContentLibrary) -> Summary:
        return summary(sheet, content)


#: This ruleset's character sheet rules (its plug-in record names them).
RULES = WarpRules()
