"""Policies for WaRP, working only from the seat's observation (:mod:`affray.rulesets.warp.observe`) and the
actor's choices (:mod:`affray.rulesets.warp.choices`).

On its turn: attack the foe that looks weakest (Messed Up first, then fewest visible HP, then nearest)
with the weapon and trait that promise the most damage (trait dice, then damage factor), never with a
predictable maneuver; keep Experience Pool dice for finishing a Messed Up foe or for when it is Messed Up
itself; with no foe in reach, take cover against guns or close in on the nearest foe. On defense: the
best trait, always dodging, experience dice when hurt; outnumbered, it defends normally against the
foes with the nastiest weapons. As the GM (``gm_decisions: table``): rule attacks as declared, accept
reasons to live, let gestalt results stand. Neither policy draws from its generator.
"""

from __future__ import annotations

from collections.abc import Callable

from affray.core.engine import GM, Action
from affray.core.fields import maybe_text, text, texts
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG
from affray.rulesets.warp.choices import WarpChoices
from affray.rulesets.warp.mechanics import DEFAULT_DICE
from affray.rulesets.warp.observe import SeenFighter, WarpObservation

UNSEEN_HP = 99  # a foe whose sheet is closed ranks as if unhurt


def _factor(me: SeenFighter, weapon: str, mode: str) -> int:
    """The damage factor of ``weapon`` used as ``mode``: from the sheet, or the weapon in hand when the sheet is
    hidden (WR-12)."""
    found = me.factor(weapon, mode)
    return found if found is not None else me.wielded_factor(mode)


def _target_key(me: SeenFighter, foe: SeenFighter) -> tuple[int, int, float, str]:
    hp = foe.hp
    return (0 if foe.messed_up else 1, hp if hp is not None else UNSEEN_HP, abs(me.position - foe.position), foe.id)


def _hurt(me: SeenFighter) -> bool:
    hp, stun, max_hp = me.hp, me.stun, me.max_hp
    return hp is not None and stun is not None and max_hp is not None and 3 * (hp - stun) <= 2 * max_hp


def _attacks(choices: Choices) -> list[Action]:
    """The attacks on offer (WaRP's choices answer without listing; any other lists them)."""
    if isinstance(choices, WarpChoices):
        return choices.attacks()
    return [s.action for s in choices.of("attack")]


def _defenses(choices: Choices) -> list[Action]:
    """The defenses on offer (WaRP's choices answer without the labelled listing; any other lists them)."""
    if isinstance(choices, WarpChoices):
        return choices.defenses()
    return [s.action for s in choices.of("defend")]


def _first(choices: Choices, kinds: tuple[str, ...]) -> Action:
    """The first listed action of one of ``kinds``, else the first listed action."""
    legal = choices.all()
    return next((s.action for s in legal if s.action["type"] in kinds), legal[0].action)


def _no_experience(choices: Choices) -> Action:
    legal = choices.all()
    return next((s.action for s in legal if s.action.get("experience", 0) == 0), legal[0].action)


def _gm(phase: str, choices: Choices) -> Action:
    """Rule attacks as declared, accept reasons to live, let gestalt results stand (else the first listed)."""
    wanted: dict[str, Action] = {
        "ruling": {"type": "rule"},
        "verdict": {"type": "verdict", "lives": True},
        "gestalt_verdict": {"type": "gestalt_verdict", "overturn": False},
    }
    goal = wanted.get(phase)
    if goal is not None and choices.allows(goal):
        return goal
    return choices.all()[0].action


def _plea(choices: Choices) -> Action:
    return next(s.action for s in choices.all() if s.action["type"] == "plea")


def _seen(seen: Observation) -> WarpObservation:
    if not isinstance(seen, WarpObservation):
        raise TypeError(f"WaRP policies read a WarpObservation, not {type(seen).__name__}")
    return seen


class WarpHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = _seen(seen)
        phase = obs.phase
        if choices.actor == GM:
            return _gm(phase, choices)
        if phase in ("turn", "held"):
            return self._turn(obs, choices)
        if phase == "defend":
            return self._defend(obs, choices)
        if phase == "gestalt_roll":
            experience = obs.fighter(choices.actor).experience
            spend = 1 if experience is not None and experience > 0 else 0
            legal = choices.all()
            return next((s.action for s in legal if s.action.get("experience") == spend), legal[0].action)
        if phase == "plea":
            return _plea(choices)
        return _no_experience(choices)

    def _turn(self, obs: WarpObservation, choices: Choices) -> Action:
        me = obs.fighter(choices.actor)
        attacks = _attacks(choices)
        if attacks:
            return self._attack(obs, me, attacks)
        if me.holding or obs.phase == "held":
            return _first(choices, ("wait", "pass"))
        legal = choices.all()
        kinds = {s.action["type"]: s.action for s in legal}
        foes = [f for f in obs.combatants if f.status == "fighting" and f.side != me.side]
        if "take_cover" in kinds and any(f.wielded_missile for f in foes):
            return kinds["take_cover"]
        if "break_free" in kinds:
            return kinds["break_free"]
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return kinds.get("pass", legal[0].action)

    @staticmethod
    def _attack(obs: WarpObservation, me: SeenFighter, attacks: list[Action]) -> Action:
        target = min({text(a, "target") for a in attacks}, key=lambda t: _target_key(me, obs.fighter(t)))
        foe = obs.fighter(target)
        spend = 1 if foe.messed_up or me.messed_up else 0
        specials = obs.special_maneuvers

        dice_of: dict[str | None, int] = {}  # a few traits and weapons among a dozen attacks: look each up once
        factor_of: dict[tuple[str, str], int] = {}

        def score(a: Action) -> tuple[int, int, int]:
            tid, used = maybe_text(a, "trait"), (text(a, "weapon"), text(a, "mode"))
            dice = dice_of.get(tid)
            if dice is None:
                seen = me.trait_dice(tid)
                dice = dice_of[tid] = seen if seen is not None else DEFAULT_DICE
            factor = factor_of.get(used)
            if factor is None:
                factor = factor_of[used] = _factor(me, *used)
            return dice, factor, -1 if a["maneuver"] in specials else 0

        mine = [a for a in attacks if a["target"] == target and a.get("experience", 0) == spend] or [
            a for a in attacks if a["target"] == target
        ]
        return max(mine, key=score)

    @staticmethod
    def _defend(obs: WarpObservation, choices: Choices) -> Action:
        spend = 1 if _hurt(obs.fighter(choices.actor)) else 0

        def threat(action: Action) -> int:
            return sum(obs.fighter(a).wielded_melee for a in texts(action, "normal")) if "normal" in action else 0

        legal = _defenses(choices)  # a defend window offers nothing else
        options = [a for a in legal if a.get("experience", 0) == spend and a.get("dodge", True)] or legal
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
        obs = _seen(seen)
        phase = obs.phase
        if choices.actor == GM:
            return _gm(phase, choices)
        if phase in ("turn", "held"):
            return self._turn(obs, choices)
        if phase == "plea":
            return _plea(choices)
        if phase == "defend":
            legal = _defenses(choices)  # a defend window offers nothing else
            return next(
                (a for a in legal if a.get("experience", 0) == 0 and a.get("dodge", True) and "normal" not in a),
                legal[0],
            )
        return _no_experience(choices)

    @staticmethod
    def _turn(obs: WarpObservation, choices: Choices) -> Action:
        me = obs.fighter(choices.actor)
        specials = set(obs.special_maneuvers)
        attacks = [
            a
            for a in _attacks(choices)
            if a["mode"] == "melee"
            and a["weapon"] == me.wielding
            and not a.get("experience")
            and a["maneuver"] not in specials
        ]
        if attacks:
            target = min({text(a, "target") for a in attacks}, key=lambda t: _target_key(me, obs.fighter(t)))
            return next(a for a in attacks if a["target"] == target)
        legal = choices.all()
        toward = [s.action for s in legal if s.action["type"] == "move" and "toward" in s.action]
        if toward:
            return toward[0]
        return _first(choices, ("pass", "wait"))


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
#: The ruleset's policies by name, as its plug-in record hands them out (each a factory of a fresh policy).
POLICIES: dict[str, Callable[[], Policy]] = {"heuristic": WarpHeuristic, "steady": WarpSteady}
