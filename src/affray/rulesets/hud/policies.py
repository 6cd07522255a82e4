"""A heuristic policy for the Sim HuD, working only from the seat's view.

Combat Nerdified: strike the weakest foe it can reach, keep about one defense per foe able to strike
back, charge an archer it cannot reach, always parry, riposte every opening, and flee (disengage) only
when badly hurt against a much healthier foe. Dice Simplified and Free Form: roll the die with the better
modifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import Action, ActionSpec
from affray.core.policy import as_dict_view
from affray.core.rng import RNG


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

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        phase = view["pending"]["phase"]
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            return self._declare(view, legal)
        if phase in ("defend", "follow", "parry", "pursuit"):
            return self._react(view, kinds, phase)
        return self._simplified(view, legal)

    def _declare(self, view: dict[str, Any], legal: Sequence[ActionSpec]) -> Action:
        _, me = _me(view)
        foes = _foes(view, me)
        ranged = bool(_held(me, "ranged"))
        reachable = [(a, f) for a, f in foes if f["place"] == me["place"] or ranged]
        threats = sum(1 for _, f in foes if f["place"] == me["place"] or _held(f, "ranged"))
        slots = me["actions"]
        defenses = min(slots - 1, max(1, threats)) if threats else 0
        if reachable:
            target = min(reachable, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan: list[dict[str, Any]] = [{"type": "attack", "target": target}] * (slots - defenses)
        else:
            target = min(foes, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan = [{"type": "charge", "target": target}] + [{"type": "defense"}] * (slots - 2)
            defenses = 0
        plan = plan + [{"type": "defense"}] * defenses
        choice = _pick(legal, {"type": "declare", "plan": plan, "additional": False})
        if choice is not None:
            return choice
        with_attack = [s.action for s in legal if any(i["type"] in ("attack", "charge") for i in s.action["plan"])
                       and not s.action["additional"]]
        return with_attack[0] if with_attack else legal[0].action

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

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        phase = view["pending"]["phase"]
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            _, me = _me(view)
            foes = _foes(view, me)
            target = min(foes, key=lambda af: (af[1]["hp"], af[0]))[0]
            plan = [{"type": "attack", "target": target}] * (me["actions"] - 1) + [{"type": "defense"}]
            return _pick(legal, {"type": "declare", "plan": plan, "additional": False}) or legal[0].action
        for choice in ("defend", "riposte", "damage", "chase"):
            if choice in kinds:
                return {"type": choice}
        if phase in ("defend", "parry"):
            return {"type": "take" if phase == "defend" else "pass"}
        return HudHeuristic()._simplified(view, legal)
