"""A heuristic policy for Spellchrome, working only from the seat's view and the legal-action list.

It takes every attack of opportunity offered; heals or stabilises a falling ally; attacks the weakest
foe it can reach; closes in (melee) or keeps a short distance (ranged) otherwise; and avoids provoking
whenever it can: among moves and attacks it prefers those whose notes carry no "provokes" warning
(SC-28), steps or withdraws away before shooting or casting in melee. It attacks helpless foes only
when the match option ``monsters_finish_the_dying`` is on and it is a monster or NPC (ruling SC-R7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import Action, ActionSpec
from affray.core.policy import as_dict_view
from affray.core.rng import RNG

Square = tuple[int, int]


def _dist(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


_PROVOKES: dict[tuple[str, ...], bool] = {}  # by the notes: legal lists repeat the same few warnings


def _provokes(spec: ActionSpec) -> bool:
    notes = spec.notes
    if not notes:
        return False
    hit = _PROVOKES.get(notes)
    if hit is None:
        if len(_PROVOKES) >= 10_000:
            _PROVOKES.clear()
        hit = _PROVOKES[notes] = any("provokes" in note for note in notes)
    return hit


class _Legal:
    """The legal actions grouped by type in one pass; each group keeps the list's order."""

    def __init__(self, legal: Sequence[ActionSpec]) -> None:
        self.all = legal
        self.groups: dict[str, list[ActionSpec]] = {}
        for spec in legal:
            kind = spec.action["type"]
            group = self.groups.get(kind)
            if group is None:
                self.groups[kind] = [spec]
            else:
                group.append(spec)

    def of(self, *kinds: str) -> list[ActionSpec]:
        """The actions of ``kinds``, kind by kind. Callers only take a ``min`` whose key tells kinds apart, so
        the order between kinds does not matter; within a kind it is the legal list's."""
        if len(kinds) == 1:
            return list(self.groups.get(kinds[0], ()))
        return [spec for kind in kinds for spec in self.groups.get(kind, ())]


class SpellchromeHeuristic:
    name = "heuristic"

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        grouped = _Legal(legal)
        if view["pending"]["phase"] == "attack_of_opportunity":
            return (grouped.of("attack_of_opportunity") or list(legal))[0].action
        me_id = view["acting"]
        everyone = view["combatants"]
        me = everyone[me_id]
        for pick in (self._rescue, self._attack, self._reposition_to_shoot, self._move):
            action = pick(view, me_id, me, everyone, grouped)
            if action is not None:
                return action
        return (grouped.of("end_turn") or list(legal))[0].action

    @staticmethod
    def _targets(view: dict[str, Any], me: dict[str, Any], everyone: dict[str, Any]) -> dict[str, Any]:
        finish = view["options"]["monsters_finish_the_dying"] and me["kind"] != "character"
        return {a: c for a, c in everyone.items() if c["side"] != me["side"]
                and (c["able"] or (finish and c["status"] in ("unconscious", "dying", "stable")))}

    def _rescue(self, view: dict[str, Any], me_id: str, me: dict[str, Any], everyone: dict[str, Any],
                legal: _Legal) -> Action | None:
        for spec in legal.of("cast"):
            t = everyone[spec.action["target"]]
            heal = me["spells"][spec.action["spell"]]["effect"] == "heal"
            if heal and (t["status"] in ("dying", "unconscious") or 3 * t["hp"] <= t["max_hp"]) and not _provokes(spec):
                return spec.action
        aid = [s for s in legal.of("first_aid") if everyone[s.action["target"]]["side"] == me["side"]]
        return aid[0].action if aid else None

    def _attack(self, view: dict[str, Any], me_id: str, me: dict[str, Any], everyone: dict[str, Any],
                legal: _Legal) -> Action | None:
        targets = self._targets(view, me, everyone)
        options = [s for s in legal.of("full_attack", "attack") if s.action["target"] in targets]
        options += [s for s in legal.of("cast") if s.action["target"] in targets]
        safe = [s for s in options if not _provokes(s)]
        if not safe:
            return None

        def key(s: ActionSpec) -> tuple[int, int, int, str]:
            t = everyone[s.action["target"]]
            kind = {"full_attack": 0, "attack": 1, "cast": 2}[s.action["type"]]
            unarmed = 1 if s.action.get("weapon") == "unarmed" and me["wielding"] != "unarmed" else 0
            return (unarmed, kind, t["hp"], s.action["target"])
        return min(safe, key=key).action

    def _reposition_to_shoot(self, view: dict[str, Any], me_id: str, me: dict[str, Any], everyone: dict[str, Any],
                             legal: _Legal) -> Action | None:
        """A shooter or caster in melee steps or withdraws out of reach before acting (SC-27 (d), (e))."""
        if me["weapons"][me["wielding"]]["kind"] != "ranged" and not me["spells"]:
            return None
        menace = [c["position"] for c in everyone.values() if c["side"] != me["side"] and c["melee_armed"]]
        if not any(_dist(me["position"], p) == 1 for p in menace):
            return None
        for spec in legal.of("step") + legal.of("withdraw"):
            to = spec.action["to"]
            if all(_dist(to, p) > 1 for p in menace):
                return spec.action
        return None

    def _move(self, view: dict[str, Any], me_id: str, me: dict[str, Any], everyone: dict[str, Any],
              legal: _Legal) -> Action | None:
        targets = self._targets(view, me, everyone)
        moves = legal.of("move", "run")
        if not targets or not moves:
            return None
        weapon = me["weapons"][me["wielding"]]
        ranged = weapon["kind"] == "ranged"
        reach = max(2, weapon["range_squares"]) if ranged else 1
        spots = [(t["position"][0], t["position"][1]) for t in targets.values()]
        mx, my = me["position"]
        here = min(_dist(me["position"], t) for t in spots)
        # No move can beat standing here when here is already the best a gap can be: 0, or -1 (a melee fighter
        # ending on a helpless target's square; able targets' squares are never legal end squares, SC-24).
        floor = -1 if not ranged and not all(t["able"] for t in targets.values()) else 0
        if (max(0, here - reach) if ranged else here - 1) <= floor:
            return None

        def score(spec: ActionSpec) -> tuple[int, int, int]:
            x, y = spec.action["to"]
            d = min(max(abs(x - tx), abs(y - ty)) for tx, ty in spots)
            gap = max(0, d - reach) if ranged else d - 1
            too_close = 1 if ranged and d <= 1 else 0
            return (gap + 3 * too_close, 1 if spec.action["type"] == "run" else 0, max(abs(x - mx), abs(y - my)))

        safe = [s for s in moves if not _provokes(s)]
        best_safe = min(safe, key=score) if safe else None
        current = (max(0, here - reach) if ranged else here - 1, 0, 0)
        if best_safe is not None:
            return best_safe.action if score(best_safe)[0] < current[0] else None
        if here > reach or (not ranged and here > 1):
            risky = min(moves, key=score)
            if score(risky)[0] < current[0]:
                return risky.action
        return None


class SpellchromeSteady:
    """A fixed policy whose one-on-one melee duels :mod:`affray.rulesets.spellchrome.duel` solves exactly.

    On its turn: a full attack on the nearest able foe if one is on offer, else an attack with the weapon in
    hand, else the turn ends; it never moves, casts, aids or gives up. It takes every attack of opportunity.
    """

    name = "steady"

    def choose(self, view: Any, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        view = as_dict_view(view, actor)  # transitional (issue 11): the policy still reads the old dict view
        kinds = _Legal(legal)
        if view["pending"]["phase"] == "attack_of_opportunity":
            return (kinds.of("attack_of_opportunity") or list(legal))[0].action
        me = view["combatants"][view["acting"]]
        foes = {a: c for a, c in view["combatants"].items() if c["side"] != me["side"] and c["able"]}
        full = [s for s in kinds.of("full_attack") if s.action["target"] in foes]
        single = [s for s in kinds.of("attack") if s.action["target"] in foes
                  and s.action.get("weapon", me["wielding"]) == me["wielding"]]
        for options in (full, single):
            if options:
                best = min(options, key=lambda s: (_dist(me["position"], foes[s.action["target"]]["position"]),
                                                   s.action["target"]))
                return best.action
        return (kinds.of("end_turn") or list(legal))[0].action
