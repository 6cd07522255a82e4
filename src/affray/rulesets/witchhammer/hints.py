"""Odds shown beside the choices at the prompt, computed from the seat's typed view only (see
:mod:`affray.odds.hints`).

``hints(view, actor, specs)`` gives a short text per legal action: each card's first attack against the nearest
foe, with the numbers of the same exact odds function as ``affray odds witchhammer attack`` and the ruleset's own
Defense rule (:func:`~affray.rulesets.witchhammer.mechanics.defense_against` through ``attack_odds``).
"""

from __future__ import annotations

from collections.abc import Sequence

from affray.core.engine import ActionSpec
from affray.core.fields import text, texts
from affray.core.view import CombatantView, View
from affray.rulesets.witchhammer.mechanics import RANGES
from affray.rulesets.witchhammer.odds import attack_odds
from affray.rulesets.witchhammer.view_types import WitchHammerCombatantDetail
from affray.rulesets.witchhammer.views import WitchHammerView

Combatant = CombatantView[WitchHammerCombatantDetail]


def _at(c: Combatant) -> tuple[int, int]:
    assert c.position is not None
    return int(c.position.x), int(c.position.y)


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def card_hint(view: WitchHammerView, me: Combatant, foe: Combatant, card_id: str) -> str:
    """``hit 85% · solid 40%`` for the card's first attack against ``foe`` (its face-down card unknown: only a
    revealed card's Defense counts), or why it cannot reach. Rules: WH-11..WH-16, WH-12 (the foe's Malus)."""
    card = view.detail.cards.get(card_id)
    if card is None:
        return ""
    gap = _chebyshev(_at(me), _at(foe))
    mine, theirs = me.detail.stats, foe.detail.stats
    my, their = me.detail.combat, foe.detail.combat
    for node in card.nodes():
        if node["type"] == "move":
            step = node["distance"] + my.mods.move
            gap = max(1, gap - step) if node["direction"] == "toward" else gap + step
            continue
        if node["type"] != "attack":
            continue
        if gap > RANGES[node["range"]]:
            return f"{card.name}: {foe.name} out of reach"
        shown = view.detail.cards.get(their.card) if their.card else None
        aspects = node["aspects"]
        aspect = sum(
            theirs.defenses.get(a, 0) + their.mods.defenses.get(a, 0) + (shown.defenses.get(a, 0) if shown else 0)
            for a in aspects
            if a != "melee"
        )
        normal = theirs.defense + their.mods.defense + (shown.defense if shown else 0)
        damage = [n["amount"] for n in node["on_hit"] if n["type"] == "damage" and n["to"] == "target"]
        solid = [n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage" and n["to"] == "target"]
        odds = attack_odds(
            node["attack"] + mine.attack + my.mods.attack + my.malus,
            normal,
            melee="melee" in aspects,
            aspect_defense=aspect,
            on_hit=sum(damage),
            solid_bonus=mine.solid_damage + sum(solid),
            target_malus=their.malus,
        )
        return f"{card.name} hit {float(odds.p_hit):.0%} · solid {float(odds.p_solid_hit):.0%}"
    return ""


def hints(view: WitchHammerView, actor: str, specs: Sequence[ActionSpec]) -> list[str]:
    """A hint per spec: for each card it places, the card's first attack against the nearest foe."""
    if not isinstance(view, View):
        raise TypeError(f"a typed WitchHammer view, not {type(view).__name__}")
    me = view.combatant(actor)
    foes = [c for c in view.combatants if not c.down and c.side != me.side]
    if not foes:
        return [""] * len(specs)
    foe = min(foes, key=lambda c: _chebyshev(_at(me), _at(c)))
    out = []
    for spec in specs:
        action = spec.action
        cards = texts(action, "cards") if action.get("cards") else [text(action, "card")] if action.get("card") else []
        parts = [p for p in (card_hint(view, me, foe, c) for c in cards) if p]
        aimed = any("hit" in p for p in parts)
        out.append("; ".join(parts) + (f" (vs {foe.name})" if aimed else ""))
    return out
