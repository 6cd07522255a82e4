"""Odds shown beside the choices at the prompt, computed from the seat's typed view only (see
:mod:`affray.odds.hints`).

``hints(view, actor, specs)`` gives a short text per legal action. The modifiers are the ruleset's own
(:mod:`affray.rulesets.hud.combat`: the weapon chosen, the armour penalty, the additional-action penalty and its
scope, the charge's -4 Attack and its +2 where option ``charge_bonus_to`` puts it), applied to the view's
combatant details and rule options; the odds come from the same exact functions as ``affray odds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from affray.core.engine import ActionSpec
from affray.core.fields import objects, text
from affray.rulesets.hud.combat import attack_arm, attack_modifier, damage_modifier, defense_modifier, injury_modifier
from affray.rulesets.hud.mechanics import ADDITIONAL_ACTION_PENALTY
from affray.rulesets.hud.views import HudCombatantDetail, HudView


def _odds(
    view: HudView, att: HudCombatantDetail, dfn: HudCombatantDetail, defended: bool = True, charge: bool = False
) -> str:
    from affray.odds.dist import mean
    from affray.rulesets.hud.odds import exchange_odds

    options = view.detail.options
    arm = attack_arm(att, dfn)
    ex = exchange_odds(
        attack_modifier(att, arm, charge),
        defense_modifier(dfn),
        damage_modifier(options, att, arm, charge),
        injury_modifier(options, dfn),
        options.riposte_margin,
    )
    if not defended:
        return f"avg loss {float(mean(ex.loss_on_hit)):.1f}"
    return f"hit {float(ex.p_hit):.0%} · avg loss {float(mean(ex.hp_loss)):.1f}"


def _declare_hint(view: HudView, me: HudCombatantDetail, spec: ActionSpec) -> str:
    """Odds of each attack or charge of a plan, from where the plan brings the attacker (a charge or the free move
    joins the target's place, WL-B13) and with the plan's additional-action penalty (WL-17)."""
    if spec.action.get("additional"):
        me = replace(me, penalty=me.penalty + ADDITIONAL_ACTION_PENALTY)
    parts = []
    for item in objects(spec.action, "plan"):
        if item["type"] not in ("attack", "charge", "close"):
            continue
        foe = view.combatant(text(item, "target"))
        if item["type"] != "attack":
            me = replace(
                me, place=foe.detail.place, band=foe.detail.band, charged=me.charged or item["type"] == "charge"
            )
        if item["type"] != "close":
            parts.append(f"vs {foe.name}: " + _odds(view, me, foe.detail, charge=item["type"] == "charge"))
    return "; ".join(dict.fromkeys(parts))


def hints(view: HudView, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    me = view.combatant(actor).detail
    ex = view.detail.exchange
    out = []
    for spec in specs:
        kind = spec.action["type"]
        if kind == "declare":
            out.append(_declare_hint(view, me, spec))
        elif ex is not None and kind in ("defend", "emergency_defense"):
            attacker = view.combatant(ex.attacker)
            out.append(f"{attacker.name}: {_odds(view, attacker.detail, me, charge=ex.kind == 'charge')}")
        elif ex is not None and kind == "take":
            out.append(_odds(view, view.combatant(ex.attacker).detail, me, False, ex.kind == "charge"))
        elif ex is not None and kind == "riposte":
            out.append(_odds(view, me, view.combatant(ex.attacker).detail))
        elif kind == "emergency_attack":
            out.append(_odds(view, me, view.combatant(text(spec.action, "target")).detail))
        else:
            out.append("")
    return out
