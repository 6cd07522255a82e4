"""The Sim HuD's interactive character builder (``affray character new hud``), through
:class:`~affray.characters.prompts.Prompts`."""

from __future__ import annotations

from affray.characters.prompts import Prompts, finish, split
from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG
from affray.rulesets.hud.sheet import HudSheet


def build(p: Prompts, lib: ContentLibrary, rng: VerifiableRNG) -> HudSheet:
    """WL-03 stats (WL-B2 ranges), armour and weapons as recorded in the HuD."""
    data = p.header("hud")
    data["stats"] = {
        "endurance": p.ask_int("Endurance (3-10; your HP in Combat Nerdified)", 3, 10, 6),
        "agility": p.ask_int("Agility (0-5)", 0, 5, 0),
        "strength": p.ask_int("Strength (0-5)", 0, 5, 0),
    }
    armour, weapons = lib.sections.get("armour", {}), lib.sections.get("weapons", {})
    p.show("Armour (WL-03)", ("id", "name", "weight"), [(k, a.name, a.weight) for k, a in sorted(armour.items())])
    worn = p.ask_id("Armour (id)", armour, blank=True)
    if worn:
        data["armour"] = worn
    p.show(
        "Weapons",
        ("id", "name", "kind", "hands"),
        [(k, w.name, w.kind, str(w.hands)) for k, w in sorted(weapons.items())],
    )
    data["weapons"] = p.ask_ids("Weapons, comma-separated", weapons)

    def fits(text: str) -> str | None:
        chosen = split(text)
        if any(w not in data["weapons"] for w in chosen):
            return f"weapons you carry ({', '.join(data['weapons'])})"
        hands = sum(weapons[w].hands for w in chosen)
        return None if hands <= 2 else f"what fits in two hands (WL-20); these need {hands}"

    if data["weapons"]:
        data["in_hand"] = split(p.ask("In hand at the start, comma-separated", data["weapons"][0], fits))
    data["trained_witcher"] = p.ask_yes("Trained witcher (draws from the back for free)", False)
    sheet = finish(data)
    assert isinstance(sheet, HudSheet)  # the header names the HuD
    return sheet
