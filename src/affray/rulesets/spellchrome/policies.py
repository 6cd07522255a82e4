"""A heuristic policy for Spellchrome, working only from the seat's typed view and the legal-action list.

It takes every attack of opportunity offered; heals or stabilises a falling ally; attacks the weakest
foe it can reach; closes in (melee) or keeps a short distance (ranged) otherwise; and avoids provoking
whenever it can: among moves and attacks it prefers those that carry no ``provokes`` warning code
(SC-28), steps or withdraws away before shooting or casting in melee. It attacks helpless foes only
when the match option ``monsters_finish_the_dying`` is on and it is a monster or NPC (ruling SC-R7).
After the fight (SC-04) the listing holds no blows, so it binds or heals a dying ally within reach or ends
its turn.

It reads the seat's observation (:mod:`~affray.rulesets.spellchrome.observe`) and asks its choices for one kind of
action at a time (:mod:`~affray.rulesets.spellchrome.choices`): the ~90-action listing is never walked whole, and
moves are scored from their end squares. It never reads the rule state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from affray.core.engine import Action, ActionSpec
from affray.core.fields import text
from affray.core.policy import Choices, Observation, Policy
from affray.core.rng import RNG
from affray.rulesets.spellchrome.choices import End, derived, move_ends
from affray.rulesets.spellchrome.observe import FighterSeen, SpellchromeObservation

Square = tuple[int, int]
Fighters = Mapping[str, FighterSeen]
_HELPLESS = ("unconscious", "dying", "stable")
_BLOW_RANK = {"full_attack": 0, "attack": 1, "cast": 2}
_BLOWS_AND_CASTS = ("full_attack", "attack", "cast")
_BLOWS = ("full_attack", "attack")


def _dist(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _provokes(spec: ActionSpec) -> bool:
    """Whether ``spec`` carries the warning code ``provokes`` (SC-28): decided on the code, not the note's words."""
    return "provokes" in spec.warnings


def _first(choices: Choices, kind: str) -> Action:
    """The first listed action of ``kind``, else the first listed action."""
    return (choices.of(kind) or choices.all())[0].action


def _seen(seen: Observation) -> SpellchromeObservation:
    """The Spellchrome observation a policy was given (``Ruleset.observe`` makes one for every seat)."""
    if not isinstance(seen, SpellchromeObservation):
        raise TypeError(f"a Spellchrome policy reads a SpellchromeObservation, not {type(seen).__name__}")
    return seen


class SpellchromeHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = seen if type(seen) is SpellchromeObservation else _seen(seen)  # _seen(), at once when it is one
        if obs.phase == "attack_of_opportunity":
            return _first(choices, "attack_of_opportunity")
        me = obs.me  # choices.actor's
        targets, every_able = self._targets(obs, me)
        # spells, first aid and blows all take the standard action (SC-15): none is listed once it is spent
        if obs.standard_left:
            action = self._rescue(obs, me, targets, choices)
            if action is None:
                action = self._attack(obs, me, targets, choices)
            if action is not None:
                return action
        action = self._reposition_to_shoot(obs, me, targets, choices)
        if action is None:
            action = self._move(obs, me, targets, choices, every_able)
        return action if action is not None else _first(choices, "end_turn")

    @staticmethod
    def _targets(obs: SpellchromeObservation, me: FighterSeen) -> tuple[Fighters, bool]:
        """The foes it may strike: the able ones, and the helpless too for a monster or NPC under ruling SC-R7; and
        whether they are all able."""
        finish: bool | None = None  # asked only about a foe that is not able
        found = {}
        every_able = True
        for c in obs.foes:  # a plain loop: this runs for every decision
            if c.able:
                found[c.id] = c
                continue
            if finish is None:
                finish = obs.monsters_finish_the_dying and me.kind != "character"
            if finish and c.status in _HELPLESS:
                found[c.id] = c
                every_able = False
        return found, every_able

    def _rescue(
        self, obs: SpellchromeObservation, me: FighterSeen, targets: Fighters, choices: Choices
    ) -> Action | None:
        # a seat without spells has no cast listed (offers.spell_actions): nothing to ask
        for spec in choices.of("cast") if me.has_spells else ():
            t = obs.by_id[text(spec.action, "target")]
            heal = me.spell_effect(text(spec.action, "spell")) == "heal"
            if heal and (t.status in ("dying", "unconscious") or 3 * t.hp <= t.max_hp) and not _provokes(spec):
                return spec.action
        aid = choices.of("first_aid")  # mostly none: the dying are few
        if aid:
            everyone, side = obs.by_id, me.side
            for s in aid:
                if everyone[text(s.action, "target")].side == side:
                    return s.action
        return None

    def _attack(
        self, obs: SpellchromeObservation, me: FighterSeen, targets: Fighters, choices: Choices
    ) -> Action | None:
        """The full attack, attack or spell on a target that provokes nobody (SC-28), by (bare hands last, full
        attack, attack, spell, the target's HP, its id); the first listed among equals."""
        bare = me.wielding != "unarmed"
        best: Action | None = None
        best_key: tuple[int, int, int, str] | None = None
        for kind in _BLOWS_AND_CASTS if me.has_spells else _BLOWS:  # no casts listed without spells
            rank = _BLOW_RANK[kind]
            for spec in choices.of(kind):
                action = spec.action
                t = targets.get(str(action["target"]))  # every listed blow and cast names its target
                if t is None or (spec.notes and _provokes(spec)):
                    continue
                key = (1 if bare and action.get("weapon") == "unarmed" else 0, rank, t.hp, t.id)
                if best_key is None or key < best_key:
                    best, best_key = action, key
        return best

    def _reposition_to_shoot(
        self, obs: SpellchromeObservation, me: FighterSeen, targets: Fighters, choices: Choices
    ) -> Action | None:
        """A shooter or caster in melee steps or withdraws out of reach before acting (SC-27 (d), (e))."""
        if me.weapon_kind != "ranged" and not me.has_spells:
            return None
        hx, hy = me.at
        foes = obs.foes
        for c in foes:  # is a melee-armed foe adjacent? (a plain loop, where first: every decision of a shooter asks)
            px, py = c.at
            dx, dy = hx - px, hy - py
            if -1 <= dx <= 1 and -1 <= dy <= 1 and (dx or dy) and c.melee_armed:  # adjacent, inline
                break
        else:
            return None
        menace = [c.at for c in foes if c.melee_armed]
        for kind in ("step", "withdraw"):
            for (x, y, _), spec in zip(move_ends(choices, kind), choices.of(kind), strict=True):
                for px, py in menace:  # out of every menace's reach? (a plain loop, not all(): every end asks)
                    if -1 <= x - px <= 1 and -1 <= y - py <= 1:  # within reach (grid distance 1 or 0)
                        break
                else:
                    return spec.action
        return None

    def _move(
        self, obs: SpellchromeObservation, me: FighterSeen, targets: Fighters, choices: Choices, every_able: bool
    ) -> Action | None:
        if not targets:
            return None
        ranged = me.weapon_kind == "ranged"
        reach = max(2, me.weapon_range) if ranged else 1
        mx, my = me.at
        spots = []
        here = -1
        for t in targets.values():  # the distance to the nearest target, in a plain loop (every decision asks)
            spot = t.at
            spots.append(spot)
            dx, dy = mx - spot[0], my - spot[1]
            dx, dy = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
            d = dx if dx > dy else dy  # the grid distance, inline
            if here < 0 or d < here:
                here = d
        # No move can beat standing here when here is already the best a gap can be: 0, or -1 (a melee fighter
        # ending on a helpless target's square; able targets' squares are never legal end squares, SC-24).
        floor = 0 if ranged or every_able else -1
        current = max(0, here - reach) if ranged else here - 1
        if current <= floor:
            return None
        tables = (move_ends(choices, "move"), move_ends(choices, "run"))
        if not (tables[0] or tables[1]):
            return None
        key = ("heuristic.best_move", tuple(spots), ranged, reach, (mx, my))
        best_safe = derived(choices, (*key, True), lambda: _best_move(tables, spots, ranged, reach, (mx, my), True))
        if best_safe is not None:
            return _move_action(choices, best_safe) if best_safe[0][0] < current else None
        if here > reach or (not ranged and here > 1):
            risky = derived(choices, (*key, False), lambda: _best_move(tables, spots, ranged, reach, (mx, my), False))
            if risky is not None and risky[0][0] < current:
                return _move_action(choices, risky)
        return None


Scored = tuple[tuple[int, int, int], int, int]  # (score, 0 move / 1 run, index among that kind's specs)


def _best_move(
    tables: tuple[tuple[End, ...], tuple[End, ...]],
    spots: list[Square],
    ranged: bool,
    reach: int,
    me: Square,
    safe_only: bool,
) -> Scored | None:
    """The listed move or run with the lowest score (the first listed among equals; moves before runs): the gap
    left to the nearest target (a shooter: beyond its reach, and 3 more when it ends adjacent), then a move before
    a run, then the shorter move. ``safe_only``: only those whose warnings say nothing provokes (SC-28)."""
    mx, my = me
    best: Scored | None = None
    for run, table in enumerate(tables):
        for i, (x, y, provokes) in enumerate(table):
            if safe_only and provokes:
                continue
            d = -1
            for tx, ty in spots:  # the grid distance to the nearest target, in a plain loop (every listed end)
                e = max(abs(x - tx), abs(y - ty))
                if d < 0 or e < d:
                    d = e
            gap = (max(0, d - reach) + (3 if d <= 1 else 0)) if ranged else d - 1
            score = (gap, run, max(abs(x - mx), abs(y - my)))
            if best is None or score < best[0]:
                best = (score, run, i)
    return best


def _move_action(choices: Choices, scored: Scored) -> Action:
    return choices.of("run" if scored[1] else "move")[scored[2]].action


class SpellchromeSteady:
    """A fixed policy whose one-on-one melee duels :mod:`affray.rulesets.spellchrome.duel` solves exactly.

    On its turn: a full attack on the nearest able foe if one is on offer, else an attack with the weapon in
    hand, else the turn ends; it never moves, casts, aids or gives up. It takes every attack of opportunity.
    """

    name = "steady"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        obs = _seen(seen)
        if obs.phase == "attack_of_opportunity":
            return _first(choices, "attack_of_opportunity")
        everyone = obs.by_id
        me = everyone[choices.actor]
        foes = {a: c for a, c in everyone.items() if c.side != me.side and c.able}
        full = [s for s in choices.of("full_attack") if s.action["target"] in foes]
        single = [
            s
            for s in choices.of("attack")
            if s.action["target"] in foes and s.action.get("weapon", me.wielding) == me.wielding
        ]
        for options in (full, single):
            if options:
                best = min(
                    options, key=lambda s: (_dist(me.at, foes[text(s.action, "target")].at), text(s.action, "target"))
                )
                return best.action
        return _first(choices, "end_turn")


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
#: The ruleset's policies by name, as its plug-in record hands them out (each a factory of a fresh policy).
POLICIES: dict[str, Callable[[], Policy]] = {"heuristic": SpellchromeHeuristic, "steady": SpellchromeSteady}
