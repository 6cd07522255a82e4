"""Policies for the Sim HuD, working only from the seat's typed view (:mod:`affray.rulesets.hud.views`).

``heuristic`` — Combat Nerdified: strike the weakest foe it can reach, keep about one defense per foe able to
strike back, close in on a near foe with the free move and charge a far one it cannot reach (never one it is
engaged with, WL-B13), take an emergency attack only to finish a defenceless foe (WL-17), always parry, riposte
every opening, and flee (disengage) only when badly hurt against a much healthier foe. Dice Simplified and Free
Form: roll the die with the better modifier.

Its plan is declared even when the legal list does not show it: a plan is a free parameter of ``declare``
(``step`` checks it); it is built only from items the rules allow from where the combatant stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import Action, ActionSpec
from affray.core.policy import Choices, Observation
from affray.core.rng import RNG
from affray.core.view import CombatantView
from affray.rulesets.hud.combat import defense_modifier
from affray.rulesets.hud.mechanics import distance_band
from affray.rulesets.hud.views import HudCombatantDetail, HudView

Seen = CombatantView[HudCombatantDetail]


def _foes(view: HudView, me: Seen) -> list[Seen]:
    return [c for c in view.combatants if not c.detail.out and c.side != me.side]


def _held(c: Seen, kind: str) -> bool:
    return any(w.kind == kind for w in c.detail.in_hand())


def _hp(c: Seen) -> int:
    return c.bars[0].value


def _weakest(cs: Sequence[Seen]) -> str:
    return min(cs, key=lambda c: (_hp(c), c.id)).id


def _pick(legal: Sequence[ActionSpec], wanted: Action) -> Action | None:
    for spec in legal:
        if spec.action == wanted:
            return spec.action
    return None


def _declared(legal: Sequence[ActionSpec], plan: list[dict[str, Any]]) -> Action:
    """The declaration of ``plan``: the listed one if it is listed, else the ``declare`` spec with its free plan
    filled in (``plan`` and ``additional`` are free parameters)."""
    wanted: Action = {"type": "declare", "plan": plan, "additional": False}
    listed = _pick(legal, wanted)
    if listed is not None:
        return listed
    if any(spec.action["type"] == "declare" for spec in legal):
        return wanted
    return legal[0].action


def _badly_hurt(me: Seen, foe: Seen) -> bool:
    return 4 * _hp(me) <= me.bars[0].max and _hp(foe) > 2 * _hp(me)


class HudHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: HudView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = view.prompt.phase if view.prompt is not None else ""
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            return self._declare(view, actor, legal)
        if phase == "emergency":
            return self._emergency(view, legal)
        if phase in ("defend", "follow", "parry", "pursuit"):
            return self._react(view, actor, kinds, phase)
        return simplified_choice(view, actor, legal)

    def _declare(self, view: HudView, actor: str, legal: Sequence[ActionSpec]) -> Action:
        me = view.combatant(actor)
        d = me.detail
        foes = _foes(view, me)
        ranged = _held(me, "ranged")
        bands = {f.id: distance_band(d.place, d.band, f.detail.place, f.detail.band) for f in foes}
        reachable = [f for f in foes if bands[f.id] == "engaged" or ranged]
        threats = sum(1 for f in foes if bands[f.id] == "engaged" or _held(f, "ranged"))
        slots = d.actions
        defenses = min(slots - 1, max(1, threats)) if threats else 0
        near = [f for f in foes if bands[f.id] == "near"]
        plan: list[dict[str, Any]]
        if reachable:
            plan = [{"type": "attack", "target": _weakest(reachable)}] * (slots - defenses)
        elif near and not d.closed:  # WL-B13: the free 10 m move reaches a near foe
            target = _weakest(near)
            defenses = max(defenses, 1) if slots > 1 else 0
            plan = [{"type": "close", "target": target}] + [{"type": "attack", "target": target}] * (slots - defenses)
        elif slots >= 2:  # a far foe: only a charge crosses the distance (WL-18); never one it is engaged with
            plan = [{"type": "charge", "target": _weakest(foes)}] + [{"type": "defense"}] * (slots - 2)
            defenses = 0
        else:
            plan, defenses = [], slots
        return _declared(legal, plan + [{"type": "defense"}] * defenses)

    @staticmethod
    def _emergency(view: HudView, legal: Sequence[ActionSpec]) -> Action:
        """WL-17: an emergency attack only to finish a foe that has no defense left; else carry on."""
        for spec in legal:
            if spec.action["type"] == "emergency_attack":
                foe = view.combatant(spec.action["target"])
                if _hp(foe) <= 2 and foe.detail.defenses == 0:
                    return spec.action
        return {"type": "carry_on"}

    @staticmethod
    def _react(view: HudView, actor: str, kinds: set[str], phase: str) -> Action:
        if phase == "pursuit":
            return {"type": "shoot" if "shoot" in kinds else "chase"}
        me = view.combatant(actor)
        ex = view.detail.exchange
        assert ex is not None
        other = view.combatant(ex.attacker if ex.defender == actor else ex.defender)
        if phase == "defend":
            if "defend" in kinds:
                return {"type": "defend"}
            hurt = 2 * _hp(me) <= me.bars[0].max
            return {"type": "emergency_defense" if hurt and "emergency_defense" in kinds else "take"}
        if _badly_hurt(me, other) and "disengage" in kinds:
            return {"type": "disengage"}
        if phase == "follow":
            return {"type": "damage"}
        return {"type": "riposte" if "riposte" in kinds else "pass"}


def simplified_choice(view: HudView, actor: str, legal: Sequence[ActionSpec]) -> Action:
    """Dice Simplified and Free Form: the die with the better modifier (WL-06, WL-B2), on the weakest foe."""
    me = view.combatant(actor)
    d = me.detail
    kinds = {spec.action["type"] for spec in legal}
    if "respond" in kinds:
        return {"type": "respond", "die": "defense" if defense_modifier(d) >= d.injury_mod else "injury"}
    kind = "settle" if "settle" in kinds else "attack"
    held = d.in_hand()
    attack = max((w.attack for w in held), default=0) - d.armour_penalty
    damage = max((w.damage for w in held), default=0)
    wanted = {"type": kind, "target": _weakest(_foes(view, me)), "die": "attack" if attack >= damage else "damage"}
    return _pick(legal, wanted) or legal[0].action


class HudSteady:
    """A fixed, predictable policy whose duels :mod:`affray.rulesets.hud.odds` solves exactly.

    Combat Nerdified: attack the weakest foe with every action but one, keep one defense; always defend when
    able (else take it), always riposte, always press on to the Damage phase, never disengage or take an
    additional action (carry on at the emergency prompt); chase a fleeing foe. Dice Simplified: roll the die
    with the better modifier.
    """

    name = "steady"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: HudView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = view.prompt.phase if view.prompt is not None else ""
        kinds = {spec.action["type"] for spec in legal}
        if phase == "declare":
            me = view.combatant(actor)
            plan = ([{"type": "attack", "target": _weakest(_foes(view, me))}] * (me.detail.actions - 1)
                    + [{"type": "defense"}])
            return _pick(legal, {"type": "declare", "plan": plan, "additional": False}) or legal[0].action
        if phase == "emergency":
            return {"type": "carry_on"}
        for choice in ("defend", "riposte", "damage", "chase"):
            if choice in kinds:
                return {"type": choice}
        if phase in ("defend", "parry"):
            return {"type": "take" if phase == "defend" else "pass"}
        return simplified_choice(view, actor, legal)


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
POLICIES = {"heuristic": HudHeuristic, "steady": HudSteady}
