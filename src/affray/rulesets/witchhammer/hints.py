"""Odds shown beside the choices at the prompt, computed from the seat's view only (see :mod:`affray.odds.hints`).

``hints(view, specs)`` gives a short text per legal action; the numbers come from the same exact odds functions as
``affray odds``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.core.engine import ActionSpec
from affray.core.policy import as_dict_view


# -- WitchHammer: each Action card's first attack against the nearest foe --------------------------------
def _chebyshev(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _wh_card(view: Mapping[str, Any], me: dict[str, Any], foe: dict[str, Any], card_id: str) -> str:
    """``hit 85% · solid 40%`` for the card's first attack against ``foe`` (its face-down card unknown: only
    a revealed card's Defense counts), or why it cannot reach. Rules: WH-11..WH-16."""
    from affray.rulesets.witchhammer.mechanics import RANGES
    from affray.rulesets.witchhammer.odds import attack_odds

    card = view["cards"].get(card_id)
    if card is None:
        return ""
    gap = _chebyshev(me["pos"], foe["pos"])
    for node in card["below"]:
        if node["type"] == "move":
            step = node["distance"] + me["mods"]["move"]
            gap = max(1, gap - step) if node["direction"] == "toward" else gap + step
            continue
        if node["type"] != "attack":
            continue
        if gap > RANGES[node["range"]]:
            return f"{card['name']}: {foe['name']} out of reach"
        shown = view["cards"].get(foe["card"]) if foe["card"] else None
        aspects = node["aspects"]
        aspect = sum(foe["defenses"].get(a, 0) + foe["mods"]["defenses"].get(a, 0)
                     + (shown["defenses"].get(a, 0) if shown else 0) for a in aspects if a != "melee")
        normal = foe["defense"] + foe["mods"]["defense"] + (shown["defense"] if shown else 0)
        damage = [n["amount"] for n in node["on_hit"] if n["type"] == "damage" and n["to"] == "target"]
        solid = [n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage" and n["to"] == "target"]
        odds = attack_odds(node["attack"] + me["attack"] + me["mods"]["attack"] + me["malus"], normal,
                           melee="melee" in aspects, aspect_defense=aspect, on_hit=sum(damage),
                           solid_bonus=me["solid_damage"] + sum(solid), target_malus=foe["malus"])
        return f"{card['name']} hit {float(odds.p_hit):.0%} · solid {float(odds.p_solid_hit):.0%}"
    return ""


def hints(view: Any, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    view = as_dict_view(view, actor)  # transitional (issue 11): the hints still read the old dict view
    me = view["fighters"][view["acting"]]
    foes = [f for f in view["fighters"].values() if not f["out"] and f["side"] != me["side"]]
    if not foes:
        return [""] * len(specs)
    foe = min(foes, key=lambda f: _chebyshev(me["pos"], f["pos"]))
    out = []
    for spec in specs:
        action = spec.action
        cards = action.get("cards") or ([action["card"]] if action.get("card") else [])
        parts = [p for p in (_wh_card(view, me, foe, c) for c in cards) if p]
        aimed = any("hit" in p for p in parts)
        out.append("; ".join(parts) + (f" (vs {foe['name']})" if aimed else ""))
    return out
