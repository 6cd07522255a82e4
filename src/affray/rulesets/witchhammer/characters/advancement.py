"""Building and growing a WitchHammer: each change is a pure function from a legal sheet to a legal sheet.

A change the rules refuse raises :class:`~affray.characters.sheet.Refused` with the reason and the rule, and the
sheet is untouched (sheets are immutable). Rules: WH-31 (creation), WH-32 (costs), WH-33 (schools and levels, the
5-point trade, incompatible schools), WH-34 (techniques one by one from known schools), WH-35 (rewards), WH-36
(equipment), WH-37 (money, hats), WH-19/WH-30 (Wounds and healing), WH-23/WH-B23 (afflictions), WH-B22.
"""

from __future__ import annotations

from typing import Any

from affray.characters.sheet import FORMAT, Refused
from affray.core.content import ContentLibrary
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters import hats
from affray.rulesets.witchhammer.characters.sheet import (
    ATTRIBUTE_COST,
    ATTRIBUTE_LABEL,
    MAX_MISC,
    NOT_FOR_SALE,
    SKILL_COST,
    SKILLS,
    Equipment,
    Gem,
    Hat,
    LedgerEntry,
    Money,
    MoneyRoll,
    RewardEntry,
    WitchHammerSheet,
    attribute_name,
    wh_b22,
)
from affray.rulesets.witchhammer.mechanics import AFFLICTIONS


def new_sheet(name: str, description: str = "", house_rules: dict[str, Any] | None = None) -> WitchHammerSheet:
    """A new PC with WH-31's points all unspent and WH-B17's base line."""
    sheet = WitchHammerSheet(
        format=FORMAT, ruleset="witchhammer", name=name, description=description, house_rules=dict(house_rules or {})
    )
    wh.build_rules(sheet)  # refuse bad house rules now
    return sheet


def _with(sheet: WitchHammerSheet, **changes: Any) -> WitchHammerSheet:
    return WitchHammerSheet.model_validate({**sheet.model_dump(), **changes})


def _need(sheet: WitchHammerSheet, content: ContentLibrary, kind: str, cost: int, what: str) -> None:
    left = dict(wh.points_left(sheet, content).items())[kind]
    if cost > left:
        raise Refused(f"{what} costs {cost} {kind} point{'s' if cost != 1 else ''}; {left} left (WH-31, WH-35)")


# -- spending -----------------------------------------------------------------------------------------------------


def buy_attribute(sheet: WitchHammerSheet, name: str, content: ContentLibrary) -> WitchHammerSheet:
    """+1 to an attribute (+5 Max Poise) at WH-32's cost. Ranged/Fire/Ice Defense are refused (WH-B22)."""
    key = attribute_name(name)
    if key in NOT_FOR_SALE:
        raise Refused(wh_b22(key))
    if key in SKILLS:
        return buy_skill(sheet, key, content)
    if key not in ATTRIBUTE_COST:
        raise Refused(f"no attribute '{name}'; one of {', '.join(ATTRIBUTE_COST)} or a skill ({', '.join(SKILLS)})")
    _need(sheet, content, "Attribute", ATTRIBUTE_COST[key], f"+1 {ATTRIBUTE_LABEL[key]}")
    bought = sheet.attributes.model_dump()
    bought[key] += 1
    return _with(sheet, attributes=bought)


def buy_skill(sheet: WitchHammerSheet, skill: str, content: ContentLibrary) -> WitchHammerSheet:
    """+1 to a skill for 2 Attribute points (WH-32)."""
    key = attribute_name(skill)
    if key not in SKILLS:
        raise Refused(f"no skill '{skill}'; one of {', '.join(SKILLS)} (WH-28)")
    _need(sheet, content, "Attribute", SKILL_COST, f"+1 {key.replace('_', ' ')}")
    skills: dict[str, int] = {str(k): v for k, v in sheet.skills.items()}
    skills[key] = skills.get(key, 0) + 1
    return _with(sheet, skills=skills)


def learn_school(sheet: WitchHammerSheet, school_id: str, content: ContentLibrary) -> WitchHammerSheet:
    """A School point buys a new school at level 1 or the next level of a known one (WH-33)."""
    schools = content.sections.get("schools", {})
    school = schools.get(school_id)
    if school is None:
        raise Refused(f"no school '{school_id}'; known schools: {', '.join(sorted(schools))}")
    level = wh.known_schools(sheet).get(school_id, 0) + 1
    if level > school.levels:
        raise Refused(f"{school.name} has {school.levels} level(s) and level {level - 1} is known already")
    for other in wh.known_schools(sheet):
        rival = schools.get(other)
        if (
            other != school_id
            and rival is not None
            and (other in school.incompatible or school_id in rival.incompatible)
        ):
            raise Refused(f"{school.name} cannot be learned by someone who knows {rival.name} (WH-33)")
    _need(sheet, content, "School", 1, f"{school.name} level {level}")
    return _with(sheet, schools={**sheet.schools, school_id: level})


def trade_school_point(sheet: WitchHammerSheet, content: ContentLibrary) -> WitchHammerSheet:
    """Trade one unspent School point for five Technique points (WH-33). The trade is final (ruling WH-C7)."""
    _need(sheet, content, "School", 1, "a trade for Technique points")
    return _with(sheet, traded_school_points=sheet.traded_school_points + 1)


def learn_technique(sheet: WitchHammerSheet, technique: str, content: ContentLibrary) -> WitchHammerSheet:
    """One Technique point: an Action card, Psych card or passive of a school known at its level (WH-34)."""
    why = wh.technique_problem(technique, wh.known_schools(sheet), content)
    if why is not None:
        raise Refused(why)
    allowed = wh.copies_allowed(technique, content)
    if sheet.techniques.count(technique) >= allowed:
        raise Refused(f"'{technique}' is learned already" + (f" ({allowed} times, WH-B18)" if allowed > 1 else ""))
    if not wh.is_free(technique, content, wh.build_rules(sheet)):
        _need(sheet, content, "Technique", 1, f"'{technique}'")
    return _with(sheet, techniques=[*sheet.techniques, technique])


def available_techniques(sheet: WitchHammerSheet, content: ContentLibrary) -> list[str]:
    """Techniques that could be learned now (ignoring points): known schools, known levels, not all learned."""
    known = wh.known_schools(sheet)
    ids = sorted(set(content.sections.get("cards", {})) | set(content.sections.get("passives", {})))
    return [
        t
        for t in ids
        if wh.technique_problem(t, known, content) is None and sheet.techniques.count(t) < wh.copies_allowed(t, content)
    ]


def take_trait(sheet: WitchHammerSheet, trait_id: str, content: ContentLibrary) -> WitchHammerSheet:
    """One Trait point: a chrome trait (ruling WH-C1)."""
    why = wh.trait_problem(trait_id, content, wh.build_rules(sheet))
    if why is not None:
        raise Refused(why)
    if trait_id in sheet.traits:
        raise Refused(f"'{trait_id}' is taken already")
    _need(sheet, content, "Trait", 1, f"the trait '{trait_id}'")
    return _with(sheet, traits=[*sheet.traits, trait_id])


# -- rewards, wounds, healing -----------------------------------------------------------------------------------


def grant_reward(sheet: WitchHammerSheet, reward: str, note: str = "") -> WitchHammerSheet:
    """Record an adventure reward (WH-35): hunt +1 Technique; defeat (or a good job) +1 Trait; witch +3 Attribute,
    +2 Technique, +1 School. The points are then spent like creation points."""
    if reward not in wh.REWARDS:
        raise Refused(f"no reward '{reward}'; one of {', '.join(wh.REWARDS)} (WH-35)")
    entry = RewardEntry.model_validate({"reward": reward, "note": note})
    return _with(sheet, rewards=[*(e.model_dump() for e in sheet.rewards), entry.model_dump()])


def wound(sheet: WitchHammerSheet, wounds: int, content: ContentLibrary) -> WitchHammerSheet:
    """Carry ``wounds`` more Wounds (WH-19); Health on the sheet stops at 0 (a PC below 0 has made its
    death's-door save and is at 0, WH-29)."""
    if wounds < 1:
        raise Refused("wounds to add must be 1 or more")
    health = wh.derived(sheet, content).health
    return _with(sheet, wounds=min(health, sheet.wounds + wounds))


def heal(sheet: WitchHammerSheet, days: int, rest: bool = False) -> WitchHammerSheet:
    """Heal 2 Health a day, 3 a day of nothing but rest somewhere comfortable (WH-30)."""
    if days < 1:
        raise Refused("days of healing must be 1 or more")
    return _with(sheet, wounds=max(0, sheet.wounds - days * (3 if rest else 2)))


def afflict(sheet: WitchHammerSheet, affliction: str) -> WitchHammerSheet:
    """Add a permanent affliction from the WH-23 table (a narrative tag, WH-B23)."""
    names = {a.lower(): a for a in AFFLICTIONS}
    if affliction.lower() not in names:
        raise Refused(f"'{affliction}' is not on the affliction table (WH-23): {', '.join(AFFLICTIONS)}")
    return _with(sheet, afflictions=[*sheet.afflictions, names[affliction.lower()]])


# -- equipment, money, hats ---------------------------------------------------------------------------------------


def equip(
    sheet: WitchHammerSheet,
    content: ContentLibrary,
    weapon: str | None = None,
    armour: str | None = None,
    misc: list[str] | None = None,
) -> WitchHammerSheet:
    """Set the weapon, the armour set and the misc items (1, 1 and at most 5: WH-36)."""
    eq = sheet.equipment.model_dump()
    if weapon is not None:
        eq["weapon"] = weapon or None
    if armour is not None:
        if armour and armour not in content.sections.get("armour", {}):
            raise Refused(f"no armour '{armour}'; one of {', '.join(sorted(content.sections.get('armour', {})))}")
        eq["armour"] = armour or None
    if misc is not None:
        if len(misc) > MAX_MISC:
            raise Refused(f"at most {MAX_MISC} misc items (WH-36); got {len(misc)}")
        eq["misc"] = list(misc)
    return _with(sheet, equipment=Equipment.model_validate(eq).model_dump())


def set_money(sheet: WitchHammerSheet, roll: MoneyRoll) -> WitchHammerSheet:
    """Record the starting-money roll (WH-37); refused once money is on the sheet (it is rolled once)."""
    if sheet.money is not None:
        raise Refused("starting money is rolled once (WH-37); it is on the sheet already")
    return _with(sheet, money=Money(roll=roll, silver=roll.value).model_dump())


def pay(sheet: WitchHammerSheet, silver: int, what: str) -> WitchHammerSheet:
    """Spend (negative) or gain (positive) silver with a ledger line; never below 0 (ruling WH-C9). Nothing moves
    for 0 silver, so no line is written (a ledger line moves some silver: a hat worth 0 costs nothing)."""
    if sheet.money is None:
        raise Refused("no money yet: roll the starting 1d100 silver first (WH-37)")
    if silver == 0:
        return sheet
    if sheet.money.silver + silver < 0:
        raise Refused(f"{what} costs {-silver} silver; {sheet.money.silver} on hand")
    entry = LedgerEntry(silver=silver, what=what)
    money = Money(roll=sheet.money.roll, silver=sheet.money.silver + silver, ledger=[*sheet.money.ledger, entry])
    return _with(sheet, money=money.model_dump())


def wear_hat(
    sheet: WitchHammerSheet, name: str, value: int, gems: list[tuple[str, int]] | None = None, bought: bool = False
) -> WitchHammerSheet:
    """Put on a hat worth ``value`` with attached ``gems`` (kind, value). ``bought``: its whole value is paid from
    the silver on hand (WH-37: hats are among the expenses a PC tracks)."""
    hat = Hat(name=name, value=value, gems=[Gem(kind=k, value=v) for k, v in gems or []])
    if bought:
        sheet = pay(sheet, -hat.total, f"hat: {name}")
    return _with(sheet, hat=hat.model_dump())


__all__ = ["hats"]
