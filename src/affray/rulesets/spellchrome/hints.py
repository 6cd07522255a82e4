"""Odds shown beside the choices at the prompt, computed from the seat's view only (see :mod:`affray.odds.hints`).

``hints(view, specs)`` gives a short text per legal action; the numbers come from the same exact odds functions as
``affray odds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import ActionSpec
from affray.core.policy import as_dict_view


# -- Spellchrome: Defense and damage of an attack; a Heal check to stabilise ------------------------------
def hints(view: Any, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    """The view shows the target's Defense and the weapon's dice but not the attacker's ability modifiers, so
    an attack's hint is its Defense and mean damage; first aid shows the chance of the DC 15 Heal check
    (SC-06), which the view does show."""
    view = as_dict_view(view, actor)  # transitional (issue 11): the hints still read the old dict view
    from affray.odds.dist import die, map_dists, mean, probability
    from affray.odds.notation import notation_dist
    from affray.rulesets.spellchrome.mechanics import D20, FIRST_AID_DC, check_succeeds
    from affray.rulesets.spellchrome.state import CLOSE_KINDS

    everyone = view["combatants"]
    me = everyone.get(view["acting"])
    out = []
    for spec in specs:
        a = spec.action
        if me is None or a["type"] not in ("attack", "full_attack", "first_aid"):
            out.append("")
            continue
        if a["type"] == "first_aid":
            heal: int = me["skills"].get("heal", 0)
            p = probability(map_dists(lambda n, h=heal: check_succeeds(n, h, FIRST_AID_DC), die(D20)), bool)
            out.append(f"stabilises {float(p):.0%}")
            continue
        weapon = me["weapons"][a.get("weapon", me["wielding"])]
        avg = float(mean(notation_dist(weapon["damage"])))
        strength = " + Str" if weapon["kind"] in CLOSE_KINDS else ""
        target = everyone[a["target"]]["defense"]
        out.append(f"vs Defense {target} · {weapon['damage']}{strength} (avg {avg:.1f}{strength})")
    return out
