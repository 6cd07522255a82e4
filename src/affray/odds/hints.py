"""Odds shown beside the choices at the ``--play`` prompt, computed from the seat's view only.

Each ruleset may register a function ``(view, specs) -> [hint per spec]``; a hint is a short text such as
``hit 46% · avg loss 1.2``. The numbers come from the same exact odds functions as ``affray odds``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from affray.core.engine import ActionSpec

Hinter = Callable[[dict[str, Any], Sequence[ActionSpec]], list[str]]


def _hud_mods(att: dict[str, Any], dfn: dict[str, Any]) -> tuple[int, int, int, int]:
    """Attack, Defense, Damage and Injury modifiers as the view shows them (ruling WL-B2)."""
    held = [att["carried"][w] for w in att["in_hand"]]
    melee = [w for w in held if w["kind"] == "melee"] if att["place"] == dfn["place"] else []
    arm = max(melee or [w for w in held if w["kind"] == "ranged"] or [{"attack": 0, "damage": 0}],
              key=lambda w: (w["attack"], w["damage"]))
    defense = sum(dfn["carried"][w]["defense"] for w in dfn["in_hand"]) + dfn["penalty"]
    return (arm["attack"] - att["armour_penalty"] + att["penalty"], defense, arm["damage"] + att["penalty"],
            dfn["injury"] + dfn["penalty"])


def _hud(view: dict[str, Any], specs: Sequence[ActionSpec]) -> list[str]:
    from affray.odds.dist import mean
    from affray.odds.hud import exchange_odds

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


# -- WitchHammer: each Action card's first attack against the nearest foe --------------------------------
def _chebyshev(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _wh_card(view: dict[str, Any], me: dict[str, Any], foe: dict[str, Any], card_id: str) -> str:
    """``hit 85% · solid 40%`` for the card's first attack against ``foe`` (its face-down card unknown: only
    a revealed card's Defense counts), or why it cannot reach. Rules: WH-11..WH-16."""
    from affray.odds.witchhammer import attack_odds
    from affray.rulesets.witchhammer.mechanics import RANGES

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


def _witchhammer(view: dict[str, Any], specs: Sequence[ActionSpec]) -> list[str]:
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


def _warp_attack(view: dict[str, Any], me: dict[str, Any], action: dict[str, Any]) -> str:
    from affray.odds.dist import mean
    from affray.odds.warp import Armour, attack_odds

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


def _warp(view: dict[str, Any], specs: Sequence[ActionSpec]) -> list[str]:
    me = view["fighters"][view["acting"]]
    out = []
    for spec in specs:
        a = spec.action
        melee = a["type"] == "attack" and a.get("mode") == "melee" and me["stats"] is not None
        out.append(_warp_attack(view, me, a) if melee else "")
    return out


# -- Spellchrome: Defense and damage of an attack; a Heal check to stabilise ------------------------------
def _spellchrome(view: dict[str, Any], specs: Sequence[ActionSpec]) -> list[str]:
    """The view shows the target's Defense and the weapon's dice but not the attacker's ability modifiers, so
    an attack's hint is its Defense and mean damage; first aid shows the chance of the DC 15 Heal check
    (SC-06), which the view does show."""
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


HINTERS: dict[str, Hinter] = {"hud": _hud, "witchhammer": _witchhammer, "warp": _warp, "spellchrome": _spellchrome}


def hints(ruleset: str, view: dict[str, Any], specs: Sequence[ActionSpec]) -> list[str]:
    """A hint per spec ('' where there is none); never fails the prompt."""
    hinter = HINTERS.get(ruleset)
    if hinter is None:
        return [""] * len(specs)
    try:
        return hinter(view, specs)
    except (KeyError, TypeError, ValueError):
        return [""] * len(specs)
