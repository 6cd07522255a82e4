"""WitchHammer's interactive character builder (``affray character new witchhammer``), through
:class:`~affray.characters.prompts.Prompts`: WH-31's points, WH-32's costs, schools and techniques (WH-33, WH-34),
traits, equipment (WH-36), starting silver on verifiable dice (WH-37) and a hat.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.characters.prompts import DONE, Prompts, field_check
from affray.characters.sheet import Refused
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.hats import roll_starting_silver
from affray.rulesets.witchhammer.characters.sheet import (
    ATTRIBUTE_COST,
    ATTRIBUTE_LABEL,
    SKILL_COST,
    SKILLS,
    Equipment,
    Gem,
    Hat,
    WitchHammerSheet,
)


def build(p: Prompts, lib: ContentLibrary, rng: VerifiableRNG) -> WitchHammerSheet:
    """WH-31: spend 15 Attribute, 1 School, 7 Technique and 2 Trait points; then equipment, money and a hat."""
    head = p.header("witchhammer")
    sheet = adv.new_sheet(head["name"], head["description"])
    record, event = roll_starting_silver(rng, "you")
    p.say(event.describe({"you": sheet.name}) + " silver (WH-37)")
    p.say(f"seed {rng.seed.hex()} (commitment {rng.commitment}); recorded on the sheet", "dim")
    sheet = adv.set_money(sheet, record)
    sheet = _spend_loop(
        p,
        sheet,
        lib,
        "Attribute",
        _attribute_table,
        "Buy an attribute or a skill",
        lambda s, x: adv.buy_attribute(s, x, lib),
    )
    sheet = _school_step(p, sheet, lib)
    sheet = _spend_loop(
        p,
        sheet,
        lib,
        "Technique",
        _technique_table,
        "Learn a technique (id)",
        lambda s, x: adv.learn_technique(s, x, lib),
    )
    sheet = _spend_loop(
        p, sheet, lib, "Trait", _trait_table, "Take a trait (id)", lambda s, x: adv.take_trait(s, x, lib)
    )
    return _gear_and_hat(p, sheet, lib)


def _left(sheet: WitchHammerSheet, lib: ContentLibrary, kind: str) -> int:
    return dict(wh.points_left(sheet, lib).items())[kind]


def _spend_loop(
    p: Prompts,
    sheet: WitchHammerSheet,
    lib: ContentLibrary,
    kind: str,
    table: Callable[[Prompts, WitchHammerSheet, ContentLibrary], None],
    label: str,
    buy: Callable[[WitchHammerSheet, str], WitchHammerSheet],
) -> WitchHammerSheet:
    listed = False
    while (left := _left(sheet, lib, kind)) > 0:
        if not listed:
            table(p, sheet, lib)
            listed = True
        answer = p.ask(
            f"{label}: {left} {kind} point{'s' if left != 1 else ''} left ('?' lists, 'done' keeps them)", "done"
        )
        if answer in DONE:
            break
        if answer == "?":
            listed = False
            continue
        try:
            sheet = buy(sheet, answer)
        except Refused as exc:
            p.refuse(str(exc))
            continue
        p.ok(answer)
    return sheet


def _attribute_table(p: Prompts, sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    rows = [
        (
            k,
            ATTRIBUTE_LABEL[k],
            str(ATTRIBUTE_COST[k]),
            str(getattr(sheet.attributes, k)),
            "+5 Max Poise" if k == "max_poise" else "+1",
        )
        for k in ATTRIBUTE_COST
    ]
    rows += [
        (s, f"Skill: {s.replace('_', ' ')}", str(SKILL_COST), str(sheet.skills.get(s, 0)), "+1")  # type: ignore[call-overload]
        for s in SKILLS
    ]
    p.show(
        "Attributes (WH-32; Ranged, Fire and Ice Defense cannot be bought, WH-B22)",
        ("id", "attribute", "cost", "bought", "each"),
        rows,
    )


def _school_step(p: Prompts, sheet: WitchHammerSheet, lib: ContentLibrary) -> WitchHammerSheet:
    while _left(sheet, lib, "School") > 0:
        known = wh.known_schools(sheet)
        p.show(
            "Schools (WH-33; the General Combat School is known by everyone)",
            ("id", "school", "levels", "known", "incompatible with"),
            [
                (k, s.name, str(s.levels), str(known.get(k, 0)), ", ".join(s.incompatible))
                for k, s in sorted(lib.sections.get("schools", {}).items())
            ],
        )
        answer = p.ask(
            f"{_left(sheet, lib, 'School')} School point left: learn a school (id), 'trade' it for "
            f"{wh.build_rules(sheet).techniques_per_school_point} Technique points, or 'keep' it",
            "keep",
        )
        if answer == "keep":
            break
        try:
            sheet = adv.trade_school_point(sheet, lib) if answer == "trade" else adv.learn_school(sheet, answer, lib)
        except Refused as exc:
            p.refuse(str(exc))
            continue
        p.ok(answer)
    return sheet


def _technique_table(p: Prompts, sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    rows = []
    for t in adv.available_techniques(sheet, lib):
        item = lib.sections.get("cards", {}).get(t) or lib.sections["passives"][t]
        rows.append((t, item.name, getattr(item, "kind", "passive"), f"{item.school} {item.level}"))
    p.show("Techniques you can learn (WH-34)", ("id", "name", "kind", "school, level"), rows)


def _trait_table(p: Prompts, sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    traits = lib.sections.get("traits", {})
    rows = [
        (t, traits[t].name, ", ".join(f"{k} {v:+d}" for k, v in traits[t].modifiers.skills.items()))
        for t in wh.pc_traits(lib, wh.build_rules(sheet))
        if t not in sheet.traits
    ]
    p.show("Traits", ("id", "name", "skills"), rows)


def _gear_and_hat(p: Prompts, sheet: WitchHammerSheet, lib: ContentLibrary) -> WitchHammerSheet:
    """Weapon, armour (its table shown right before its question) and misc items (WH-36), then a hat (WH-37)."""
    weapon = p.ask(
        "Weapon (one; a name, no magic: its bonuses are in the techniques)",
        "",
        field_check(Equipment, "weapon", blank=True),
    )
    armour = lib.sections.get("armour", {})
    p.show("Armour (WH-36)", ("id", "name"), [(k, a.name) for k, a in sorted(armour.items())])
    worn = p.ask_id("Armour set (id)", armour, blank=True)
    misc: list[str] = []
    while len(misc) < 5 and (item := p.ask(f"Misc item {len(misc) + 1} of 5 (blank to stop)", "")):
        misc.append(item)
    return _hat(p, adv.equip(sheet, lib, weapon=weapon, armour=worn, misc=misc))


GIFT = "a gift is written in the ledger as a gain and a 'hat: NAME' spending line"


def _hat(p: Prompts, sheet: WitchHammerSheet) -> WitchHammerSheet:
    """A hat, paid for from the silver on hand (WH-37), or none. A hat the rules refuse (one the silver cannot pay
    for, an unpaid one of any value: ruling WH-C10) is refused with the reason and the question asked again; a
    blank name goes without."""
    while hat := p.ask("Hat (a name; blank for none)", "", field_check(Hat, "name", blank=True)):
        value = p.ask_int("Its value in silver", 0, 1_000_000, 0)
        gems: list[tuple[str, int]] = []
        gem_kind = field_check(Gem, "kind", blank=True)
        while kind := p.ask("Attached to it: kind of gem or bauble (blank to stop)", "", gem_kind):
            gems.append((kind, p.ask_int(f"Value of the {kind}", 0, 1_000_000)))
        if p.ask_yes(f"Pay for it from your {sheet.money.silver if sheet.money else 0} silver", True):
            try:
                return adv.wear_hat(sheet, hat, value, gems, bought=True)
            except Refused as exc:
                p.refuse(f"{exc}; name another hat, or leave it blank for none ({GIFT})")
                continue
        if value or any(v for _, v in gems):  # an unpaid hat is refused (WH-37, ruling WH-C10)
            p.refuse(
                "an unpaid hat would buy the party's leadership for nothing; name another hat, or leave it "
                f"blank for none ({GIFT})"
            )
            continue
        return adv.wear_hat(sheet, hat, value, gems)
    return sheet
