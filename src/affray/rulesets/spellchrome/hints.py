"""Odds shown beside the choices at the prompt, computed from the seat's typed view only (see
:mod:`affray.odds.hints`).

``hints(view, actor, specs)`` gives a short text per legal action; the numbers come from the same exact odds
functions as ``affray odds`` and the ruleset's own mechanic functions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from affray.core.engine import ActionSpec
from affray.core.fields import maybe_text, text
from affray.core.view import View
from affray.rulesets.spellchrome.views import SpellchromeCombatantDetail, SpellchromeDetail


# -- Spellchrome: Defense and damage of an attack; a Heal check to stabilise ------------------------------
def hints(
    view: View[SpellchromeDetail, SpellchromeCombatantDetail], actor: str, specs: Sequence[ActionSpec]
) -> list[str]:
    """The view shows the target's Defense and the weapon's dice but not the attacker's ability modifiers, so
    an attack's hint is its Defense and mean damage; first aid shows the chance of the DC 15 Heal check
    (SC-06), which the view does show."""
    from affray.rulesets.spellchrome.state import CLOSE_KINDS

    everyone = view.by_id()
    me = everyone.get(actor)
    out = []
    for spec in specs:
        a = spec.action
        if me is None or a["type"] not in ("attack", "full_attack", "first_aid"):
            out.append("")
            continue
        if a["type"] == "first_aid":
            out.append(f"stabilises {_stabilises(me.detail.skills.get('heal', 0)):.0%}")
            continue
        weapon = me.detail.weapon(maybe_text(a, "weapon"))
        avg = _mean_damage(weapon.damage)
        strength = " + Str" if weapon.kind in CLOSE_KINDS else ""
        target = everyone[text(a, "target")].detail.defense
        out.append(f"vs Defense {target} · {weapon.damage}{strength} (avg {avg:.1f}{strength})")
    return out


# Each depends on one notation or one number only, and every attack or first aid of every seat's legal list asks for
# it again at every version of every table: worked out once each (a legal list's hints 0.065 -> 0.013 ms, measured
# over 300 lists of crossroads_2v2).
@functools.lru_cache(maxsize=256)
def _mean_damage(notation: str) -> float:
    """The mean of a damage notation's roll (the weapon's dice, before Strength)."""
    from affray.odds.dist import mean
    from affray.odds.notation import notation_dist

    return float(mean(notation_dist(notation)))


@functools.lru_cache(maxsize=64)
def _stabilises(heal: int) -> float:
    """The chance that a Heal check with modifier ``heal`` beats the first-aid DC (SC-06)."""
    from affray.odds.dist import die, map_dists, probability
    from affray.rulesets.spellchrome.mechanics import D20, FIRST_AID_DC, check_succeeds

    return float(probability(map_dists(lambda n: check_succeeds(n, heal, FIRST_AID_DC), die(D20)), bool))
