"""Policies for the Sim HuD, working only from the seat's observation (:mod:`affray.rulesets.hud.observe`) and the
actor's choices (core/policy.py): they never read the state, and never list the usual plans to declare.

``heuristic`` — Combat Nerdified: strike the weakest foe it can reach, keep about one defense per foe able to
strike back, close in on a near foe with the free move and charge a far one it cannot reach (never one it is
engaged with, WL-B13), take an emergency attack only to finish a defenceless foe (WL-17), always parry, riposte
every opening, and flee (disengage) only when badly hurt against a much healthier foe. Dice Simplified and Free
Form: roll the die with the better modifier.

Its plan is declared even when the legal list does not show it: a plan is a free parameter of ``declare``
(``step`` checks it); it is built only from items the rules allow from where the combatant stands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affray.core.engine import Action
from affray.core.fields import text
from affray.core.json import Json
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG
from affray.rulesets.hud.combat import defense_modifier
from affray.rulesets.hud.mechanics import distance_band
from affray.rulesets.hud.observe import HudObservation, SeenFighter


def _seen(seen: Observation) -> HudObservation:
    if not isinstance(seen, HudObservation):
        raise TypeError(f"a HuD policy reads a HudObservation, not {type(seen).__name__}")
    return seen


def _times(item: Json, count: int) -> list[Json]:
    """``count`` copies of one plan item (the same object, as a plan is read, never changed)."""
    return [item] * count


def _weakest(cs: Sequence[SeenFighter]) -> str:
    return min(cs, key=lambda c: (c.hp, c.id)).id


def _first(choices: Choices) -> Action:
    return choices.all()[0].action


def _badly_hurt(me: SeenFighter, foe: SeenFighter) -> bool:
    return 4 * me.hp <= me.max_hp and foe.hp > 2 * me.hp


class HudHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = _seen(seen)
        phase = obs.prompt
        if phase == "declare":
            return self._declare(obs, choices)
        if phase == "emergency":
            return self._emergency(obs, choices)
        if phase in ("defend", "follow", "parry", "pursuit"):
            return self._react(obs, choices.kinds(), phase)
        return simplified_choice(obs, choices)

    @staticmethod
    def _declare(obs: HudObservation, choices: Choices) -> Action:
        """The plan (WL-10, WL-18, WL-B13); declared as a free parameter whenever a declaration is due."""
        me = obs.me
        foes = obs.foes
        ranged = me.holds("ranged")
        place, band = me.place, me.band
        reachable: list[SeenFighter] = []  # engaged, or any foe with a ranged weapon in hand
        near: list[SeenFighter] = []
        threats = 0  # foes able to strike back: engaged, or holding a ranged weapon
        for f in foes:
            between = distance_band(place, band, f.place, f.band)
            if between == "engaged":
                reachable.append(f)
                threats += 1
                continue
            if ranged:
                reachable.append(f)
            if f.holds("ranged"):
                threats += 1
            if between == "near":
                near.append(f)
        slots = me.actions
        defenses = min(slots - 1, max(1, threats)) if threats else 0
        plan: list[Json]
        if reachable:
            plan = _times({"type": "attack", "target": _weakest(reachable)}, slots - defenses)
        elif near and not me.closed:  # WL-B13: the free 10 m move reaches a near foe
            target = _weakest(near)
            defenses = max(defenses, 1) if slots > 1 else 0
            plan = [
                {"type": "close", "target": target},
                *_times({"type": "attack", "target": target}, slots - defenses),
            ]
        elif slots >= 2:  # a far foe: only a charge crosses the distance (WL-18); never one it is engaged with
            plan = [{"type": "charge", "target": _weakest(foes)}, *_times({"type": "defense"}, slots - 2)]
            defenses = 0
        else:
            plan, defenses = [], slots
        if "declare" not in choices.kinds():
            return _first(choices)
        return {"type": "declare", "plan": plan + _times({"type": "defense"}, defenses), "additional": False}

    @staticmethod
    def _emergency(obs: HudObservation, choices: Choices) -> Action:
        """WL-17: an emergency attack only to finish a foe that has no defense left; else carry on (the
        choices are asked only when some foe is such a one: the attacks offered are on foes)."""
        if any(f.hp <= 2 and f.defenses == 0 for f in obs.foes):
            for spec in choices.of("emergency_attack"):
                foe = obs.combatant(text(spec.action, "target"))
                if foe.hp <= 2 and foe.defenses == 0:
                    return spec.action
        return {"type": "carry_on"}

    @staticmethod
    def _react(obs: HudObservation, kinds: frozenset[str], phase: str) -> Action:
        if phase == "pursuit":
            return {"type": "shoot" if "shoot" in kinds else "chase"}
        if phase == "defend" and "defend" in kinds:
            return {"type": "defend"}
        me = obs.me
        ex = obs.exchange
        assert ex is not None
        other = obs.combatant(ex.attacker if ex.defender == obs.actor else ex.defender)
        if phase == "defend":
            hurt = 2 * me.hp <= me.max_hp
            return {"type": "emergency_defense" if hurt and "emergency_defense" in kinds else "take"}
        if _badly_hurt(me, other) and "disengage" in kinds:
            return {"type": "disengage"}
        if phase == "follow":
            return {"type": "damage"}
        return {"type": "riposte" if "riposte" in kinds else "pass"}


def simplified_choice(obs: HudObservation, choices: Choices) -> Action:
    """Dice Simplified and Free Form: the die with the better modifier (WL-06, WL-B2), on the weakest foe."""
    me = obs.me
    kinds = choices.kinds()
    if "respond" in kinds:
        return {"type": "respond", "die": "defense" if defense_modifier(me) >= me.injury_mod else "injury"}
    kind = "settle" if "settle" in kinds else "attack"
    held = me.in_hand()
    attack = max((w.attack for w in held), default=0) - me.armour_penalty
    damage = max((w.damage for w in held), default=0)
    wanted: Action = {"type": kind, "target": _weakest(obs.foes), "die": "attack" if attack >= damage else "damage"}
    return wanted if choices.allows(wanted) else _first(choices)


class HudSteady:
    """A fixed, predictable policy whose duels :mod:`affray.rulesets.hud.odds` solves exactly.

    Combat Nerdified: attack the weakest foe with every action but one, keep one defense; always defend when
    able (else take it), always riposte, always press on to the Damage phase, never disengage or take an
    additional action (carry on at the emergency prompt); chase a fleeing foe. Dice Simplified: roll the die
    with the better modifier.
    """

    name = "steady"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = _seen(seen)
        phase = obs.prompt
        if phase == "declare":
            me = obs.me
            plan: list[Json] = [
                *_times({"type": "attack", "target": _weakest(obs.foes)}, me.actions - 1),
                {"type": "defense"},
            ]
            wanted: Action = {"type": "declare", "plan": plan, "additional": False}
            return wanted if choices.allows(wanted) else _first(choices)
        if phase == "emergency":
            return {"type": "carry_on"}
        kinds = choices.kinds()
        for choice in ("defend", "riposte", "damage", "chase"):
            if choice in kinds:
                return {"type": choice}
        if phase in ("defend", "parry"):
            return {"type": "take" if phase == "defend" else "pass"}
        return simplified_choice(obs, choices)


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
#: The ruleset's policies by name, as its plug-in record hands them out (each a factory of a fresh policy).
POLICIES: dict[str, Callable[[], Policy]] = {"heuristic": HudHeuristic, "steady": HudSteady}
