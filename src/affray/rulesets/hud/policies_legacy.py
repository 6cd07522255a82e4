# TEMPORARY until the core contract of issue 11 lands (policies on the dict view); removed then.
"""A heuristic policy for the Sim HuD, working only from the seat's view.

Combat Nerdified: strike the weakest foe it can reach, keep about one defense per foe able to strike
back, close in on a near foe with the free move and charge a far one it cannot reach (never one it is engaged
with, WL-B13), take an emergency attack only to finish a defenceless foe (WL-17), always parry, riposte every
opening, and flee (disengage) only when badly hurt against a much healthier foe. Dice Simplified and Free
Form: roll the die with the better modifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import Action, ActionSpec
from affray.core.rng import RNG
from affray.rulesets.hud.mechanics import distance_band


def _me(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    actor = view["acting"]
    return actor, view["fighters"][actor]


def _foes(view: dict[str, Any], me: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(a, f) for a, f in view["fighters"].items() if not f["out"] and f["side"] != me["side"]]


def _held(f: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """Weapons of ``kind`` in hand."""
    return [f["carried"][w] for w in f["in_hand"] if f["carried"][w]["kind"] == kind]


def _pick(legal: Sequence[ActionSpec], wanted: Action) -> Action | None:
    for spec in legal:
        if spec.action == wanted:
            return spec.action
    return None


def _badly_hurt(me: dict[str, Any], foe: dict[str, Any]) -> bool:
    return bool(4 * me["hp"] <= me["max_hp"] and foe["hp"] > 2 * me["hp"])


class HudHeuristic:
    name = "heuristic"

    def choose(self, view: dict[str, Any], legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = view["pending"]["phase"]
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            return self._declare(view, legal)
        if phase == "emergency":
            return self._emergency(view, legal)
        if phase in ("defend", "follow", "parry", "pursuit"):
            return self._react(view, kinds, phase)
        return self._simplified(view, legal)

    def _declare(self, view: dict[str, Any], legal: Sequence[ActionSpec]) -> Action:
        _, me = _me(view)
        foes = _foes(view, me)
        ranged = bool(_held(me, "ranged"))
        bands = {a: distance_band(me["place"], me["band"], f["place"], f["band"]) for a, f in foes}
        reachable = [(a, f) for a, f in foes if bands[a] == "engaged" or ranged]
        threats = sum(1 for a, f in foes if bands[a] == "engaged" or _held(f, "ranged"))
        slots = me["actions"]
        defenses = min(slots - 1, max(1, threats)) if threats else 0
        near = [(a, f) for a, f in foes if bands[a] == "near"]
        plan: list[dict[str, Any]]
        if reachable:
            target = min(reachable, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan = [{"type": "attack", "target": target}] * (slots - defenses)
        elif near and not me["closed"]:  # WL-B13: the free 10 m move reaches a near foe
            target = min(near, key=lambda af: (af[1]["hp"], af[0]))[0]
            defenses = max(defenses, 1) if slots > 1 else 0
            plan = [{"type": "close", "target": target}] + [{"type": "attack", "target": target}] * (slots - defenses)
        else:  # a far foe: only a charge crosses the distance (WL-18), never on a foe it is engaged with
            target = min(foes, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan = [{"type": "charge", "target": target}] + [{"type": "defense"}] * (slots - 2)
            defenses = 0
        plan = plan + [{"type": "defense"}] * defenses
        choice = _pick(legal, {"type": "declare", "plan": plan, "additional": False})
        if choice is not None:
            return choice
        with_attack = [s.action for s in legal if any(i["type"] == "attack" for i in s.action["plan"])
                       and not s.action["additional"]]
        return with_attack[0] if with_attack else legal[0].action

    def _emergency(self, view: dict[str, Any], legal: Sequence[ActionSpec]) -> Action:
        """WL-17: an emergency attack only to finish a foe that has no defense left; else carry on."""
        for spec in legal:
            if spec.action["type"] == "emergency_attack":
                foe = view["fighters"][spec.action["target"]]
                if foe["hp"] <= 2 and foe["defenses"] == 0:
                    return spec.action
        return {"type": "carry_on"}

    def _react(self, view: dict[str, Any], kinds: set[str], phase: str) -> Action:
        actor, me = _me(view)
        ex = view["exchange"]
        if phase == "pursuit":
            return {"type": "shoot" if "shoot" in kinds else "chase"}
        other = ex["attacker"] if ex["defender"] == actor else ex["defender"]
        flee = _badly_hurt(me, view["fighters"][other]) and "disengage" in kinds
        if phase == "defend":
            if "defend" in kinds:
                return {"type": "defend"}
            hurt = 2 * me["hp"] <= me["max_hp"]
            return {"type": "emergency_defense" if hurt and "emergency_defense" in kinds else "take"}
        if flee:
            return {"type": "disengage"}
        if phase == "follow":
            return {"type": "damage"}
        return {"type": "riposte" if "riposte" in kinds else "pass"}

    def _simplified(self, view: dict[str, Any], legal: Sequence[ActionSpec]) -> Action:
        _, me = _me(view)
        kinds = {spec.action["type"] for spec in legal}
        if "respond" in kinds:
            defense = sum(me["carried"][w]["defense"] for w in me["in_hand"])
            return {"type": "respond", "die": "defense" if defense >= me["injury"] else "injury"}
        kind = "settle" if "settle" in kinds else "attack"
        foes = _foes(view, me)
        target = min(foes, key=lambda af: (af[1]["hp"], af[0]))[0]
        weapons = [me["carried"][w] for w in me["in_hand"]] or [{"attack": 0, "damage": 0}]
        attack = max(w["attack"] for w in weapons) - me["armour_penalty"]
        damage = max(w["damage"] for w in weapons)
        wanted = {"type": kind, "target": target, "die": "attack" if attack >= damage else "damage"}
        return _pick(legal, wanted) or legal[0].action


class HudSteady:
    """A fixed, predictable policy whose duels :mod:`affray.rulesets.hud.odds` solves exactly.

    Combat Nerdified: attack the weakest foe with every action but one, keep one defense; always defend when
    able (else take it), always riposte, always press on to the Damage phase, never disengage or take an
    additional action; chase a fleeing foe. Dice Simplified: roll the die with the better modifier.
    """

    name = "steady"

    def choose(self, view: dict[str, Any], legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = view["pending"]["phase"]
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            _, me = _me(view)
            foes = _foes(view, me)
            target = min(foes, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan = [{"type": "attack", "target": target}] * (me["actions"] - 1) + [{"type": "defense"}]
            return _pick(legal, {"type": "declare", "plan": plan, "additional": False}) or legal[0].action
        if phase == "emergency":
            return {"type": "carry_on"}
        for choice in ("defend", "riposte", "damage", "chase"):
            if choice in kinds:
                return {"type": choice}
        if phase in ("defend", "parry"):
            return {"type": "take" if phase == "defend" else "pass"}
        return HudHeuristic()._simplified(view, legal)
