"""The exact outcome of a WitchHammer one-on-one duel with fixed card plans (the ``steady`` policy of
:mod:`affray.rulesets.witchhammer.policies`: the same two Action cards every vignette, no Psych card).

The model (Rules: WH-03..WH-06, WH-12..WH-22, WH-B2..WH-B6, WH-B12, WH-B16, WH-B18): the two combatants start
adjacent, neither behind the other, without statuses. Each round both reveal their card for the slot; the
higher Init goes first (card Init + base Init + Malus), ties to more current Poise, then higher base Init,
then the PC, then a fair roll-off. On its turn a combatant resolves its card's nodes in order: moves toward
the foe (which do nothing while adjacent), attacks (:func:`affray.rulesets.witchhammer.odds.blows`: the ruleset's
``attack`` over the d20, with the card's on-hit and Solid-Hit damage and the attacker's Damage on Solid Hit),
damage (to itself or the foe, Poise-only or not) and Poise recovery. Damage lands through the ruleset's
``apply_damage`` and ``poise_damage``; the Malus follows Health (``malus_table``). A combatant at 0 Health
or less is out, and the fight ends when one side has nobody up.

States are (Poise, Health) of both, the card slot, and who still acts this round; a round where nobody is
hurt returns to an earlier state, and a card that restores Poise climbs back up, so the chain has cycles and
is solved by :func:`affray.odds.cyclic.solve_cyclic`. Cards with status effects, saves, checks or moves away
are outside the model and refused with the reason, as are starts apart or not facing each other (facing
the foe, neither is ever behind the other: an attack turns the attacker toward its target, WH-B14).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from affray.core.grid import direction, distance
from affray.core.plugin import DuelModel
from affray.odds.cyclic import solve_cyclic
from affray.odds.markov import Chain, DuelOdds, NotSolvable, Number
from affray.rulesets.witchhammer.mechanics import D20, RANGES, defense_against, initiative, malus_table
from affray.rulesets.witchhammer.odds import Blow, blows, land
from affray.rulesets.witchhammer.options import WitchHammerOptions
from affray.rulesets.witchhammer.policies import steady_plan
from affray.rulesets.witchhammer.setup import build_state, witchhammer_setup
from affray.rulesets.witchhammer.state import AttackNode, CardDef, Fighter, Node, WitchHammerState

# (poise A, health A, poise B, health B, slot 1 or 2, who acts next: -1 a new round, else 0 or 1); the end of
# the fight is (-1, winner) with winner 0, 1, or 2 for a draw.
State = tuple[int, ...]
Bodies = tuple[int, int, int, int]
FOES = ("nearest_enemy", "farthest_enemy", "largest_enemy", "weakest_enemy", "each_enemy", "each_adjacent_enemy")
SELVES = ("self", "each_ally")


class WitchHammerDuel:
    def __init__(self, state: WitchHammerState, exact: bool) -> None:
        self.state, self.exact = state, exact
        self.opts = state.options
        self.f = list(state.fighters.values())
        self.plans: list[list[CardDef]] = []
        for f in self.f:
            ids = steady_plan(f.deck, state.cards)
            ids += [self.opts.default_card] * (2 - len(ids))
            self.plans.append([state.cards[c] for c in ids])
        self.malus = [self._malus_of(f) for f in self.f]
        self.landed: dict[tuple[int, ...], list[tuple[int, int, int]]] = {}

    def _malus_of(self, f: Fighter) -> list[int]:
        """The Malus by current Health, down to any negative value (WH-20, WH-B6; the engine's lookup)."""
        if f.kind == "monster" and not self.opts.malus_applies_to_monsters:
            return [0] * (f.max_health + 1)
        table = malus_table(f.max_health)
        return [
            table[min(f.max_health - h, len(table) - 1)] if h < f.max_health else 0 for h in range(f.max_health + 1)
        ]

    def malus_at(self, i: int, health: int) -> int:
        table = self.malus[i]
        return table[max(0, min(health, len(table) - 1))]

    # -- one round ------------------------------------------------------------------------------------
    def first(self, s: Bodies, slot: int) -> dict[int, Fraction]:
        """Who acts first (WH-06, WH-B12): higher Init, then more current Poise, base Init, the PC, a coin."""
        ties = self.opts.initiative_ties == "base_then_pcs"
        keys = []
        for i, f in enumerate(self.f):
            value = initiative(self.plans[i][slot - 1].init, f.init, self.malus_at(i, s[2 * i + 1]))
            tail = (-f.init, 0 if f.kind == "pc" else 1) if ties else (0, 0)
            keys.append((-value, -s[2 * i], *tail))
        if keys[0] == keys[1]:
            return {0: Fraction(1, 2), 1: Fraction(1, 2)}
        return {0 if keys[0] < keys[1] else 1: Fraction(1)}

    def turn(self, s: Bodies, i: int, slot: int) -> tuple[dict[Bodies, int], int]:
        """``i`` resolves its card for ``slot`` from bodies ``s``: the bodies after it, as integer weights over
        a common denominator (each attack node multiplies it by 20; exact integers, one division at the end)."""
        dist: dict[Bodies, int] = {s: 1}
        den = 1
        for node in self.plans[i][slot - 1].below:
            nxt: dict[Bodies, int] = {}
            scale = D20 if node["type"] == "attack" else 1
            den *= scale
            for b, p in dist.items():
                if b[2 * i + 1] <= 0:  # the actor fell (its own damage node): the card stops (nodes.run)
                    nxt[b] = nxt.get(b, 0) + p * scale
                    continue
                for b2, q in self.node(b, i, slot, node):
                    nxt[b2] = nxt.get(b2, 0) + p * q
            dist = nxt
        return dist, den

    def node(self, b: Bodies, i: int, slot: int, node: Node) -> list[tuple[Bodies, int]]:
        """One node's outcomes with integer weights: out of 20 for an attack, out of 1 otherwise."""
        if node["type"] == "move":
            return [(b, 1)]  # toward a foe already adjacent: no step (WH-08)
        if node["type"] == "attack":
            return self.attack(b, i, slot, node)
        if node["type"] != "damage" and node["type"] != "recover":  # _refusal keeps the others out
            raise NotSolvable(f"a {node['type']} node is not modelled")
        who = self.recipient(i, node["to"])
        if who is None or b[2 * who + 1] <= 0:
            return [(b, 1)]
        body = list(b)
        if node["type"] == "damage":
            blow = Blow(node["amount"], 0, False, False, False, False)
            body[2 * who], body[2 * who + 1], _ = land(
                b[2 * who],
                b[2 * who + 1],
                blow,
                poise_only=node["poise_only"],
                extra_penetration=self.opts.penetration == "extra",
            )
        else:  # recover: Poise up to max (WH-B10)
            body[2 * who] = min(self.f[who].max_poise, b[2 * who] + node["poise"])
        return [((body[0], body[1], body[2], body[3]), 1)]

    def recipient(self, i: int, to: str) -> int | None:
        if to in SELVES:
            return i
        if to in FOES:
            return 1 - i
        return None  # 'target' outside an attack, or an ally that does not exist

    def attack(self, b: Bodies, i: int, slot: int, node: AttackNode) -> list[tuple[Bodies, int]]:
        """One attack node (WH-11..WH-19) through :func:`blows` and :func:`land`; weights out of 20."""
        j = 1 - i
        if b[2 * j + 1] <= 0:
            return [(b, D20)]
        f, t, card = self.f[i], self.f[j], self.plans[j][slot - 1]
        bonus = node["attack"] + f.attack + self.malus_at(i, b[2 * i + 1])
        aspects = node["aspects"]
        aspect = sum(t.defenses.get(a, 0) + card.defenses.get(a, 0) for a in aspects if a != "melee")
        defense = defense_against(
            t.defense + card.defense,
            aspect,
            "melee" in aspects,
            self.malus_at(j, b[2 * j + 1]),
            self.opts.halve_rounding,
        )
        on_hit = sum(n["amount"] for n in node["on_hit"] if n["type"] == "damage")
        on_solid = f.solid_damage + sum(n["amount"] for n in node["on_solid_hit"] if n["type"] == "damage")
        key = (bonus, defense, on_hit, on_solid, node["poise_only"], j, b[2 * j], b[2 * j + 1])
        landed = self.landed.get(key)
        if landed is None:
            extra = self.opts.penetration == "extra"
            landed = []
            for blow, p in blows(
                bonus,
                defense,
                on_hit,
                on_solid,
                clamp_margin=self.opts.clamp_margin,
                solid_on=self.opts.solid_hit_on,
                crit_wound=self.opts.crit_wound,
            ).items():
                poise, health, _ = land(
                    b[2 * j], b[2 * j + 1], blow, poise_only=node["poise_only"], extra_penetration=extra
                )
                landed.append((poise, health, int(p * D20)))
            self.landed[key] = landed
        out = []
        for poise, health, count in landed:
            body = list(b)
            body[2 * j], body[2 * j + 1] = poise, health
            out.append(((body[0], body[1], body[2], body[3]), count))
        return out

    # -- the chain ----------------------------------------------------------------------------------
    def transitions(self, s: State, exact: bool) -> dict[State, Number]:
        bodies: Bodies = (s[0], s[1], s[2], s[3])
        slot, who = s[4], s[5]
        counts: dict[State, int] = {}
        firsts = self.first(bodies, slot) if who == -1 else {who: Fraction(1)}
        turns = [(actor, w, *self.turn(bodies, actor, slot)) for actor, w in firsts.items()]
        den = math.lcm(*(d * w.denominator for _, w, _, d in turns))
        for actor, w, dist, d in turns:
            factor = w.numerator * (den // (d * w.denominator))
            for after, p in dist.items():
                end = self.ended(after)
                if end is not None:
                    key: State = (-1, end)
                elif who == -1:
                    key = (*after, slot, 1 - actor)
                else:
                    key = (*after, 2 if slot == 1 else 1, -1)
                counts[key] = counts.get(key, 0) + p * factor
        if exact:
            return {k: Fraction(v, den) for k, v in counts.items()}
        return {k: v / den for k, v in counts.items()}

    @staticmethod
    def ended(b: Bodies) -> int | None:
        up = (b[1] > 0, b[3] > 0)
        if all(up):
            return None
        return 0 if up[0] else 1 if up[1] else 2

    def terminal(self, s: State) -> str | None:
        if s[0] != -1:
            return None
        return self.f[s[1]].side if s[1] < 2 else "draw"

    def solve(self, max_states: int) -> DuelOdds:
        start: State = (self.f[0].poise, self.f[0].health, self.f[1].poise, self.f[1].health, 1, -1)
        labels = (self.f[0].side, self.f[1].side, "draw")
        chain = Chain(start, self.transitions, self.terminal, labels)
        return solve_cyclic(chain, exact=self.exact, cost=lambda s: 1 if s[5] == -1 else 0, max_states=max_states)


def _node_problem(node: Node) -> str | None:
    if node["type"] == "move":
        return "moves away" if node["direction"] == "away" else None
    if node["type"] == "attack":
        extra = [
            n["type"]
            for n in (*node["on_hit"], *node["on_solid_hit"])
            if not (n["type"] == "damage" and n["to"] == "target")
        ]
        return f"triggers {', '.join(sorted(set(extra)))} on a hit" if extra else None
    if node["type"] == "damage" or node["type"] == "recover":
        return None if node["to"] in (*FOES, *SELVES, "target", "nearest_ally") else f"names '{node['to']}'"
    return f"has a {node['type']} node"


def _refusal(state: WitchHammerState, duel: WitchHammerDuel) -> str | None:
    fighters = duel.f
    if state.options.drama_timer:
        return "the Drama Timer (WH-B20) lets the GM fill slots with the default card at any moment"
    for f, plan in zip(fighters, duel.plans, strict=True):
        if f.statuses or f.health <= 0:
            return f"{f.name} starts down or under a status effect"
        for card in plan:
            for node in card.below:
                problem = _node_problem(node)
                if problem is not None:
                    return f"{f.name}'s {card.name} {problem}: statuses, saves, checks and moves away are not modelled"
                if node["type"] == "attack" and RANGES[node["range"]] < 1:
                    return f"{f.name}'s {card.name} cannot reach an adjacent foe"
    a, b = fighters
    if distance(a.pos, b.pos) != 1:
        return "the two must start adjacent: movement on the map is not modelled"
    facing_each_other = a.facing == direction(a.pos, b.pos) and b.facing == direction(b.pos, a.pos)
    if state.options.facing != "none" and not facing_each_other:
        return "the two must start facing each other (WH-25, WH-B14): attacks from behind are not modelled"
    return None


def duel_odds(
    setup: Mapping[str, object],
    options: Mapping[str, object] | None = None,
    exact: bool = False,
    max_states: int = 150_000,
) -> DuelOdds:
    """Exact outcome of a WitchHammer one-on-one scenario under the steady card plans; :class:`NotSolvable`
    says why when the scenario lies outside the model or is too large."""
    from affray.core.options import parse_options

    opts = parse_options(WitchHammerOptions, options)
    state = build_state(witchhammer_setup(setup), opts)
    fighters = list(state.fighters.values())
    if len(fighters) != 2 or fighters[0].side == fighters[1].side:
        raise NotSolvable("exact duels need exactly one combatant on each of two sides")
    duel = WitchHammerDuel(state, exact)
    reason = _refusal(state, duel)
    if reason is not None:
        raise NotSolvable(reason)
    return duel.solve(max_states)


#: The exact duel model: the solver and what it assumes, in one sentence (printed with every answer).
DUEL = DuelModel(
    duel_odds,
    (
        "both sides play 'steady': the first two reusable Action cards of the deck every vignette, no Psych "
        "card; starting adjacent and facing each other"
    ),
)
