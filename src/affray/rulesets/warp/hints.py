"""Odds shown beside the choices at the prompt, computed from the seat's view only (see :mod:`affray.odds.hints`).

``hints(view, specs)`` gives a short text per legal action; the numbers come from the same exact odds functions as
``affray odds``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.core.engine import ActionSpec
from affray.core.policy import as_dict_view


# -- WaRP: a melee attack's hit chance and mean damage -----------------------------------------------------
def _warp_pool(f: dict[str, Any], trait: str | None, use: str) -> tuple[int, int, int]:
    """Dice, bonus and penalty dice of ``f``'s roll with ``trait`` as its view shows them (WR-03, WR-20,
    WR-24): Messed Up, armour on agility-related rolls (a roll without a trait counts as one, WR-X12), flaws."""
    stats = f["stats"]
    info = stats["traits"].get(trait) if trait else None
    agile = info["agility"] if info else True
    penalty = int(f["messed_up"]) + (stats["protection"]["penalty_dice"] if agile else 0)
    penalty += sum(1 for fl in stats["flaws"] if use in fl["affects"] or "all" in fl["affects"]
                   or (agile and "agility" in fl["affects"]))
    return (info["dice"] if info else 2), 0, penalty + (1 if f["held_by"] else 0)


def _warp_attack(view: Mapping[str, Any], me: dict[str, Any], action: dict[str, Any]) -> str:
    from affray.odds.dist import mean
    from affray.rulesets.warp.odds import Armour, attack_odds

    foe = view["fighters"][action["target"]]
    weapon = me["stats"]["weapons"][action["weapon"]]
    dice, bonus, penalty = _warp_pool(me, action.get("trait"), "melee")
    bonus += action.get("experience", 0) + int(weapon["handiness"] > foe["weapon"]["handiness"])
    bonus += int(foe["prone"] and not me["prone"])
    note = ""
    if foe["stats"] is not None:
        defenders = [t for t, info in foe["stats"]["traits"].items() if "defense" in info["uses"]]
        top = max(defenders, key=lambda t: foe["stats"]["traits"][t]["dice"], default=None)
        d_dice, _, d_penalty = _warp_pool(foe, top, "defense")
        p = foe["stats"]["protection"]
        armour = Armour(p["dice"], p["flat"], p["bullet_dice"])
    else:  # a GM character's sheet is hidden: assume a typical trait and say so (WR-03)
        d_dice, d_penalty, armour = 3, int(foe["messed_up"]), Armour()
        note = " if it defends with 3 dice, before armour"
    special = action["maneuver"] in view["special_maneuvers"]
    odds = attack_odds(dice, d_dice, attack_bonus=bonus, attack_penalty=penalty, defense_penalty=d_penalty,
                       factor=weapon["melee"] or 0, armour=armour, special=special)
    return f"hit {float(odds.p_hit):.0%} · avg {float(mean(odds.damage)):.1f}{note}"


def hints(view: Any, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    view = as_dict_view(view, actor)  # transitional (issue 11): the hints still read the old dict view
    me = view["fighters"][view["acting"]]
    out = []
    for spec in specs:
        a = spec.action
        melee = a["type"] == "attack" and a.get("mode") == "melee" and me["stats"] is not None
        out.append(_warp_attack(view, me, a) if melee else "")
    return out
