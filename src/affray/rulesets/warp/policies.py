"""A heuristic policy for WaRP, working only from the seat's view.

On its turn: attack the foe that looks weakest (Messed Up first, then fewest visible HP, then nearest)
with the weapon and trait that promise the most damage (trait dice, then damage factor), never with a
predictable maneuver; keep Experience Pool dice for finishing a Messed Up foe or for when it is Messed Up
itself; with no foe in reach, take cover against guns or close in on the nearest foe. On defense: the
best trait, always dodging, experience dice when hurt; outnumbered, it defends normally against the
foes with the nastiest weapons. As the GM (``gm_decisions: table``): rule attacks as declared, accept
reasons to live, let gestalt results stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import GM, Action, ActionSpec
from affray.core.policy import as_dict_view
from affray.core.rng import RNG


def _factor(weapon: dict[str, Any], mode: str) -> int:
    if mode == "melee":
        return int(weapon["melee"] or 0)
    ranged = weapon["ranged"]
    return int(ranged["factor"]) if ranged else 0


def _target_key(view: dict[str, Any], me: dict[str, Any], foe_id: str) -> tuple[int, int, float, str]:
    foe = view["fighters"][foe_id]
    hp = foe["stats"]["hp"] if foe["stats"] else 99
    return (0 if foe["messed_up"] else 1, hp, abs(foe["position"] - me["position"]), foe_id)


def _hurt(me: dict[str, Any]) -> bool:
    s = me["stats"]
    return bool(s and 3 * (s["hp"] - s["stun"]) <= 2 * s["max_hp"])


class WarpHeuristic:
    name = "heuristic"

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        actor = view["acting"]
        phase = view["pending"]["phase"]
        if actor == GM:
            return self._gm(phase, legal)
        if phase in ("turn", "held"):
            return self._turn(view, actor, legal)
        if phase == "defend":
            return self._defend(view, actor, legal)
        if phase == "gestalt_roll":
            spend = 1 if view["fighters"][actor]["stats"]["experience"] > 0 else 0
            return next((s.action for s in legal if s.action.get("experience") == spend), legal[0].action)
        if phase == "plea":
            return next(s.action for s in legal if s.action["type"] == "plea")
        return next((s.action for s in legal if s.action.get("experience", 0) == 0), legal[0].action)

    @staticmethod
    def _gm(phase: str, legal: Sequence[ActionSpec]) -> Action:
        wanted: dict[str, Action] = {"ruling": {"type": "rule"}, "verdict": {"type": "verdict", "lives": True},
                                     "gestalt_verdict": {"type": "gestalt_verdict", "overturn": False}}
        goal = wanted.get(phase)
        return next((s.action for s in legal if s.action == goal), legal[0].action)

    def _turn(self, view: dict[str, Any], actor: str, legal: Sequence[ActionSpec]) -> Action:
        me = view["fighters"][actor]
        stats = me["stats"]
        attacks = [s.action for s in legal if s.action["type"] == "attack"]
        if attacks:
            return self._attack(view, me, stats, attacks)
        if me["holding"] or view["pending"]["phase"] == "held":
            return next((s.action for s in legal if s.action["type"] in ("wait", "pass")), legal[0].action)
        kinds = {s.action["type"]: s.action for s in legal}
        foes = [f for f in view["fighters"].values() if f["status"] == "fighting" and f["side"] != me["side"]]
        if "take_cover" in kinds and any(f["weapon"]["ranged"] for f in foes):
            return kinds["take_cover"]
        if "break_free" in kinds:
            return kinds["break_free"]
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return kinds.get("pass", legal[0].action)

    @staticmethod
    def _attack(view: dict[str, Any], me: dict[str, Any], stats: dict[str, Any], attacks: list[Action]) -> Action:
        target = min({a["target"] for a in attacks}, key=lambda t: _target_key(view, me, t))
        foe = view["fighters"][target]
        spend = 1 if foe["messed_up"] or me["messed_up"] else 0
        specials = view["special_maneuvers"]

        def score(a: Action) -> tuple[int, int, int]:
            trait = stats["traits"].get(a["trait"]) if a["trait"] else None
            return (trait["dice"] if trait else 2, _factor(stats["weapons"][a["weapon"]], a["mode"]),
                    -1 if a["maneuver"] in specials else 0)

        mine = [a for a in attacks if a["target"] == target and a.get("experience", 0) == spend] or \
            [a for a in attacks if a["target"] == target]
        return max(mine, key=score)

    @staticmethod
    def _defend(view: dict[str, Any], actor: str, legal: Sequence[ActionSpec]) -> Action:
        me = view["fighters"][actor]
        spend = 1 if _hurt(me) else 0

        def threat(action: Action) -> int:
            return sum(_factor(view["fighters"][a]["weapon"], "melee") for a in action.get("normal", []))

        options = [s.action for s in legal if s.action.get("experience", 0) == spend and s.action.get("dodge", True)]
        options = options or [s.action for s in legal]
        return max(options, key=threat)


class WarpSteady:
    """A fixed, predictable policy whose one-on-one melee duels :mod:`affray.rulesets.warp.duel` solves exactly.

    On its turn: a melee attack on a foe in reach with the weapon in hand, its best suitable trait and a
    fresh plain maneuver (never predictable, never a special effect, WR-17, WR-30), spending no Experience
    Pool dice; with no foe in reach it closes in, else passes. On defense: the best trait, dodging, no
    experience. Initiative and gestalt rolls spend nothing; a dying PC gives a reason to live; as the GM it
    rules attacks as declared. It never holds, intimidates, takes cover or defends desperately.
    """

    name = "steady"

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        actor = view["acting"]
        phase = view["pending"]["phase"]
        if actor == GM:
            return WarpHeuristic._gm(phase, legal)
        if phase in ("turn", "held"):
            return self._turn(view, actor, legal)
        if phase == "plea":
            return next(s.action for s in legal if s.action["type"] == "plea")
        if phase == "defend":
            return next((s.action for s in legal if s.action.get("experience", 0) == 0 and s.action.get("dodge", True)
                         and "normal" not in s.action), legal[0].action)
        return next((s.action for s in legal if s.action.get("experience", 0) == 0), legal[0].action)

    @staticmethod
    def _turn(view: dict[str, Any], actor: str, legal: Sequence[ActionSpec]) -> Action:
        me = view["fighters"][actor]
        specials = set(view["special_maneuvers"])
        attacks = [s.action for s in legal if s.action["type"] == "attack" and s.action["mode"] == "melee"
                   and s.action["weapon"] == me["wielding"] and not s.action.get("experience")
                   and s.action["maneuver"] not in specials]
        if attacks:
            target = min({a["target"] for a in attacks}, key=lambda t: _target_key(view, me, t))
            return next(a for a in attacks if a["target"] == target)
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return next((s.action for s in legal if s.action["type"] in ("pass", "wait")), legal[0].action)
