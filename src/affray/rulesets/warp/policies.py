"""Policies for WaRP, working only from the seat's typed view (:mod:`affray.rulesets.warp.views`).

On its turn: attack the foe that looks weakest (Messed Up first, then fewest visible HP, then nearest)
with the weapon and trait that promise the most damage (trait dice, then damage factor), never with a
predictable maneuver; keep Experience Pool dice for finishing a Messed Up foe or for when it is Messed Up
itself; with no foe in reach, take cover against guns or close in on the nearest foe. On defense: the
best trait, always dodging, experience dice when hurt; outnumbered, it defends normally against the
foes with the nastiest weapons. As the GM (``gm_decisions: table``): rule attacks as declared, accept
reasons to live, let gestalt results stand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from affray.core.engine import GM, Action, ActionSpec
from affray.core.policy import Choices, Observation
from affray.core.rng import RNG
from affray.core.view import CombatantView
from affray.rulesets.warp.views import WarpCombatantDetail, WarpSheet, WarpView

Fighter = CombatantView[WarpCombatantDetail]


def _factor(sheet: WarpSheet | None, fighter: Fighter, weapon: str, mode: str) -> int:
    """The damage factor of ``weapon`` used as ``mode``: from the sheet, or the weapon in hand when the sheet is
    hidden (WR-12)."""
    if sheet is not None:
        try:
            return sheet.weapon(weapon).factor(mode)
        except KeyError:
            pass
    return fighter.detail.weapon.factor(mode)


def _target_key(me: Fighter, foe: Fighter) -> tuple[int, int, float, str]:
    hp = foe.detail.sheet.hp if foe.detail.sheet is not None else 99
    return (0 if foe.detail.messed_up else 1, hp, _distance(me, foe), foe.id)


def _distance(a: Fighter, b: Fighter) -> float:
    assert a.position is not None and b.position is not None
    return abs(a.position.x - b.position.x)


def _hurt(me: Fighter) -> bool:
    s = me.detail.sheet
    return bool(s and 3 * (s.hp - s.stun) <= 2 * s.max_hp)


def _phase(view: WarpView) -> str:
    return view.prompt.phase if view.prompt is not None else ""


class WarpHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: WarpView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = _phase(view)
        if actor == GM:
            return self._gm(phase, legal)
        if phase in ("turn", "held"):
            return self._turn(view, actor, legal)
        if phase == "defend":
            return self._defend(view, actor, legal)
        if phase == "gestalt_roll":
            sheet = view.combatant(actor).detail.sheet
            spend = 1 if sheet is not None and sheet.experience > 0 else 0
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

    def _turn(self, view: WarpView, actor: str, legal: Sequence[ActionSpec]) -> Action:
        everyone = view.by_id()
        me = everyone[actor]
        attacks = [s.action for s in legal if s.action["type"] == "attack"]
        if attacks:
            return self._attack(view, everyone, me, attacks)
        if me.detail.holding or _phase(view) == "held":
            return next((s.action for s in legal if s.action["type"] in ("wait", "pass")), legal[0].action)
        kinds = {s.action["type"]: s.action for s in legal}
        foes = [f for f in everyone.values() if f.detail.status == "fighting" and f.side != me.side]
        if "take_cover" in kinds and any(f.detail.weapon.ranged for f in foes):
            return kinds["take_cover"]
        if "break_free" in kinds:
            return kinds["break_free"]
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return kinds.get("pass", legal[0].action)

    @staticmethod
    def _attack(view: WarpView, everyone: Mapping[str, Fighter], me: Fighter, attacks: list[Action]) -> Action:
        target = min({a["target"] for a in attacks}, key=lambda t: _target_key(me, everyone[t]))
        foe = everyone[target]
        spend = 1 if foe.detail.messed_up or me.detail.messed_up else 0
        specials = view.detail.special_maneuvers
        sheet = me.detail.sheet

        def score(a: Action) -> tuple[int, int, int]:
            trait = sheet.trait(a["trait"]) if sheet is not None else None
            return (trait.dice if trait else 2, _factor(sheet, me, a["weapon"], a["mode"]),
                    -1 if a["maneuver"] in specials else 0)

        mine = [a for a in attacks if a["target"] == target and a.get("experience", 0) == spend] or \
            [a for a in attacks if a["target"] == target]
        return max(mine, key=score)

    @staticmethod
    def _defend(view: WarpView, actor: str, legal: Sequence[ActionSpec]) -> Action:
        everyone = view.by_id()
        spend = 1 if _hurt(everyone[actor]) else 0

        def threat(action: Action) -> int:
            return sum(everyone[a].detail.weapon.factor("melee") for a in action.get("normal", []))

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

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: WarpView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        phase = _phase(view)
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
    def _turn(view: WarpView, actor: str, legal: Sequence[ActionSpec]) -> Action:
        everyone = view.by_id()
        me = everyone[actor]
        specials = set(view.detail.special_maneuvers)
        attacks = [s.action for s in legal if s.action["type"] == "attack" and s.action["mode"] == "melee"
                   and s.action["weapon"] == me.detail.wielding and not s.action.get("experience")
                   and s.action["maneuver"] not in specials]
        if attacks:
            target = min({a["target"] for a in attacks}, key=lambda t: _target_key(me, everyone[t]))
            return next(a for a in attacks if a["target"] == target)
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return next((s.action for s in legal if s.action["type"] in ("pass", "wait")), legal[0].action)


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
POLICIES = {"heuristic": WarpHeuristic, "steady": WarpSteady}
