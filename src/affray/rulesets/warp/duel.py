"""The exact outcome of a WaRP one-on-one melee duel under the ``steady`` policy (:mod:`affray.rulesets.warp.policies`).

The model (Rules: WR-05, WR-08..WR-11, WR-19, WR-20, WR-24, WR-25, WR-31, WR-B2, WR-B8, WR-B15): both fighters
start within melee reach, aware, standing, on their feet. Initiative is rolled once (or each round with
``reroll_initiative_each_round``; or taken from the seating order); ties go to the larger pool, then the PC,
then a fair roll-off (WR-B8). Each round, in order, each fighter still up makes one melee attack with the
weapon in hand and its best suitable trait; the target makes one defense roll with its best defense trait.
A non-combat trait serves attack or defense in one round, not both (WR-09, WR-B15 as revised: locked to the
round's end; with ``trait_lock: until_next_turn``, the earlier reading, to its owner's next turn), so the
defense trait depends on the turn order and on whether it is the first round. Rolls carry the ruleset's
own standing modifiers (Messed Up at half HP; armour and flaws on agility-related rolls, which include every
attack and defense roll, WR-20: the engine's ``rolls.standing``) and the static advantages (better
weaponry, better position, WR-31). The steady policy never spends Experience Pool dice, never repeats a
maneuver (so never takes the predictable-attack penalty, WR-17), never uses special effects. A fighter at
0 HP or less is down for the count (WR-25).

State: both fighters' HP and the turn order. Every exchange maps the ruleset's ``pool_total``, ``hit``,
``damage`` and ``armour_absorb`` over the enumerated dice (:mod:`affray.rulesets.warp.odds`). Scenarios outside the
model are refused with :class:`~affray.odds.markov.NotSolvable` and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from affray.core.plugin import DuelModel
from affray.odds.dist import map_dists
from affray.odds.markov import Chain, DuelOdds, NotSolvable, Number, mix_odds, solve
from affray.rulesets.warp.mechanics import better_weaponry
from affray.rulesets.warp.odds import Armour, exchange_dist, roll_dist
from affray.rulesets.warp.options import WarpOptions
from affray.rulesets.warp.rolls import Mods, agility_related, best, candidates, dice_of, lock, standing
from affray.rulesets.warp.setup import build_state, warp_setup
from affray.rulesets.warp.state import Fighter, TraitRating, WarpState

State = tuple[int, int, str]  # HP of A, HP of B, the order: "a"/"b" first, "roll" (roll it), "reroll"
Pool = tuple[int, int, int]  # dice, bonus dice, penalty dice
Weight = int | float  # a probability: a float, or in exact mode an integer numerator over SCALE (or SCALE^3)
#: Exact mode adds up a round's branches as integers over this scale (every probability here is n / (2^a 3^b)
#: with a, b far below 60), making one Fraction per next state instead of one per branch.
SCALE = 6**60


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The traits of one round, in the order attack X->Y, defense Y, attack Y->X, defense X."""

    attack_x: TraitRating | None
    defense_y: TraitRating | None
    attack_y: TraitRating | None
    defense_x: TraitRating | None


class WarpDuel:
    def __init__(self, state: WarpState, ids: tuple[str, str], exact: bool) -> None:
        self.state, self.ids, self.exact = state, ids, exact
        self.opts = state.options
        self.flags = {
            "cancel": self.opts.cancel_bonus_penalty,
            "botch": self.opts.botch,
            "full_die": self.opts.bonus_die_reading == "full_die",
        }
        self.plans: dict[tuple[int, bool], RoundPlan] = {}
        self.start_hp = {i: state.fighters[i].hp for i in ids}
        self.weights: dict[tuple[int, Pool, Pool], list[tuple[int, Weight]]] = {}

    # -- who rolls what -------------------------------------------------------------------------------
    def fighter(self, i: int) -> Fighter:
        return self.state.fighters[self.ids[i]]

    def plan(self, first: int, round1: bool) -> RoundPlan:
        """Replay one round's trait choices and WR-09 locks with the engine's own ``best``/``candidates``."""
        key = (first, round1)
        if key not in self.plans:
            x, y = self.fighter(first), self.fighter(1 - first)
            by_turn = self.opts.trait_lock == "until_next_turn"
            x.locks, y.locks = {}, {}
            if by_turn and not round1:
                lock(y, best(y, "melee", "attack", y.wielding), "attack")  # its attack last round
            tx = best(x, "melee", "attack", x.wielding)
            lock(x, tx, "attack")
            dy = next(iter(candidates(y, "defense", "defense", y.wielding)), None)
            lock(y, dy, "defense")
            if by_turn:
                y.locks = {}
            ty = best(y, "melee", "attack", y.wielding)
            lock(y, ty, "attack")
            dx = next(iter(candidates(x, "defense", "defense", x.wielding)), None)
            x.locks, y.locks = {}, {}
            self.plans[key] = RoundPlan(tx, dy, ty, dx)
        return self.plans[key]

    def pool(self, f: Fighter, hp: int, use: str, trait: TraitRating | None, extra_bonus: int = 0) -> Pool:
        """The roll's dice with the roller's standing bonus and penalty dice at ``hp`` (the engine's
        ``rolls.standing``: Messed Up, armour, flaws, protecting a loved one)."""
        saved, f.hp = f.hp, hp
        try:
            mods = standing(self.state, f, use, agility_related(self.state, trait, use), Mods())
        finally:
            f.hp = saved
        return dice_of(trait), len(mods.bonus) + extra_bonus, len(mods.penalty)

    def advantage(self, f: Fighter, t: Fighter) -> int:
        """Static bonus dice of the attacker (WR-31): better weaponry, better position."""
        return int(better_weaponry(f.arms[f.wielding].handiness, t.arms[t.wielding].handiness)) + int(
            f.high_ground and not t.high_ground
        )

    def exchange(
        self, att: int, hp_att: int, hp_def: int, attack: TraitRating | None, defense: TraitRating | None
    ) -> list[tuple[int, Weight]]:
        """Damage after armour of one attack by fighter ``att`` (0 or 1), as ``(damage, weight)``: a float, or
        in exact mode an integer numerator over :data:`SCALE`."""
        f, t = self.fighter(att), self.fighter(1 - att)
        a = self.pool(f, hp_att, "melee", attack, self.advantage(f, t))
        d = self.pool(t, hp_def, "defense", defense)
        key = (att, a, d)
        found = self.weights.get(key)
        if found is None:
            armour = Armour(t.armour.dice, t.armour.flat, t.armour.bullet_dice)
            factor = f.arms[f.wielding].melee or 0
            dist = exchange_dist(a, d, factor, armour, alternate=self.opts.alternate_damage, **self.flags)[1]
            found = self.weights[key] = [(k, self.weight(p)) for k, p in sorted(dist.items())]
        return found

    def weight(self, p: Fraction) -> Weight:
        if not self.exact:
            return float(p)
        if SCALE % p.denominator:
            raise NotSolvable(f"a probability with denominator {p.denominator} does not fit the exact scale")
        return p.numerator * (SCALE // p.denominator)

    # -- initiative ---------------------------------------------------------------------------------
    def initiative(self, hp: tuple[int, int]) -> dict[int, Fraction]:
        """P(fighter 0 acts first), P(fighter 1 acts first): WR-05, WR-B8 (a roll-off is a fair coin)."""
        if self.opts.initiative != "trait":
            pcs = [i for i in (0, 1) if self.fighter(i).pc]
            gmcs = [i for i in (0, 1) if not self.fighter(i).pc]
            order = gmcs + pcs if self.opts.initiative == "seating_gm_first" else pcs + gmcs
            return {order[0]: Fraction(1)}
        rolls = []
        for i in (0, 1):
            f = self.fighter(i)
            trait = best(f, "initiative", None)
            dice, bonus, penalty = self.pool(f, hp[i], "initiative", trait)
            rolls.append((roll_dist(dice, bonus, penalty, **self.flags), dice, 0 if f.pc else 1))
        full = self.opts.initiative_ties == "pool_pc_rolloff"

        def first(r0: int, r1: int) -> int:
            k0 = (-r0, -rolls[0][1], rolls[0][2]) if full else (-r0,)
            k1 = (-r1, -rolls[1][1], rolls[1][2]) if full else (-r1,)
            return 0 if k0 < k1 else 1 if k1 < k0 else -1

        outcome = map_dists(first, rolls[0][0], rolls[1][0])
        tie = outcome.pop(-1, Fraction(0))
        return {i: outcome.get(i, Fraction(0)) + tie / 2 for i in (0, 1)}

    # -- the chain ----------------------------------------------------------------------------------
    def transitions(self, s: State, exact: bool) -> dict[State, Number]:
        hp_a, hp_b, order = s
        hp = (hp_a, hp_b)
        fixed = {0 if order == "a" else 1: Fraction(1)}
        orders = self.initiative(hp) if order in ("roll", "reroll") else fixed
        then = "reroll" if self.opts.reroll_initiative_each_round else None
        out: dict[State, Weight] = {}
        for first, p in orders.items():
            if p:
                nxt = then or ("a" if first == 0 else "b")
                self._round(hp, first, order == "roll", nxt, self.weight(p), out)
        if self.exact:
            cube = SCALE**3
            return {k: Fraction(int(v), cube) for k, v in out.items()}  # integers in exact mode
        return out

    def _round(
        self, hp: tuple[int, int], x: int, round1: bool, nxt: str, weight: Weight, out: dict[State, Weight]
    ) -> None:
        """One round with ``x`` first: its attack, then (if the target is still up) the answer. Weights
        multiply to a float, or to an integer over SCALE^3 in exact mode."""
        plan = self.plan(x, round1)
        y = 1 - x
        whole = SCALE if self.exact else 1.0
        for k1, p1 in self.exchange(x, hp[x], hp[y], plan.attack_x, plan.defense_y):
            after = [hp[0], hp[1]]
            after[y] -= k1
            w1 = weight * p1
            if after[y] <= 0:
                key: State = (1 if after[0] > 0 else 0, 1 if after[1] > 0 else 0, "end")
                out[key] = out.get(key, 0) + w1 * whole
                continue
            for k2, p2 in self.exchange(y, after[y], after[x], plan.attack_y, plan.defense_x):
                final = [after[0], after[1]]
                final[x] -= k2
                if final[x] <= 0:  # every finished state with the same winner is alike
                    key = (1 if final[0] > 0 else 0, 1 if final[1] > 0 else 0, "end")
                else:
                    key = (final[0], final[1], nxt)
                out[key] = out.get(key, 0) + w1 * p2

    def terminal(self, s: State) -> str | None:
        if s[2] != "end":
            return None
        return self.fighter(1).side if s[0] <= 0 else self.fighter(0).side

    def solve(self) -> DuelOdds:
        labels = (self.fighter(0).side, self.fighter(1).side, "draw")
        start: State = (self.start_hp[self.ids[0]], self.start_hp[self.ids[1]], "roll")
        return solve(Chain(start, self.transitions, self.terminal, labels), exact=self.exact)


def _refusal(state: WarpState) -> str | None:
    """Why the scenario lies outside the model, if it does."""
    o = state.options
    fighters = list(state.fighters.values())
    if state.mode != "combat":
        return "gestalt combat (WR-35) is one roll per side, not a duel of attacks"
    if len(fighters) != 2 or fighters[0].side == fighters[1].side:
        return "exact duels need exactly one combatant on each of two sides"
    if o.gm_decisions == "table":
        return "the GM makes calls at the table (gm_decisions: table), which no fixed model can know"
    if o.blow_the_top_off:
        return "Blowing the Top Off (WR-B12) rolls dice that keep exploding: no finite distribution"
    if not o.armour_after_factor:
        return "armour from the margin (WR-B4's alternative) is not modelled"
    for f in fighters:
        if f.out or f.hp <= 0 or f.stun:
            return f"{f.name} starts out of the fight or with temporary damage"
        if f.unaware or f.prone or f.held_by:
            return f"{f.name} starts unaware, prone or held: surprise and holds change the first rounds"
        if f.arms[f.wielding].melee is None:
            return f"{f.name} wields the {f.arms[f.wielding].name}, which cannot be used hand to hand"
    if abs(fighters[0].position - fighters[1].position) > o.melee_reach_m:
        return "the fighters start out of melee reach: closing in and missiles are not modelled"
    plain = [m for m in state.maneuvers.values() if m.melee and m.special == "none" and not m.predictable]
    if any(f.pc for f in fighters) and (len(plain) < 2 or "attack" not in state.maneuvers):
        return "a PC needs two plain melee maneuvers to avoid predictable attacks (WR-17)"
    return None


def duel_odds(
    setup: Mapping[str, object], options: Mapping[str, object] | None = None, exact: bool = False
) -> DuelOdds:
    """Exact outcome of a WaRP one-on-one melee scenario under the steady policy; :class:`NotSolvable` says
    why when the scenario lies outside the model."""
    from affray.core.options import parse_options

    opts = parse_options(WarpOptions, options)
    state = build_state(warp_setup(setup), opts)
    reason = _refusal(state)
    if reason is not None:
        raise NotSolvable(reason)
    ids = list(state.fighters)
    duel = WarpDuel(state, (ids[0], ids[1]), exact)
    return duel.solve()


__all__ = ["WarpDuel", "duel_odds", "mix_odds"]


#: The exact duel model: the solver and what it assumes, in one sentence (printed with every answer).
DUEL = DuelModel(
    duel_odds,
    (
        "both sides play 'steady': a melee attack each turn with the weapon in hand, best trait, a fresh "
        "plain maneuver, no Experience Pool dice; best defense trait; starting within reach"
    ),
)
