"""WaRP's interactive character builder (``affray character new warp``), through
:class:`~affray.characters.prompts.Prompts`."""

from __future__ import annotations

from collections.abc import Mapping

from affray.characters.prompts import Prompts, finish
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG
from affray.rulesets.warp.sheet import WarpSheet


def build(p: Prompts, lib: ContentLibrary, rng: VerifiableRNG) -> WarpSheet:
    """WR-03: a central trait, two side traits, one superior, a flaw; WR-B9: 21 hit points unless said."""
    data = p.header("warp")
    all_traits = lib.sections.get("traits", {})
    traits = {k: t for k, t in all_traits.items() if not t.flaw}
    flaws = {k: t for k, t in all_traits.items() if t.flaw}
    p.show(
        "Traits (3 dice; 4 when superior)",
        ("id", "name", "rolls"),
        [(k, t.name, ", ".join(t.uses)) for k, t in sorted(traits.items())],
    )
    central = p.ask_id("Central trait", traits)
    first = p.ask("First side trait", check=lambda t: _other(t, traits, [central]))
    second = p.ask("Second side trait", check=lambda t: _other(t, traits, [central, first]))
    three = {central: 1, first: 1, second: 1}
    data.update(
        central=central,
        side=[first, second],
        superior=p.ask_id("Superior trait (4 dice)", three, central),
        narrow=p.ask_ids("Narrow traits, comma-separated (4 dice, 6 if superior; blank for none)", three),
    )
    p.show(
        "Flaws", ("id", "name", "penalty die on"), [(k, t.name, ", ".join(t.affects)) for k, t in sorted(flaws.items())]
    )
    data.update(
        flaw=p.ask_id("Flaw", flaws),
        hp=p.ask_int("Hit points", 1, 200, 21),
        experience=p.ask_int("Experience Pool dice", 0, 30, 0),
    )
    weapons = lib.sections.get("weapons", {})
    data["weapons"] = p.ask_ids(f"Weapons, comma-separated ({', '.join(sorted(weapons))})", weapons)
    if len(data["weapons"]) > 1:
        data["wielding"] = p.ask_id("In hand at the start", dict.fromkeys(data["weapons"], 1), data["weapons"][0])
    data["armour"] = p.ask_ids(
        f"Armour layers, innermost first ({', '.join(sorted(lib.sections.get('armour', {})))})",
        lib.sections.get("armour", {}),
    )
    sheet = finish(data)
    assert isinstance(sheet, WarpSheet)  # the header names WaRP
    return sheet


def _other(text: str, known: Mapping[str, object], taken: list[str]) -> str | None:
    if text not in known:
        return f"one of {', '.join(sorted(known))}"
    return f"'{text}' is taken already: three different traits" if text in taken else None
