"""WitchHammer characters: points granted, spent and left; the checks of a sheet against the content; derived
statistics; the fighter a sheet becomes; and the printed summary.

Rules: WH-31 to WH-38, WH-B17, WH-B22, WH-B23; rulings WH-C1 to WH-C11 (``docs/characters.md``). Schools, cards,
passives, traits and armour all come from the content library: nothing here lists a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from affray.core.content import ContentLibrary, Problem
from affray.core.options import OptionError, parse_options
from affray.core.sheets import FightSheet
from affray.rulesets.witchhammer.characters import hats
from affray.rulesets.witchhammer.characters.sheet import (
    SKILL_COST,
    BuildRules,
    WitchHammerSheet,
)
from affray.rulesets.witchhammer.content_model import Character, Modifiers, Trait
from affray.rulesets.witchhammer.mechanics import malus_table

GENERAL = "general"  # Rule: WH-33, every PC knows the General Combat School
DEFENSES = ("con", "agility", "will", "fear")  # the buyable ones (WH-32); ranged/fire/ice only from content


@dataclass(frozen=True, slots=True)
class Points:
    """Attribute, School, Technique and Trait points."""

    attribute: int = 0
    school: int = 0
    technique: int = 0
    trait: int = 0

    def __add__(self, other: Points) -> Points:
        return Points(
            self.attribute + other.attribute,
            self.school + other.school,
            self.technique + other.technique,
            self.trait + other.trait,
        )

    def __sub__(self, other: Points) -> Points:
        return Points(
            self.attribute - other.attribute,
            self.school - other.school,
            self.technique - other.technique,
            self.trait - other.trait,
        )

    def items(self) -> list[tuple[str, int]]:
        return [
            ("Attribute", self.attribute),
            ("School", self.school),
            ("Technique", self.technique),
            ("Trait", self.trait),
        ]


#: Rule: WH-35. Each reward is its own grant; a successful hunt earns both 'hunt' and 'defeat' (ruling WH-C6).
REWARDS: dict[str, Points] = {
    "hunt": Points(technique=1),
    "defeat": Points(trait=1),
    "witch": Points(attribute=3, technique=2, school=1),
}


def build_rules(sheet: WitchHammerSheet) -> BuildRules:
    """The sheet's builder numbers: the defaults with its ``house_rules`` applied."""
    return parse_options(BuildRules, sheet.house_rules)


def creation(rules: BuildRules) -> Points:
    """Rule: WH-31. 15 Attribute, 1 School, 7 Technique and 2 Trait points."""
    return Points(rules.attribute_points, rules.school_points, rules.technique_points, rules.trait_points)


def granted(sheet: WitchHammerSheet, rules: BuildRules) -> Points:
    """Creation (WH-31) plus every reward (WH-35) plus five Technique points per traded School point (WH-33)."""
    total = creation(rules)
    for entry in sheet.rewards:
        total += REWARDS[entry.reward]
    return total + Points(technique=rules.techniques_per_school_point * sheet.traded_school_points)


def school_cost(school: str, level: int) -> int:
    """School points for knowing ``school`` at ``level``: one per level, the General school's first free (WH-33)."""
    return level - 1 if school == GENERAL else level


def is_free(technique: str, content: ContentLibrary, rules: BuildRules) -> bool:
    item = _technique(technique, content)
    return rules.general_techniques == "free" and item is not None and item.school == GENERAL


def spent(sheet: WitchHammerSheet, content: ContentLibrary, rules: BuildRules) -> Points:
    """Attribute points at WH-32's costs; a School point per level and per trade; a Technique point per technique
    (WH-34); a Trait point per trait (ruling WH-C2)."""
    attribute = sheet.attributes.cost() + SKILL_COST * sum(sheet.skills.values())
    school = sum(school_cost(s, lv) for s, lv in sheet.schools.items()) + sheet.traded_school_points
    technique = sum(1 for t in sheet.techniques if not is_free(t, content, rules))
    return Points(attribute, school, technique, len(sheet.traits))


def points_left(sheet: WitchHammerSheet, content: ContentLibrary, rules: BuildRules | None = None) -> Points:
    rules = rules or build_rules(sheet)
    return granted(sheet, rules) - spent(sheet, content, rules)


def known_schools(sheet: WitchHammerSheet) -> dict[str, int]:
    """Schools and the level known: the General school for everyone (WH-33) plus what was learned."""
    return {GENERAL: 1, **sheet.schools}


def _technique(technique: str, content: ContentLibrary) -> Any:
    return content.sections.get("cards", {}).get(technique) or content.sections.get("passives", {}).get(technique)


# -- checks ------------------------------------------------------------------------------------------------------


def problems(sheet: WitchHammerSheet, content: ContentLibrary) -> list[Problem]:
    """Everything on ``sheet`` that the character rules refuse."""
    try:
        rules = build_rules(sheet)
    except OptionError as exc:
        return [Problem("house_rules", str(exc))]
    out = _school_problems(sheet, content) + _technique_problems(sheet, content)
    out += _trait_problems(sheet, content, rules)
    armour = sheet.equipment.armour
    if armour is not None and armour not in content.sections.get("armour", {}):
        known = ", ".join(sorted(content.sections.get("armour", {}))) or "none"
        out.append(Problem("equipment.armour", f"an armour id of the content (known: {known}); got '{armour}'"))
    out += _point_problems(sheet, content, rules)
    if sheet.hat is not None:
        out += [Problem("hat", p) for p in hats.hat_problems(sheet.hat, sheet.money)]
    if sheet.money is not None:
        out += [Problem("money.roll", p) for p in hats.roll_problems(sheet.money.roll)]
        out += [Problem("money.ledger", p) for p in hats.ledger_problems(sheet.money)]
        if sheet.money.roll.notation != f"1d{rules.money_die}":
            out.append(Problem("money.roll.notation", f"1d{rules.money_die} (WH-37); got {sheet.money.roll.notation}"))
    if not out:
        health = derived(sheet, content).health
        if sheet.wounds > health:
            out.append(Problem("wounds", f"at most the character's Health ({health}); got {sheet.wounds}"))
    return out


def _school_problems(sheet: WitchHammerSheet, content: ContentLibrary) -> list[Problem]:
    schools = content.sections.get("schools", {})
    out = []
    known = known_schools(sheet)
    for sid, level in sheet.schools.items():
        school = schools.get(sid)
        if school is None:
            out.append(Problem(f"schools.{sid}", f"a school of the content (known: {', '.join(sorted(schools))})"))
        elif level > school.levels:
            out.append(
                Problem(
                    f"schools.{sid}", f"at most level {school.levels} ({school.name} has {school.levels}); got {level}"
                )
            )
    for sid in sorted(known):
        school = schools.get(sid)
        for other in sorted(known):
            rival = schools.get(other)
            if other <= sid or school is None or rival is None:
                continue
            if other in school.incompatible or sid in rival.incompatible:
                out.append(Problem("schools", f"{school.name} and {rival.name} cannot both be learned (WH-33)"))
    return out


def technique_problem(technique: str, known: dict[str, int], content: ContentLibrary) -> str | None:
    """Why ``technique`` cannot be learned by someone knowing ``known`` (WH-34), or ``None``."""
    item = _technique(technique, content)
    if item is None:
        return f"a card or passive of the content; got '{technique}'"
    if item.school is None:
        return f"'{technique}' ({item.name}) belongs to no school: it cannot be learned"
    if item.school not in known:
        return f"'{technique}' ({item.name}) is taught by the {item.school} school, which is not known (WH-34)"
    if item.level > known[item.school]:
        return (
            f"'{technique}' ({item.name}) needs {item.school} level {item.level}; level {known[item.school]} "
            "is known (WH-34)"
        )
    return None


def copies_allowed(technique: str, content: ContentLibrary) -> int:
    """How many times a technique can be learned: a card's ``copies`` (WH-B18), a passive once."""
    return int(getattr(content.sections.get("cards", {}).get(technique), "copies", 1))


def _technique_problems(sheet: WitchHammerSheet, content: ContentLibrary) -> list[Problem]:
    out = []
    known = known_schools(sheet)
    for n, tech in enumerate(sheet.techniques):
        why = technique_problem(tech, known, content)
        if why is not None:
            out.append(Problem(f"techniques[{n}]", why))
        elif sheet.techniques[: n + 1].count(tech) > copies_allowed(tech, content):
            out.append(
                Problem(
                    f"techniques[{n}]", f"'{tech}' learned at most {copies_allowed(tech, content)} time(s) (WH-B18)"
                )
            )
    return out


def trait_problem(trait_id: str, content: ContentLibrary, rules: BuildRules) -> str | None:
    """Why a PC cannot take ``trait_id`` (ruling WH-C1), or ``None``."""
    trait: Trait | None = content.sections.get("traits", {}).get(trait_id)
    if trait is None:
        return f"a trait of the content; got '{trait_id}' (known: {', '.join(pc_traits(content, rules))})"
    if rules.pc_traits == "chrome" and not chrome(trait.modifiers):
        return (
            f"'{trait_id}' ({trait.name}) changes combat statistics, so it is a monster template, not a PC "
            "trait (ruling WH-C1: a PC's traits give skill bonuses)"
        )
    return None


def chrome(mods: Modifiers) -> bool:
    """A trait that only touches skills (non-combat chrome)."""
    return mods == Modifiers(skills=mods.skills)


def pc_traits(content: ContentLibrary, rules: BuildRules) -> list[str]:
    return sorted(t for t in content.sections.get("traits", {}) if trait_problem(t, content, rules) is None)


def _trait_problems(sheet: WitchHammerSheet, content: ContentLibrary, rules: BuildRules) -> list[Problem]:
    out = []
    for n, trait_id in enumerate(sheet.traits):
        why = trait_problem(trait_id, content, rules)
        if why is not None:
            out.append(Problem(f"traits[{n}]", why))
    return out


def _point_problems(sheet: WitchHammerSheet, content: ContentLibrary, rules: BuildRules) -> list[Problem]:
    have, used = granted(sheet, rules), spent(sheet, content, rules)
    fields = {"Attribute": "attributes", "School": "schools", "Technique": "techniques", "Trait": "traits"}
    out = []
    for (kind, total), (_, cost) in zip(have.items(), used.items(), strict=True):
        if cost > total:
            out.append(
                Problem(
                    fields[kind],
                    f"{cost} {kind} points spent but {total} granted (WH-31 creation, "
                    f"WH-35 rewards{', WH-33 trades' if kind == 'Technique' else ''})",
                )
            )
    return out


def notes(sheet: WitchHammerSheet, content: ContentLibrary) -> list[str]:
    rules = build_rules(sheet)
    out = [
        f"house rule: {k} = {v!r} (the builder's default is {getattr(BuildRules(), k)!r}); this sheet is not "
        "built to the standard rules (contract 8)"
        for k, v in sheet.house_rules.items()
    ]
    left = points_left(sheet, content, rules)
    unspent = [f"{n} {kind}" for kind, n in left.items() if n > 0]
    if unspent:
        out.append(f"points left to spend: {', '.join(unspent)}")
    if sheet.hat is not None:
        for kind, n in hats.outre(sheet.hat, rules.outre_at).items():
            out.append(f"outré: {n} × {kind} on one hat (WH-37; flagged from {rules.outre_at}, ruling WH-C4)")
    if sheet.money is None:
        out.append("no starting money rolled yet (1d100 silver, WH-37)")
    elif sheet.money.roll.seed is None:
        out.append("the money roll has no seed: rolled at the table, not verifiable (ruling WH-C8)")
    if sheet.equipment.weapon is None:
        out.append("no weapon carried (WH-36)")
    return out


# -- derived statistics and the fighter ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Derived:
    poise: int
    health: int
    attack: int
    defense: int
    init: int
    solid_damage: int
    move: int
    defenses: dict[str, int]
    skills: dict[str, int]


def character(sheet: WitchHammerSheet) -> Character:
    """The sheet as the ruleset's content character: the base line plus purchases (WH-B17); traits, armour and
    passives are applied by the ruleset when the fight is prepared, as for any content character."""
    rules = build_rules(sheet)
    a = sheet.attributes
    defenses = {d: getattr(a, f"{d}_defense") for d in DEFENSES if getattr(a, f"{d}_defense")}
    return Character(
        name=sheet.name,
        poise=rules.base_poise + rules.poise_per_purchase * a.max_poise,
        health=rules.base_health,
        attack=a.attack,
        defense=a.defense,
        init=a.init,
        solid_damage=a.solid_damage,
        defenses=defenses,
        skills={s: n for s, n in sheet.skills.items() if n},
        traits=list(sheet.traits),
        armour=sheet.equipment.armour,
        schools=dict(sheet.schools),
        techniques=list(sheet.techniques),
        hat=sheet.hat.name if sheet.hat else "",
        description=sheet.description,
    )


def modifiers(sheet: WitchHammerSheet, content: ContentLibrary) -> list[Modifiers]:
    """Traits, armour and learned passives, as the ruleset applies them."""
    mods = [content.sections["traits"][t].modifiers for t in sheet.traits]
    if sheet.equipment.armour is not None:
        mods.append(content.sections["armour"][sheet.equipment.armour].modifiers)
    passives = content.sections.get("passives", {})
    mods += [passives[t].modifiers for t in sheet.techniques if t in passives]
    return mods


def derived(sheet: WitchHammerSheet, content: ContentLibrary) -> Derived:
    """The statistics the character fights with (the same sums the ruleset's setup makes)."""
    ch = character(sheet)
    stats = {k: getattr(ch, k) for k in ("poise", "health", "attack", "defense", "init", "solid_damage")}
    stats["move"] = 0
    defenses: dict[str, int] = {str(k): v for k, v in ch.defenses.items()}
    skills: dict[str, int] = {str(k): v for k, v in ch.skills.items()}
    for m in modifiers(sheet, content):
        for k in stats:
            stats[k] += getattr(m, k)
        for d, v in m.defenses.items():
            defenses[d] = defenses.get(d, 0) + v
        for s, v in m.skills.items():
            skills[s] = skills.get(s, 0) + v
    return Derived(
        max(0, stats["poise"]),
        max(1, stats["health"]),
        stats["attack"],
        stats["defense"],
        stats["init"],
        stats["solid_damage"],
        stats["move"],
        defenses,
        skills,
    )


def for_fight(sheet: WitchHammerSheet, content: ContentLibrary) -> FightSheet:
    return FightSheet(character(sheet), sheet.wounds)


def malus_now(sheet: WitchHammerSheet, content: ContentLibrary) -> int:
    """The Health-loss Malus of the Wounds carried (WH-20)."""
    health = derived(sheet, content).health
    table = malus_table(health)
    return table[min(sheet.wounds, len(table) - 1)]
