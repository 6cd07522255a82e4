"""A heuristic policy for Spellchrome, working only from the seat's typed view and the legal-action list.

It takes every attack of opportunity offered; heals or stabilises a falling ally; attacks the weakest
foe it can reach; closes in (melee) or keeps a short distance (ranged) otherwise; and avoids provoking
whenever it can: among moves and attacks it prefers those whose notes carry no "provokes" warning
(SC-28), steps or withdraws away before shooting or casting in melee. It attacks helpless foes only
when the match option ``monsters_finish_the_dying`` is on and it is a monster or NPC (ruling SC-R7).
After the fight (SC-04) the listing holds no blows, so it binds or heals a dying ally within reach or ends
its turn.

It reads the view's attributes (``view.combatant(actor).bars``, ``c.detail.weapons``), never the rule state.
"""

from __future__ import annotations

from collections.abc import Sequence

from affray.core.engine import Action, ActionSpec
from affray.core.policy import Choices, Observation
from affray.core.rng import RNG
from affray.core.view import CombatantView, View
from affray.rulesets.spellchrome.views import SpellchromeCombatantDetail, SpellchromeDetail

Square = tuple[int, int]
Fighter = CombatantView[SpellchromeCombatantDetail]
ScView = View[SpellchromeDetail, SpellchromeCombatantDetail]


def _dist(a: Sequence[float], b: Sequence[float]) -> float:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _at(c: Fighter) -> Square:
    assert c.position is not None  # every Spellchrome combatant stands on a square
    return (int(c.position.x), int(c.position.y))


def _hp(c: Fighter) -> tuple[int, int]:
    bar = c.bars[0]  # HP first, then EX-HP (views.py)
    return bar.value, bar.max


def _provokes(spec: ActionSpec) -> bool:
    notes = spec.notes
    return bool(notes) and any("provokes" in note for note in notes)


#: The listing's order (``legal.turn_actions``): blows and spells first, then the movement, then the support actions.
HEAD = frozenset({"attack", "full_attack", "cast"})
TAIL = frozenset({"first_aid", "draw", "give_up", "end_turn"})


class _Legal:
    """The legal actions by type, without walking the whole listing: the few blows and spells at its head and the
    support actions at its tail are found by scanning in from both ends; the movement between them (most of the
    ~90 specs) is grouped only when a move is wanted. Each group keeps the list's order."""

    def __init__(self, legal: Sequence[ActionSpec]) -> None:
        self.all = legal
        i, j = 0, len(legal)
        while i < j and legal[i].action["type"] in HEAD:
            i += 1
        while j > i and legal[j - 1].action["type"] in TAIL:
            j -= 1
        self.head, self.tail = legal[:i], legal[j:]
        self.middle = (i, j)
        self._groups: dict[str, list[ActionSpec]] | None = None

    def _middle(self) -> dict[str, list[ActionSpec]]:
        if self._groups is None:
            self._groups = {}
            i, j = self.middle
            for k in range(i, j):
                spec = self.all[k]
                self._groups.setdefault(spec.action["type"], []).append(spec)
        return self._groups

    def of(self, *kinds: str) -> list[ActionSpec]:
        """The actions of ``kinds``, kind by kind. Callers only take a ``min`` whose key tells kinds apart, so
        the order between kinds does not matter; within a kind it is the legal list's."""
        out: list[ActionSpec] = []
        for kind in kinds:
            if kind in HEAD:
                out += [s for s in self.head if s.action["type"] == kind]
            elif kind in TAIL:
                out += [s for s in self.tail if s.action["type"] == kind]
            else:
                out += self._middle().get(kind, ())
        return out


class SpellchromeHeuristic:
    name = "heuristic"

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: ScView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        grouped = _Legal(legal)
        if view.phase == "attack_of_opportunity":
            return (grouped.of("attack_of_opportunity") or list(legal))[0].action
        everyone = view.by_id()
        me = everyone[actor]
        for pick in (self._rescue, self._attack, self._reposition_to_shoot, self._move):
            action = pick(view, me, everyone, grouped)
            if action is not None:
                return action
        return (grouped.of("end_turn") or list(legal))[0].action

    @staticmethod
    def _targets(view: ScView, me: Fighter, everyone: dict[str, Fighter]) -> dict[str, Fighter]:
        finish = view.detail.monsters_finish_the_dying and me.detail.kind != "character"
        return {a: c for a, c in everyone.items() if c.side != me.side
                and (c.detail.able or (finish and c.detail.status in ("unconscious", "dying", "stable")))}

    def _rescue(self, view: ScView, me: Fighter, everyone: dict[str, Fighter], legal: _Legal) -> Action | None:
        for spec in legal.of("cast"):
            t = everyone[spec.action["target"]]
            heal = me.detail.spell(spec.action["spell"]).effect == "heal"
            hp, top = _hp(t)
            if heal and (t.detail.status in ("dying", "unconscious") or 3 * hp <= top) and not _provokes(spec):
                return spec.action
        aid = [s for s in legal.of("first_aid") if everyone[s.action["target"]].side == me.side]
        return aid[0].action if aid else None

    def _attack(self, view: ScView, me: Fighter, everyone: dict[str, Fighter], legal: _Legal) -> Action | None:
        targets = self._targets(view, me, everyone)
        options = [s for s in legal.of("full_attack", "attack") if s.action["target"] in targets]
        options += [s for s in legal.of("cast") if s.action["target"] in targets]
        safe = [s for s in options if not _provokes(s)]
        if not safe:
            return None

        def key(s: ActionSpec) -> tuple[int, int, int, str]:
            t = everyone[s.action["target"]]
            kind = {"full_attack": 0, "attack": 1, "cast": 2}[s.action["type"]]
            unarmed = 1 if s.action.get("weapon") == "unarmed" and me.detail.wielding != "unarmed" else 0
            return (unarmed, kind, _hp(t)[0], s.action["target"])
        return min(safe, key=key).action

    def _reposition_to_shoot(self, view: ScView, me: Fighter, everyone: dict[str, Fighter], legal: _Legal
                             ) -> Action | None:
        """A shooter or caster in melee steps or withdraws out of reach before acting (SC-27 (d), (e))."""
        if me.detail.weapon().kind != "ranged" and not me.detail.spells:
            return None
        menace = [_at(c) for c in everyone.values() if c.side != me.side and c.detail.melee_armed]
        here = _at(me)
        if not any(_dist(here, p) == 1 for p in menace):
            return None
        for spec in legal.of("step") + legal.of("withdraw"):
            to = spec.action["to"]
            if all(_dist(to, p) > 1 for p in menace):
                return spec.action
        return None

    def _move(self, view: ScView, me: Fighter, everyone: dict[str, Fighter], legal: _Legal) -> Action | None:
        targets = self._targets(view, me, everyone)
        moves = legal.of("move", "run")
        if not targets or not moves:
            return None
        weapon = me.detail.weapon()
        ranged = weapon.kind == "ranged"
        reach = max(2, weapon.range_squares) if ranged else 1
        spots = [_at(t) for t in targets.values()]
        mx, my = _at(me)
        here = min(_dist((mx, my), t) for t in spots)
        # No move can beat standing here when here is already the best a gap can be: 0, or -1 (a melee fighter
        # ending on a helpless target's square; able targets' squares are never legal end squares, SC-24).
        floor = -1 if not ranged and not all(t.detail.able for t in targets.values()) else 0
        if (max(0, here - reach) if ranged else here - 1) <= floor:
            return None

        def score(spec: ActionSpec) -> tuple[float, int, int]:
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

    def choose(self, seen: Observation, choices: Choices, rng: RNG) -> Action:
        return self._choose(seen.view(), choices.actor, choices.all(), rng)

    def _choose(self, view: ScView, actor: str, legal: Sequence[ActionSpec], rng: RNG) -> Action:
        kinds = _Legal(legal)
        if view.phase == "attack_of_opportunity":
            return (kinds.of("attack_of_opportunity") or list(legal))[0].action
        everyone = view.by_id()
        me = everyone[actor]
        foes = {a: c for a, c in everyone.items() if c.side != me.side and c.detail.able}
        full = [s for s in kinds.of("full_attack") if s.action["target"] in foes]
        single = [s for s in kinds.of("attack") if s.action["target"] in foes
                  and s.action.get("weapon", me.detail.wielding) == me.detail.wielding]
        for options in (full, single):
            if options:
                best = min(options, key=lambda s: (_dist(_at(me), _at(foes[s.action["target"]])),
                                                   s.action["target"]))
                return best.action
        return (kinds.of("end_turn") or list(legal))[0].action


#: The policies this ruleset offers, by name (its plug-in record lists them; ``random`` serves every ruleset).
POLICIES = {"heuristic": SpellchromeHeuristic, "steady": SpellchromeSteady}
