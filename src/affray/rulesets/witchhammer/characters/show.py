"""A WitchHammer sheet laid out for people (``affray character show``), and the ruleset's :class:`SheetRules` with
its operations (:mod:`~affray.rulesets.witchhammer.characters.operations`) and builder options."""

from __future__ import annotations

from typing import Any

from affray.characters.sheet import Summary, listing, signed
from affray.core.content import ContentLibrary, Problem
from affray.core.sheets import FightSheet
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters import hats
from affray.rulesets.witchhammer.characters.operations import OPERATIONS
from affray.rulesets.witchhammer.characters.sheet import (
    ATTRIBUTE_COST,
    ATTRIBUTE_LABEL,
    SKILL_COST,
    BuildRules,
    WitchHammerSheet,
)


def summary(sheet: WitchHammerSheet, content: ContentLibrary) -> Summary:
    rules = wh.build_rules(sheet)
    d = wh.derived(sheet, content)
    have, used = wh.granted(sheet, rules), wh.spent(sheet, content, rules)
    points = [
        (kind, f"{total - cost} left of {total} ({cost} spent)")
        for (kind, total), (_, cost) in zip(have.items(), used.items(), strict=True)
    ]
    if sheet.traded_school_points:
        points.append(
            (
                "Trades",
                f"{sheet.traded_school_points} School point(s) traded for "
                f"{rules.techniques_per_school_point * sheet.traded_school_points} Technique points",
            )
        )
    health = f"{d.health - sheet.wounds} / {d.health}"
    if sheet.wounds:
        health += f" ({sheet.wounds} Wounds, Malus {wh.malus_now(sheet, content)})"
    stats = [
        ("Poise", str(d.poise)),
        ("Health", health),
        ("Attack", signed(d.attack)),
        ("Defense", signed(d.defense)),
        ("Initiative", signed(d.init)),
        ("Damage on Solid Hit", signed(d.solid_damage)),
    ]
    if d.move:
        stats.append(("Move", signed(d.move)))
    stats.append(("Defenses", listing([f"{k} {signed(v)}" for k, v in sorted(d.defenses.items()) if v])))
    stats.append(("Skills", listing([f"{k.replace('_', ' ')} {signed(v)}" for k, v in sorted(d.skills.items()) if v])))
    bought = [
        (ATTRIBUTE_LABEL[k], f"×{getattr(sheet.attributes, k)} ({ATTRIBUTE_COST[k]} each)")
        for k in ATTRIBUTE_COST
        if getattr(sheet.attributes, k)
    ]
    bought += [(f"Skill: {k.replace('_', ' ')}", f"×{n} ({SKILL_COST} each)") for k, n in sheet.skills.items() if n]
    schools = content.sections.get("schools", {})
    known = [(schools[s].name if s in schools else s, f"level {lv}") for s, lv in wh.known_schools(sheet).items()]
    techniques = [_technique_row(t, content) for t in sheet.techniques]
    traits = [_trait_row(t, content) for t in sheet.traits]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("Points (WH-31, WH-35)", points),
        ("Statistics", stats),
        ("Attribute purchases (WH-32)", bought),
        ("Schools (WH-33)", known),
        ("Techniques (WH-34)", techniques),
        ("Traits", traits),
        ("Equipment (WH-36)", _equipment(sheet, content)),
        ("Hat and money (WH-37)", _money(sheet)),
        ("Adventures (WH-35)", [(e.reward, e.note or "") for e in sheet.rewards]),
        ("Afflictions (WH-23)", [(a, "") for a in sheet.afflictions]),
    ]
    title = f"{sheet.name} (WitchHammer)" + (f": {sheet.description}" if sheet.description else "")
    return Summary(title, sections, wh.notes(sheet, content))


def _technique_row(tech: str, content: ContentLibrary) -> tuple[str, str]:
    item: Any = wh._technique(tech, content)
    if item is None:
        return tech, "unknown"
    kind = getattr(item, "kind", "passive")
    return item.name, f"{kind}, {item.school} level {item.level}" + (
        ", one-shot" if getattr(item, "one_shot", False) else ""
    )


def _trait_row(trait_id: str, content: ContentLibrary) -> tuple[str, str]:
    trait = content.sections.get("traits", {}).get(trait_id)
    if trait is None:
        return trait_id, "unknown"
    return trait.name, listing([f"{k.replace('_', ' ')} {signed(v)}" for k, v in trait.modifiers.skills.items()])


def _equipment(sheet: WitchHammerSheet, content: ContentLibrary) -> list[tuple[str, str]]:
    eq = sheet.equipment
    armour = "none"
    if eq.armour is not None:
        item = content.sections.get("armour", {}).get(eq.armour)
        armour = item.name if item is not None else eq.armour
    return [("Weapon", eq.weapon or "none"), ("Armour", armour), ("Misc", listing(eq.misc))]


def _money(sheet: WitchHammerSheet) -> list[tuple[str, str]]:
    rows = []
    if sheet.hat is not None:
        gems = listing([f"{g.kind} ({g.value})" for g in sheet.hat.gems])
        rows.append(("Hat", f"{sheet.hat.name}: {sheet.hat.total} silver ({sheet.hat.value} + attached: {gems})"))
    if sheet.money is not None:
        roll = sheet.money.roll
        how = f"seed commitment {roll.commitment[:16]}…" if roll.commitment else "rolled at the table"
        rows.append(("Silver", str(sheet.money.silver)))
        rows.append(("Starting roll", f"{roll.notation} = {roll.value} (draw {roll.draw}; {how})"))
        rows += [("Ledger", f"{e.silver:+d} {e.what}") for e in sheet.money.ledger]
    return rows


class WitchHammerRules:
    """WitchHammer's :class:`~affray.characters.sheet.SheetRules`."""

    ruleset = "witchhammer"
    model = WitchHammerSheet
    operations = OPERATIONS
    builder_options = BuildRules

    def problems(self, sheet: Any, content: ContentLibrary) -> list[Problem]:
        return wh.problems(sheet, content)

    def notes(self, sheet: Any, content: ContentLibrary) -> list[str]:
        return wh.notes(sheet, content)

    def for_fight(self, sheet: Any, content: ContentLibrary) -> FightSheet:
        return wh.for_fight(sheet, content)

    def summary(self, sheet: Any, content: ContentLibrary) -> Summary:
        return summary(sheet, content)


__all__ = ["WitchHammerRules", "hats", "summary"]


#: This ruleset's character sheet rules (its plug-in record names them).
RULES = WitchHammerRules()
