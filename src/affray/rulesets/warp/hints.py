"""Odds shown beside the choices at the prompt, computed from the seat's typed view only (see
:mod:`affray.odds.hints`).

``hints(view, actor, specs)`` gives a short text per legal action; the numbers come from the same exact odds
functions as ``affray odds``, and the dice of each roll from the ruleset's own rule functions
(:func:`~affray.rulesets.warp.rolls.agility_rule` and ``flaw_penalties`` for which rolls armour and flaws reach
under the match's options, WR-18, WR-20; ``better_weaponry``, WR-31), never re-derived here.
"""

from __future__ import annotations

from collections.abc import Sequence

from affray.core.engine import Action, ActionSpec
from affray.core.fields import maybe_text, text
from affray.core.view import CombatantView
from affray.rulesets.warp.mechanics import DEFAULT_DICE, better_weaponry
from affray.rulesets.warp.rolls import agility_rule, flaw_penalties
from affray.rulesets.warp.view_types import TraitView, WarpCombatantDetail, WarpDetail, WarpView

Fighter = CombatantView[WarpCombatantDetail]


def pool(rules: WarpDetail, f: Fighter, trait: TraitView | None, use: str) -> tuple[int, int, int]:
    """Dice, bonus and penalty dice of ``f``'s roll with ``trait`` as the view shows them (WR-03, WR-20, WR-24):
    Messed Up, armour and flaws on agility-related rolls, being held."""
    sheet = f.detail.sheet
    assert sheet is not None
    agile = agility_rule(rules.agility_rolls, rules.untrained_agility, None if trait is None else trait.agility, use)
    penalty = int(f.detail.messed_up) + (sheet.protection.penalty_dice if agile else 0)
    penalty += len(flaw_penalties(sheet.flaws, use, agile))
    return (trait.dice if trait else DEFAULT_DICE), 0, penalty + (1 if f.detail.held_by else 0)


def _melee_attack(view: WarpView, me: Fighter, action: Action) -> str:
    from affray.odds.dist import mean
    from affray.rulesets.warp.odds import Armour, attack_odds

    foe = view.combatant(text(action, "target"))
    sheet = me.detail.sheet
    assert sheet is not None
    weapon = sheet.weapon(text(action, "weapon"))
    trait = sheet.trait(maybe_text(action, "trait"))
    dice, bonus, penalty = pool(view.detail, me, trait, "melee")
    spend = action.get("experience", 0)
    bonus += (spend if isinstance(spend, int) else 0) + int(
        better_weaponry(weapon.handiness, foe.detail.weapon.handiness)
    )
    bonus += int(foe.detail.prone and not me.detail.prone)
    note = ""
    theirs = foe.detail.sheet
    if theirs is not None:
        defenders = [t for t in theirs.traits.values() if "defense" in t.uses]
        top = max(defenders, key=lambda t: t.dice, default=None)
        d_dice, _, d_penalty = pool(view.detail, foe, top, "defense")
        p = theirs.protection
        armour = Armour(p.dice, p.flat, p.bullet_dice)
    else:  # a GM character's sheet is hidden: assume a typical trait and say so (WR-03)
        d_dice, d_penalty, armour = 3, int(foe.detail.messed_up), Armour()
        note = " if it defends with 3 dice, before armour"
    special = action["maneuver"] in view.detail.special_maneuvers
    odds = attack_odds(
        dice,
        d_dice,
        attack_bonus=bonus,
        attack_penalty=penalty,
        defense_penalty=d_penalty,
        factor=weapon.factor("melee"),
        armour=armour,
        special=special,
    )
    return f"hit {float(odds.p_hit):.0%} · avg {float(mean(odds.damage)):.1f}{note}"


def hints(view: WarpView, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    me = view.combatant(actor)
    out = []
    for spec in specs:
        a = spec.action
        melee = a["type"] == "attack" and a.get("mode") == "melee" and me.detail.sheet is not None
        out.append(_melee_attack(view, me, a) if melee else "")
    return out
