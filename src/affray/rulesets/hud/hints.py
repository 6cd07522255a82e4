"""Odds shown beside the choices at the prompt, computed from the seat's view only (see :mod:`affray.odds.hints`).

``hints(view, specs)`` gives a short text per legal action; the numbers come from the same exact odds functions as
``affray odds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import ActionSpec
from affray.core.policy import as_dict_view


def _hud_mods(att: dict[str, Any], dfn: dict[str, Any]) -> tuple[int, int, int, int]:
    """Attack, Defense, Damage and Injury modifiers as the view shows them (ruling WL-B2)."""
    held = [att["carried"][w] for w in att["in_hand"]]
    melee = [w for w in held if w["kind"] == "melee"] if att["place"] == dfn["place"] else []
    arm = max(melee or [w for w in held if w["kind"] == "ranged"] or [{"attack": 0, "damage": 0}],
              key=lambda w: (w["attack"], w["damage"]))
    defense = sum(dfn["carried"][w]["defense"] for w in dfn["in_hand"]) + dfn["penalty"]
    return (arm["attack"] - att["armour_penalty"] + att["penalty"], defense, arm["damage"] + att["penalty"],
            dfn["injury"] + dfn["penalty"])


def hints(view: Any, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    view = as_dict_view(view, actor)  # transitional (issue 11): the hints still read the old dict view
    from affray.odds.dist import mean
    from affray.rulesets.hud.odds import exchange_odds

    me = view["acting"]
    fighters = view["fighters"]

    def odds(att: str, dfn: str, defended: bool = True, attack: int = 0, damage: int = 0) -> str:
        a, d, g, i = _hud_mods(fighters[att], fighters[dfn])
        ex = exchange_odds(a + attack, d, g + damage, i)
        if not defended:
            return f"avg loss {float(mean(ex.loss_on_hit)):.1f}"
        return f"hit {float(ex.p_hit):.0%} · avg loss {float(mean(ex.hp_loss)):.1f}"

    ex = view.get("exchange")
    out = []
    for spec in specs:
        kind = spec.action["type"]
        if kind == "declare":
            extra = -2 if spec.action["additional"] else 0  # WL-17, on Attack and Damage alike (WL-B11)
            parts = [f"vs {fighters[i['target']]['name']}: " + (odds(me, i["target"], True, extra - 4, extra + 2)
                     if i["type"] == "charge" else odds(me, i["target"], True, extra, extra))
                     for i in spec.action["plan"] if i["type"] in ("attack", "charge")]
            out.append("; ".join(dict.fromkeys(parts)))
        elif ex is not None and kind in ("defend", "emergency_defense"):
            out.append(f"{fighters[ex['attacker']]['name']}: {odds(ex['attacker'], me)}")
        elif ex is not None and kind == "take":
            out.append(odds(ex["attacker"], me, defended=False))
        elif ex is not None and kind == "riposte":
            out.append(odds(me, ex["attacker"]))
        else:
            out.append("")
    return out
