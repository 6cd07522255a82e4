"""``affray character new``: build a character by prompts, one ruleset at a time.

Every answer is checked as it is given: a refused answer prints the reason (with its rule) and asks again, and the
points left are shown before each purchase. The finished sheet passes the same checks as ``affray character check``.
Input that ends early (EOF) stops with a message; nothing is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.table import Table

from affray.characters import advancement as adv
from affray.characters import witchhammer as wh
from affray.characters.hats import roll_starting_silver
from affray.characters.sheet import FORMAT, Refused, parse_sheet
from affray.characters.wh_sheet import ATTRIBUTE_COST, ATTRIBUTE_LABEL, SKILL_COST, SKILLS, WitchHammerSheet
from affray.cli.render import CliError, console, escape
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG

Check = Callable[[str], str | None]
DONE = ("done", "")


def ask(label: str, default: str | None = None, check: Check | None = None) -> str:
    """Ask until ``check`` accepts the answer (it returns an error sentence, or ``None``)."""
    shown = f" [{default}]" if default else ""
    while True:
        try:
            text = console.input(f"{escape(label)}{escape(shown)}: ").strip()
        except EOFError:
            raise CliError("input ended before the character was finished; nothing was saved.") from None
        if not text and default is not None:
            text = default
        problem = check(text) if check is not None else None
        if problem is None:
            return text
        refuse(problem)


def refuse(reason: str) -> None:
    console.print(f"[red]refused:[/] {escape(reason)}")


def ask_int(label: str, low: int, high: int, default: int | None = None) -> int:
    def check(text: str) -> str | None:
        try:
            value = int(text)
        except ValueError:
            return f"a whole number from {low} to {high}"
        return None if low <= value <= high else f"a whole number from {low} to {high}"
    return int(ask(label, None if default is None else str(default), check))


def ask_yes(label: str, default: bool) -> bool:
    answer = ask(f"{label} (y/n)", "y" if default else "n",
                 lambda t: None if t.lower() in ("y", "yes", "n", "no") else "y or n")
    return answer.lower() in ("y", "yes")


def ask_id(label: str, known: Mapping[str, Any], default: str | None = None, blank: bool = False) -> str:
    """An id from ``known``; ``blank`` lets an empty answer mean none."""
    def check(text: str) -> str | None:
        if (blank and not text) or text in known:
            return None
        return f"one of {', '.join(sorted(known))}" + (" (or blank for none)" if blank else "")
    return ask(label, default if default is not None else ("" if blank else None), check)


def ask_ids(label: str, known: Mapping[str, Any], default: str = "") -> list[str]:
    """Comma-separated ids from ``known`` (blank for none)."""
    def check(text: str) -> str | None:
        bad = [x for x in split(text) if x not in known]
        return f"unknown: {', '.join(bad)}; known: {', '.join(sorted(known))}" if bad else None
    return split(ask(label, default, check))


def split(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def show(title: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col)
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    console.print(table)


def build(ruleset: str, content: ContentLibrary, rng: VerifiableRNG) -> Any:
    """A finished sheet of ``ruleset`` from the answers on stdin."""
    builders: dict[str, Callable[[ContentLibrary, VerifiableRNG], Any]] = {
        "witchhammer": build_witchhammer, "warp": build_warp, "spellchrome": build_spellchrome, "hud": build_hud}
    return builders[ruleset](content, rng)


def _header(ruleset: str) -> dict[str, Any]:
    name = ask("Name", check=lambda t: None if t else "a name")
    return {"format": FORMAT, "ruleset": ruleset, "name": name, "description": ask("A few words about them", "")}


def _finish(data: dict[str, Any]) -> Any:
    return parse_sheet(data, "(new sheet)")[1]


# -- WitchHammer ------------------------------------------------------------------------------------------------

def build_witchhammer(lib: ContentLibrary, rng: VerifiableRNG) -> WitchHammerSheet:
    """WH-31: spend 15 Attribute, 1 School, 7 Technique and 2 Trait points; then equipment, money and a hat."""
    head = _header("witchhammer")
    sheet = adv.new_sheet(head["name"], head["description"])
    record, event = roll_starting_silver(rng, "you")
    console.print(escape(event.describe({"you": sheet.name})) + " silver (WH-37)")
    console.print(f"[dim]seed {rng.seed.hex()} (commitment {rng.commitment}); recorded on the sheet[/]")
    sheet = adv.set_money(sheet, record)
    sheet = _spend_loop(sheet, lib, "Attribute", _attribute_table, "Buy an attribute or a skill",
                        lambda s, x: adv.buy_attribute(s, x, lib))
    sheet = _school_step(sheet, lib)
    sheet = _spend_loop(sheet, lib, "Technique", _technique_table, "Learn a technique (id)",
                        lambda s, x: adv.learn_technique(s, x, lib))
    sheet = _spend_loop(sheet, lib, "Trait", _trait_table, "Take a trait (id)", lambda s, x: adv.take_trait(s, x, lib))
    return _gear_and_hat(sheet, lib)


def _left(sheet: WitchHammerSheet, lib: ContentLibrary, kind: str) -> int:
    return dict(wh.points_left(sheet, lib).items())[kind]


def _spend_loop(sheet: WitchHammerSheet, lib: ContentLibrary, kind: str,
                table: Callable[[WitchHammerSheet, ContentLibrary], None], label: str,
                buy: Callable[[WitchHammerSheet, str], WitchHammerSheet]) -> WitchHammerSheet:
    listed = False
    while (left := _left(sheet, lib, kind)) > 0:
        if not listed:
            table(sheet, lib)
            listed = True
        answer = ask(f"{label}: {left} {kind} point{'s' if left != 1 else ''} left ('?' lists, 'done' keeps "
                     "them)", "done")
        if answer in DONE:
            break
        if answer == "?":
            listed = False
            continue
        try:
            sheet = buy(sheet, answer)
        except Refused as exc:
            refuse(str(exc))
            continue
        console.print(f"[green]✓[/] {escape(answer)}")
    return sheet


def _attribute_table(sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    rows = [(k, ATTRIBUTE_LABEL[k], str(ATTRIBUTE_COST[k]), str(getattr(sheet.attributes, k)),
             "+5 Max Poise" if k == "max_poise" else "+1") for k in ATTRIBUTE_COST]
    rows += [(s, f"Skill: {s.replace('_', ' ')}", str(SKILL_COST), str(sheet.skills.get(s, 0)), "+1")  # type: ignore[call-overload]
             for s in SKILLS]
    show("Attributes (WH-32; Ranged, Fire and Ice Defense cannot be bought, WH-B22)",
         ("id", "attribute", "cost", "bought", "each"), rows)


def _school_step(sheet: WitchHammerSheet, lib: ContentLibrary) -> WitchHammerSheet:
    while _left(sheet, lib, "School") > 0:
        known = wh.known_schools(sheet)
        show("Schools (WH-33; the General Combat School is known by everyone)",
             ("id", "school", "levels", "known", "incompatible with"),
             [(k, s.name, str(s.levels), str(known.get(k, 0)), ", ".join(s.incompatible))
              for k, s in sorted(lib.sections.get("schools", {}).items())])
        answer = ask(f"{_left(sheet, lib, 'School')} School point left: learn a school (id), 'trade' it for "
                     f"{wh.build_rules(sheet).techniques_per_school_point} Technique points, or 'keep' it", "keep")
        if answer == "keep":
            break
        try:
            sheet = adv.trade_school_point(sheet, lib) if answer == "trade" else adv.learn_school(sheet, answer, lib)
        except Refused as exc:
            refuse(str(exc))
            continue
        console.print(f"[green]✓[/] {escape(answer)}")
    return sheet


def _technique_table(sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    rows = []
    for t in adv.available_techniques(sheet, lib):
        item = lib.sections.get("cards", {}).get(t) or lib.sections["passives"][t]
        rows.append((t, item.name, getattr(item, "kind", "passive"), f"{item.school} {item.level}"))
    show("Techniques you can learn (WH-34)", ("id", "name", "kind", "school, level"), rows)


def _trait_table(sheet: WitchHammerSheet, lib: ContentLibrary) -> None:
    traits = lib.sections.get("traits", {})
    rows = [(t, traits[t].name, ", ".join(f"{k} {v:+d}" for k, v in traits[t].modifiers.skills.items()))
            for t in wh.pc_traits(lib, wh.build_rules(sheet)) if t not in sheet.traits]
    show("Traits", ("id", "name", "skills"), rows)


def _gear_and_hat(sheet: WitchHammerSheet, lib: ContentLibrary) -> WitchHammerSheet:
    armour = lib.sections.get("armour", {})
    show("Armour (WH-36)", ("id", "name"), [(k, a.name) for k, a in sorted(armour.items())])
    weapon = ask("Weapon (one; a name, no magic: its bonuses are in the techniques)", "")
    worn = ask_id("Armour set (id)", armour, blank=True)
    misc: list[str] = []
    while len(misc) < 5 and (item := ask(f"Misc item {len(misc) + 1} of 5 (blank to stop)", "")):
        misc.append(item)
    sheet = adv.equip(sheet, lib, weapon=weapon, armour=worn, misc=misc)
    hat = ask("Hat (a name; blank for none)", "")
    if not hat:
        return sheet
    value = ask_int("Its value in silver", 0, 1_000_000, 0)
    gems: list[tuple[str, int]] = []
    while kind := ask("Attached to it: kind of gem or bauble (blank to stop)", ""):
        gems.append((kind, ask_int(f"Value of the {kind}", 0, 1_000_000)))
    try:  # a hat is paid for from the silver on hand (WH-37, ruling WH-C10)
        return adv.wear_hat(sheet, hat, value, gems, bought=True)
    except Refused as exc:
        refuse(f"{exc}; no hat (a gift is recorded in the ledger as a gain and a 'hat: NAME' spending line)")
    return sheet


# -- WaRP, Spellchrome, Sim HuD ----------------------------------------------------------------------------------

def build_warp(lib: ContentLibrary, rng: VerifiableRNG) -> Any:
    """WR-03: a central trait, two side traits, one superior, a flaw; WR-B9: 21 hit points unless said."""
    data = _header("warp")
    all_traits = lib.sections.get("traits", {})
    traits = {k: t for k, t in all_traits.items() if not t.flaw}
    flaws = {k: t for k, t in all_traits.items() if t.flaw}
    show("Traits (3 dice; 4 when superior)", ("id", "name", "rolls"),
         [(k, t.name, ", ".join(t.uses)) for k, t in sorted(traits.items())])
    central = ask_id("Central trait", traits)
    first = ask("First side trait", check=lambda t: _other(t, traits, [central]))
    second = ask("Second side trait", check=lambda t: _other(t, traits, [central, first]))
    three = {central: 1, first: 1, second: 1}
    data.update(central=central, side=[first, second], superior=ask_id("Superior trait (4 dice)", three, central),
                narrow=ask_ids("Narrow traits, comma-separated (4 dice, 6 if superior; blank for none)", three))
    show("Flaws", ("id", "name", "penalty die on"),
         [(k, t.name, ", ".join(t.affects)) for k, t in sorted(flaws.items())])
    data.update(flaw=ask_id("Flaw", flaws), hp=ask_int("Hit points", 1, 200, 21),
                experience=ask_int("Experience Pool dice", 0, 30, 0))
    weapons = lib.sections.get("weapons", {})
    data["weapons"] = ask_ids(f"Weapons, comma-separated ({', '.join(sorted(weapons))})", weapons)
    if len(data["weapons"]) > 1:
        data["wielding"] = ask_id("In hand at the start", dict.fromkeys(data["weapons"], 1), data["weapons"][0])
    data["armour"] = ask_ids(f"Armour layers, innermost first ({', '.join(sorted(lib.sections.get('armour', {})))})",
                             lib.sections.get("armour", {}))
    return _finish(data)


def _other(text: str, known: Mapping[str, Any], taken: list[str]) -> str | None:
    if text not in known:
        return f"one of {', '.join(sorted(known))}"
    return f"'{text}' is taken already: three different traits" if text in taken else None


def build_spellchrome(lib: ContentLibrary, rng: VerifiableRNG) -> Any:
    """SC-12/SC-14 saves from the sign, SC-B8 HP per level from the sign, SC-B2 modifiers; feats, skills, gear."""
    data = _header("spellchrome")
    signs = lib.sections.get("signs", {})
    show("Ancient Signs (SC-14)", ("id", "name", "HP per level", "level 1 saves (fort/ref/will)"),
         [(k, s.name, str(s.hp_per_level), "/".join(f"{v:+d}" for v in s.saves[0])) for k, s in sorted(signs.items())])
    data.update(sign=ask_id("Ancient Sign", signs), level=ask_int("Level", 1, 20, 1))
    data["abilities"] = {a: ask_int(a.capitalize(), 1, 40, 10) for a in
                         ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")}
    data.update(base_attack=ask_int("Base attack bonus", 0, 20, 0), speed_ft=ask_int("Speed in feet", 5, 120, 30))
    feats = lib.sections.get("feats", {})
    data["feats"] = ask_ids(f"Feats, comma-separated ({', '.join(sorted(feats))})", feats)
    data["skills"] = _pairs(ask("Trained skills as skill=bonus, comma-separated (heal, concentration, run, tumble, "
                                "listen, spot, repair)", "", _pairs_check))
    weapons, armour = lib.sections.get("weapons", {}), lib.sections.get("armour", {})
    gear: dict[str, Any] = {"weapons": ask_ids(f"Weapons ({', '.join(sorted(weapons))})", weapons)}
    worn = ask_id(f"Armour ({', '.join(sorted(armour))})", armour, blank=True)
    if worn:
        gear["armour"] = worn
    gear["items"] = split(ask("Other gear, comma-separated", ""))
    data["gear"] = gear
    return _finish(data)


def _pairs(text: str) -> dict[str, int]:
    return {k.strip(): int(v) for k, v in (p.split("=", 1) for p in split(text))}


def _pairs_check(text: str) -> str | None:
    skills = ("heal", "concentration", "run", "tumble", "listen", "spot", "repair")
    try:
        pairs = _pairs(text)
    except ValueError:
        return "skill=bonus pairs, e.g. heal=4, spot=2"
    bad = [k for k in pairs if k not in skills]
    return f"unknown skill(s) {', '.join(bad)}; one of {', '.join(skills)}" if bad else None


def build_hud(lib: ContentLibrary, rng: VerifiableRNG) -> Any:
    """WL-03 stats (WL-B2 ranges), armour and weapons as recorded in the HuD."""
    data = _header("hud")
    data["stats"] = {"endurance": ask_int("Endurance (3-10; your HP in Combat Nerdified)", 3, 10, 6),
                     "agility": ask_int("Agility (0-5)", 0, 5, 0), "strength": ask_int("Strength (0-5)", 0, 5, 0)}
    armour, weapons = lib.sections.get("armour", {}), lib.sections.get("weapons", {})
    show("Armour (WL-03)", ("id", "name", "weight"), [(k, a.name, a.weight) for k, a in sorted(armour.items())])
    worn = ask_id("Armour (id)", armour, blank=True)
    if worn:
        data["armour"] = worn
    show("Weapons", ("id", "name", "kind", "hands"), [(k, w.name, w.kind, str(w.hands)) for k, w in
                                                      sorted(weapons.items())])
    data["weapons"] = ask_ids("Weapons, comma-separated", weapons)

    def fits(text: str) -> str | None:
        chosen = split(text)
        if any(w not in data["weapons"] for w in chosen):
            return f"weapons you carry ({', '.join(data['weapons'])})"
        hands = sum(weapons[w].hands for w in chosen)
        return None if hands <= 2 else f"what fits in two hands (WL-20); these need {hands}"

    if data["weapons"]:
        data["in_hand"] = split(ask("In hand at the start, comma-separated", data["weapons"][0], fits))
    data["trained_witcher"] = ask_yes("Trained witcher (draws from the back for free)", False)
    return _finish(data)
