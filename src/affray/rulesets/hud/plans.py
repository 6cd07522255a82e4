"""Declaring a round's actions in Combat Nerdified: checking a plan, and listing the usual plans.

A plan is the ordered list of a combatant's actions for the round (WL-10), declared in the open from
the lowest initiative up (WL-09). Costs: attack, defense, rearm, pick up and a complex activity take 1
action; a charge takes 2 (WL-18); a draw takes 0 or 1 (WL-20); the free 10 m move (``close``) takes none
(WL-10); an emergency rearm drops every weapon in hand for free but pays the draw's cost, and a pick-up with full
hands sheathes what must make room (WL-19, WL-20, ruling WL-B15, option
``emergency_rearm_draw_cost``). The costs must add up to the combatant's actions for the round, plus one with
an additional action (WL-17, WL-B6). Distance is real (WL-B13): ``close`` reaches a near foe only, a charge is
how a far foe is reached, and a charge on a foe one is engaged with is refused.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from affray.core.engine import Action, ActionSpec, Rejected
from affray.core.fields import text
from affray.core.json import Json, JsonObject
from affray.core.memo import Memo
from affray.rulesets.hud.mechanics import distance_band, draw_cost, emergency_rearm_cost
from affray.rulesets.hud.state import Fighter, HudState

ITEM_TYPES = ("attack", "defense", "charge", "rearm", "draw", "emergency_rearm", "pick_up", "close", "complex")
MAX_LISTED_PLANS = 150
DECLARE_FREE = ("plan", "additional")  # any plan the rules allow may be declared (so no plan list is capped)
MAX_PLAN_ITEMS = 12  # a bound for clients and schemas: no real plan comes near it (six actions, free moves and draws)
MAX_ITEM_TEXT = 500


@dataclass(slots=True)
class Sketch:
    """Where a combatant would stand and what it would hold, part-way through its plan."""

    place: int
    band: str
    hand: list[str]
    dropped: dict[str, int]
    closed: bool = False
    notes: list[str] = field(default_factory=list)


def sketch_of(f: Fighter) -> Sketch:
    return Sketch(
        f.place,
        f.band,
        [a.id for a in f.arms.values() if a.location == "hand"],
        {a.id: a.place for a in f.arms.values() if a.location == "dropped"},
        f.closed,
    )


def _hands(f: Fighter, ids: list[str]) -> int:
    return sum(f.arms[i].hands for i in ids)


def _make_room(f: Fighter, sk: Sketch, weapon: str, leaving: list[str] | None = None) -> list[str]:
    """What leaves the hand so ``weapon`` fits, beyond ``leaving``: weapons first, the shield last (rearm, WL-19)."""
    need = f.arms[weapon].hands
    leaving = list(leaving or [])
    for held in sorted(sk.hand, key=lambda i: f.arms[i].kind == "shield"):
        if 2 - _hands(f, [h for h in sk.hand if h not in leaving]) >= need:
            break
        if held not in leaving:
            leaving.append(held)
    return leaving


def _dropping(f: Fighter, sk: Sketch, weapon: str) -> list[str]:
    """What an emergency rearm drops: every weapon in hand ("dropping the weapon in hand on the ground"), and the
    shield on the arm only if ``weapon`` needs its hand. Rules: WL-19, WL-B15."""
    return _make_room(f, sk, weapon, [h for h in sk.hand if f.arms[h].kind != "shield"])


def weapon_step(f: Fighter, sk: Sketch, item: JsonObject, draw_priced: bool = True) -> Rejected | int:
    """Check one draw/rearm/emergency rearm/pick-up on ``sk`` and apply it there; return its cost.

    ``draw_priced``: an emergency rearm pays the draw's cost (option ``emergency_rearm_draw_cost``, WL-19)."""
    kind, weapon = item["type"], item.get("weapon")
    if not isinstance(weapon, str) or weapon not in f.arms:
        return Rejected("no_such_weapon", f"{f.name} carries no weapon called '{weapon}'.")
    if kind == "pick_up":
        if weapon not in sk.dropped:
            return Rejected("weapon_not_dropped", f"{weapon} is not lying on the ground.")
        if sk.dropped[weapon] != sk.place:
            return Rejected("not_next_to_weapon", f"{f.name} must be next to {weapon} to pick it up.")
        del sk.dropped[weapon]  # full hands sheathe what must make room, as a rearm does (WL-B15)
        sk.hand = [h for h in sk.hand if h not in _make_room(f, sk, weapon)] + [weapon]
        return 1
    if weapon in sk.dropped:
        return Rejected("weapon_dropped", f"{weapon} lies on the ground; pick it up first.")
    if weapon in sk.hand:
        return Rejected("already_in_hand", f"{weapon} is already in hand.")
    arm = f.arms[weapon]
    if kind == "draw":
        if 2 - _hands(f, sk.hand) < arm.hands:
            return Rejected("hands_full", f"{f.name}'s hands are full; rearm instead of drawing {weapon}.")
        sk.hand.append(weapon)
        return draw_cost(arm.hands, arm.kind, arm.carry, "stowed", f.trained_witcher)
    leaving = _dropping(f, sk, weapon) if kind == "emergency_rearm" else _make_room(f, sk, weapon)
    sk.hand = [h for h in sk.hand if h not in leaving] + [weapon]
    if kind == "emergency_rearm":
        sk.dropped.update({h: sk.place for h in leaving})
        return emergency_rearm_cost(arm.hands, arm.kind, arm.carry, f.trained_witcher, draw_priced)
    return 1


def _target_item(state: HudState, f: Fighter, sk: Sketch, item: JsonObject) -> Rejected | int:
    kind, target = item["type"], item.get("target")
    foe = state.fighters.get(target) if isinstance(target, str) else None
    if foe is None or foe.out or foe.side == f.side:
        return Rejected("bad_target", f"'{target}' is not a foe still in the fight.")
    band = distance_band(sk.place, sk.band, foe.place, foe.band)
    if kind == "close":
        if sk.closed:
            return Rejected("already_moved", f"{f.name} has used the free 10 m move this round.")
        if band != "near":
            return Rejected(
                "already_engaged" if band == "engaged" else "too_far",
                f"{f.name} is already engaged with {foe.name}."
                if band == "engaged"
                else f"{foe.name} is far: the free 10 m move does not cross that distance; charge instead.",
            )
        sk.closed, sk.place, sk.band = True, foe.place, foe.band
        return 0
    if kind == "charge":
        if band == "engaged":
            return Rejected(
                "already_engaged", f"{f.name} is already engaged with {foe.name}: attack instead of charging."
            )
        sk.place, sk.band = foe.place, foe.band
        return 2
    ranged = any(f.arms[h].kind == "ranged" for h in sk.hand)
    if sk.place != foe.place and not ranged:
        return Rejected("out_of_reach", f"{foe.name} is out of reach: close in, charge, or draw a ranged weapon.")
    return 1


def _short_text(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_ITEM_TEXT


def plan_cost(state: HudState, f: Fighter, plan: list[Json]) -> Rejected | int:
    """Check ``plan`` item by item against what ``f`` would hold and where it would stand; return its cost."""
    sk, total = sketch_of(f), 0
    for item in plan:
        if not isinstance(item, dict) or item.get("type") not in ITEM_TYPES:
            kinds = ", ".join(ITEM_TYPES)
            return Rejected("unknown_action_type", f"A declared action must be one of: {kinds}.")
        kind = item["type"]
        if kind in ("attack", "charge", "close"):
            cost = _target_item(state, f, sk, item)
        elif kind in ("rearm", "draw", "emergency_rearm", "pick_up"):
            cost = weapon_step(f, sk, item, state.options.emergency_rearm_draw_cost)
        elif kind == "complex" and not _short_text(item.get("text", "")):
            return Rejected("bad_text", f"A complex activity is described in at most {MAX_ITEM_TEXT} characters.")
        else:
            cost = 1
        if isinstance(cost, Rejected):
            return cost
        total += cost
    return total


def check_declaration(state: HudState, f: Fighter, action: Action) -> Rejected | None:
    """Validate a ``declare`` action completely (contract 2). Rules: WL-10, WL-17, WL-18, WL-B6."""
    plan, additional = action.get("plan"), action.get("additional", False)
    if not isinstance(plan, list) or not isinstance(additional, bool):
        return Rejected("bad_action", 'A declaration is {"type": "declare", "plan": [...], "additional": false}.')
    if len(plan) > MAX_PLAN_ITEMS:
        return Rejected("plan_too_long", f"A plan has at most {MAX_PLAN_ITEMS} items.")
    if additional and f.additional_used >= state.options.max_additional_actions:
        return Rejected("no_additional_action", f"{f.name} cannot take another additional action this round.")
    slots = f.actions + (1 if additional else 0)
    if any(isinstance(i, dict) and i.get("type") == "charge" for i in plan) and slots < 2:
        return Rejected("charge_needs_two_actions", "A charge costs two actions.")
    cost = plan_cost(state, f, plan)
    if isinstance(cost, Rejected):
        return cost
    if cost != slots:
        if any(isinstance(i, dict) and i.get("type") == "charge" for i in plan) and cost > slots:
            return Rejected(
                "charge_needs_two_actions",
                f"A charge costs two actions; {f.name} has {slots} and the rest of the plan needs some of them.",
            )
        return Rejected(
            "wrong_action_count", f"{f.name} declares {slots} action(s) this round; this plan costs {cost}."
        )
    return None


def _label(names: dict[str, str], plan: list[JsonObject], additional: bool) -> str:
    parts = []
    for item in plan:
        kind, target = text(item, "type"), item.get("target")
        parts.append(
            f"{kind} {names[text(item, 'target')]}"
            if target
            else f"{kind} {item['weapon']}"
            if "weapon" in item
            else kind
        )
    return ("+1 action (-2): " if additional else "") + ", ".join(parts)


def _basic_items(foes: list[Fighter], f: Fighter, sk: Sketch) -> list[JsonObject]:
    """Attacks on every foe reachable from where the sketch stands with what it holds, and a defense."""
    ranged = any(f.arms[h].kind == "ranged" for h in sk.hand)
    items: list[JsonObject] = [{"type": "attack", "target": e.id} for e in foes if e.place == sk.place or ranged]
    items.append({"type": "defense"})
    return items


def _prefixes(f: Fighter, foes: list[Fighter]) -> list[JsonObject]:
    """Single preparatory items: the free move, a weapon change, a pick-up."""
    out: list[JsonObject] = [{"type": "close", "target": e.id} for e in foes if e.place != f.place and not f.closed]
    for w, arm in f.arms.items():
        if arm.location == "stowed":
            out += [{"type": t, "weapon": w} for t in ("draw", "rearm", "emergency_rearm")]
        elif arm.location == "dropped" and arm.place == f.place:
            out.append({"type": "pick_up", "weapon": w})
    return out


def legal_plans(state: HudState, f: Fighter, memo: Memo | None = None) -> list[ActionSpec]:
    """:func:`usual_plans`, kept in the match's memo while everything they depend on stays the same: they repeat
    round after round, and after a pursuit in a new place. The key holds the fighter's actions and what is in
    hand or lying at its feet, and the range band to each foe (the plans name no place)."""
    if memo is None:
        return usual_plans(state, f)
    foes = tuple(
        (e.id, distance_band(f.place, f.band, e.place, e.band))
        for e in state.fighters.values()
        if not e.out and e.side != f.side
    )
    arms = tuple((a.location, a.place == f.place) for a in f.arms.values())
    key = (f.actions, f.additional_used, f.closed, foes, arms)
    return memo.keyed(("hud-plans", f.id), key, lambda: usual_plans(state, f))


def usual_plans(state: HudState, f: Fighter) -> list[ActionSpec]:
    """The usual plans, each valid by construction (the conformance suite submits them): every sequence
    of attacks and defenses, a charge, one preparatory item followed by attacks and defenses, and the
    attack/defense sequences with an additional action while the list stays short. Any other valid plan
    may still be declared (the plan is a free parameter)."""
    foes = state.enemies(f.id)
    names = {a: x.name for a, x in state.fighters.items()}
    specs: list[ActionSpec] = []
    extra_note = ("-2 to all rolls this round",)

    def labelled(items: list[JsonObject]) -> list[tuple[JsonObject, str]]:
        return [(i, _label(names, [i], False)) for i in items]

    def add(plan: tuple[tuple[JsonObject, str], ...], additional: bool) -> None:
        if len(specs) < MAX_LISTED_PLANS:
            label = ", ".join(part for _, part in plan)
            specs.append(
                ActionSpec(
                    {"type": "declare", "plan": [i for i, _ in plan], "additional": additional},
                    "+1 action (-2): " + label if additional else label,
                    extra_note if additional else (),
                    DECLARE_FREE,
                    ("penalty",) if additional else (),
                )
            )  # the note's code (ActionSpec.warnings)

    basic = labelled(_basic_items(foes, f, sketch_of(f)))
    extra_ok = f.additional_used < state.options.max_additional_actions
    defense = basic[-1]
    for additional in (False, True) if extra_ok else (False,):
        slots = f.actions + (1 if additional else 0)
        if additional and len(basic) ** slots > MAX_LISTED_PLANS:
            break
        for combo in itertools.product(basic, repeat=slots):
            add(combo, additional)
        if slots >= 2:
            for e in foes:
                if e.place != f.place:  # a charge from engaged is refused (WL-B13)
                    charge: JsonObject = {"type": "charge", "target": e.id}
                    add(((charge, _label(names, [charge], False)), *[defense] * (slots - 2)), additional)
    for item, label in labelled(_prefixes(f, foes)):
        sk = sketch_of(f)
        cost = (
            _target_item(state, f, sk, item)
            if "target" in item
            else weapon_step(f, sk, item, state.options.emergency_rearm_draw_cost)
        )
        if isinstance(cost, Rejected) or cost > f.actions:
            continue
        for combo in itertools.product(labelled(_basic_items(foes, f, sk)), repeat=f.actions - cost):
            add(((item, label), *combo), False)
    return specs
