"""The exact outcome of a Spellchrome one-on-one melee duel under the ``steady`` policy
(:mod:`affray.rulesets.spellchrome.policies`).

The model (Rules: SC-02..SC-05, SC-07, SC-15, SC-16, SC-B1 (the SRD-standard assumption), SC-B6): the two
start adjacent, both with close weapons in hand (nothing provokes an attack of opportunity, SC-27), and
neither moves. Initiative is d20 + Dex modifier + miscellaneous bonuses (+ the aware side's surprise bonus on the
first roll, or on every roll with ``surprise_on_reroll``), ties to the higher Dexterity score, then a fair d10
roll-off; kept for the fight or rolled every round.
Each turn the steady fighter makes a full attack (BAB, BAB - 5, ... while above 0; SC-15) or a single
attack: every attack maps the ruleset's ``attack_hits`` over the d20 and the weapon's damage dice plus the
Str modifier (at least 0, times the critical multiplier on a natural 20) through ``apply_damage``
(damage reduction, EX-HP, then HP). A fighter below 1 HP is out of the fight (unconscious, dying or dead),
which ends it. The attack bonus and Defense come from the engine's own ``combat.attack_bonus`` and
``combat.defense_of``.

State: HP and EX-HP of both and the turn order. Scenarios outside the model are refused with
:class:`~affray.odds.markov.NotSolvable` and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from affray.core.grid import adjacent
from affray.core.plugin import DuelModel
from affray.odds.dist import die, map_dists
from affray.odds.markov import Chain, DuelOdds, NotSolvable, Number, solve
from affray.rulesets.spellchrome.combat import attack_bonus, defense_of
from affray.rulesets.spellchrome.mechanics import D20, apply_damage, initiative_total, iterative_bonuses
from affray.rulesets.spellchrome.odds import strike_dist
from affray.rulesets.spellchrome.options import SpellchromeOptions
from affray.rulesets.spellchrome.setup import build_state, spellchrome_setup
from affray.rulesets.spellchrome.state import CLOSE_KINDS, SpellchromeState

Fight = tuple[int, int, int, int, str]  # hp A, EX-HP A, hp B, EX-HP B, order: "a"/"b" first, "roll" or "reroll"
End = tuple[str, int]  # ("end", i): combatant i won
State = Fight | End


class SpellchromeDuel:
    def __init__(self, state: SpellchromeState, exact: bool) -> None:
        self.state, self.exact = state, exact
        self.opts = state.options
        self.c = list(state.combatants.values())
        self.order: dict[int, Fraction] = {}
        self.reorder: dict[int, Fraction] = {}
        self.plan: list[list[list[tuple[int, Number]]]] = []

    def number(self, p: Fraction) -> Number:
        return p if self.exact else float(p)

    def strikes(self, i: int) -> list[list[tuple[int, Number]]]:
        """Rolled damage of each attack of ``i``'s turn, before damage reduction (a miss is 0)."""
        c, t = self.c[i], self.c[1 - i]
        arm = c.arms[c.wielding]
        notation = arm.damage + (f"{c.mods['strength']:+d}" if c.mods["strength"] else "")
        out = []
        for base in iterative_bonuses(c.base_attack):
            dist = strike_dist(
                attack_bonus(c, arm, t, base),
                defense_of(t),
                notation,
                self.opts.critical_multiplier,
                self.opts.natural_attack_rolls,
            )
            out.append([(k, self.number(p)) for k, p in sorted(dist.items())])
        return out

    def initiative(self, first: bool = True) -> dict[int, Fraction]:
        """P(each acts first): SC-16, the surprise bonus (on a re-roll only with ``surprise_on_reroll``), ties by
        Dexterity score then a fair roll-off."""
        surprise = self.state.surprise if first or self.opts.surprise_on_reroll else None
        totals = []
        for c in self.c:
            bonus = surprise["bonus"] if surprise and c.side == surprise["aware"] else 0
            totals.append(
                map_dists(
                    lambda n, c=c, b=bonus: initiative_total(n, c.mods["dexterity"], c.initiative_bonus, b), die(D20)
                )
            )

        def ahead(x: int, y: int) -> int:
            kx, ky = (x, self.c[0].abilities["dexterity"]), (y, self.c[1].abilities["dexterity"])
            return 0 if kx > ky else 1 if ky > kx else -1

        outcome = map_dists(ahead, totals[0], totals[1])
        tie = outcome.pop(-1, Fraction(0))
        return {i: outcome.get(i, Fraction(0)) + tie / 2 for i in (0, 1)}

    def turn(self, body: tuple[int, int, int, int], i: int) -> dict[tuple[int, int, int, int], Number]:
        """``i`` attacks: each strike of its (full) attack through ``apply_damage`` while the foe is up."""
        j = 1 - i
        dist: dict[tuple[int, int, int, int], Number] = {body: self.number(Fraction(1))}
        for strike in self.plan[i]:
            nxt: dict[tuple[int, int, int, int], Number] = {}
            for b, p in dist.items():
                if b[2 * j] < 1:  # out of the fight: the fight is over
                    nxt[b] = nxt.get(b, 0) + p
                    continue
                for k, q in strike:
                    r = apply_damage(
                        b[2 * j], b[2 * j + 1], k, self.c[j].damage_reduction, False, self.opts.reduction_before_ex_hp
                    )
                    after = (r.hp, r.ex_hp, b[2], b[3]) if j == 0 else (b[0], b[1], r.hp, r.ex_hp)
                    nxt[after] = nxt.get(after, 0) + p * q
            dist = nxt
        return dist

    def transitions(self, s: State, exact: bool) -> dict[State, Number]:
        assert len(s) == 5  # the chain asks only of a state the fight goes on from
        body = (s[0], s[1], s[2], s[3])
        order = s[4]
        firsts = (
            self.order
            if order == "roll"
            else self.reorder
            if order == "reroll"
            else {0 if order == "a" else 1: Fraction(1)}
        )
        then = "reroll" if self.opts.reroll_initiative_each_round else None
        out: dict[State, Number] = {}
        for x, w in firsts.items():
            nxt = then or ("a" if x == 0 else "b")
            for b1, p1 in self.turn(body, x).items():
                if b1[2 * (1 - x)] < 1:
                    self._add(out, ("end", x), self.number(w) * p1)
                    continue
                for b2, p2 in self.turn(b1, 1 - x).items():
                    key: State = ("end", 1 - x) if b2[2 * x] < 1 else (*b2, nxt)
                    self._add(out, key, self.number(w) * p1 * p2)
        return out

    @staticmethod
    def _add(out: dict[State, Number], key: State, p: Number) -> None:
        out[key] = out.get(key, 0) + p

    def terminal(self, s: State) -> str | None:
        return self.c[s[1]].side if len(s) == 2 else None  # ("end", i)

    def solve(self) -> DuelOdds:
        self.order = self.initiative()
        self.reorder = self.initiative(first=False)
        self.plan = [self.strikes(0), self.strikes(1)]
        a, b = self.c
        start: State = (a.hp, a.ex_hp, b.hp, b.ex_hp, "roll")
        return solve(Chain(start, self.transitions, self.terminal, (a.side, b.side, "draw")), exact=self.exact)


def _refusal(state: SpellchromeState) -> str | None:
    fighters = list(state.combatants.values())
    if len(fighters) != 2 or fighters[0].side == fighters[1].side:
        return "exact duels need exactly one combatant on each of two sides"
    a, b = fighters
    if not adjacent(a.pos, b.pos):
        return "the two must start adjacent: movement and attacks of opportunity are not modelled"
    for c in fighters:
        if not c.able:
            return f"{c.name} starts out of the fight"
        if c.arms[c.wielding].kind not in CLOSE_KINDS:
            return f"{c.name} holds a ranged weapon: shooting in melee provokes (SC-27 (d)), not modelled"
    for c, t in ((a, b), (b, a)):
        if c.arms[c.wielding].kind == "unarmed" and "unarmed" not in c.guards and t.melee_armed:
            return f"{c.name} fights unarmed against a weapon: that provokes (SC-27 (c)), not modelled"
    return None


def duel_odds(
    setup: Mapping[str, object], options: Mapping[str, object] | None = None, exact: bool = False
) -> DuelOdds:
    """Exact outcome of a Spellchrome one-on-one melee scenario under the steady policy; :class:`NotSolvable`
    says why when the scenario lies outside the model."""
    from affray.core.options import parse_options

    opts = parse_options(SpellchromeOptions, options)
    state = build_state(spellchrome_setup(setup), opts)
    reason = _refusal(state)
    if reason is not None:
        raise NotSolvable(reason)
    return SpellchromeDuel(state, exact).solve()


#: The exact duel model: the solver and what it assumes, in one sentence (printed with every answer).
DUEL = DuelModel(
    duel_odds,
    (
        "both sides play 'steady': a (full) attack on the foe each turn with the weapon in hand, never "
        "moving; starting adjacent"
    ),
)
