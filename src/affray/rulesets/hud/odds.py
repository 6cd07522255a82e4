"""Exact odds for the Sim HuD, mapped through the ruleset's own mechanic functions.

- :func:`exchange_odds`: one Combat Nerdified exchange (Rules: WL-11, WL-12, WL-13): the chance of a hit,
  of a riposte opening, and the hit-point loss distribution over the whole exchange (a miss is 0).
- :func:`duel_odds`: a one-against-one scenario, exactly: Dice Simplified (WL-04..WL-07) and Combat
  Nerdified without pursuit (WL-08..WL-14), both with the ``steady`` policy of :mod:`affray.rulesets.hud.policies`
  (Nerdified: attack and defend each round, always defend when able, always riposte, never disengage or
  take an additional action; Simplified: roll the die with the better modifier).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from affray.core.actions import Field
from affray.core.checks import Check, CheckResult, Params, checks
from affray.core.plugin import DuelModel
from affray.odds.dist import die, map_dists, mix, probability
from affray.odds.markov import Chain, DuelOdds, NotSolvable, Number, convert, mix_odds, solve
from affray.rulesets.hud.combat import attack_arm, attack_modifier, damage_modifier, defense_modifier, injury_modifier
from affray.rulesets.hud.mechanics import HUD_DIE, exchange, hp_loss, simplified_hit
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.setup import at_range as ranged_start
from affray.rulesets.hud.setup import build_state, hud_setup
from affray.rulesets.hud.simplified import die_modifier
from affray.rulesets.hud.state import HudState


@dataclass(frozen=True, slots=True)
class ExchangeOdds:
    p_hit: Fraction
    p_riposte: Fraction
    hp_loss: dict[int, Fraction]  # over the whole exchange, a miss counting as 0
    loss_on_hit: dict[int, Fraction]


@lru_cache(maxsize=4096)
def exchange_odds(
    attack_mod: int = 0, defense_mod: int = 0, damage_mod: int = 0, injury_mod: int = 0, riposte_margin: int = 6
) -> ExchangeOdds:
    """Attack vs Defense, then Damage vs Injury on a hit. Rules: WL-11, WL-12, WL-13."""
    result = map_dists(lambda a, d: exchange(a, d, riposte_margin), die(HUD_DIE, attack_mod), die(HUD_DIE, defense_mod))
    p_hit = probability(result, lambda r: r.hit)
    p_riposte = probability(result, lambda r: r.riposte)
    on_hit = map_dists(hp_loss, die(HUD_DIE, damage_mod), die(HUD_DIE, injury_mod))
    return ExchangeOdds(p_hit, p_riposte, mix([(p_hit, on_hit), (1 - p_hit, {0: Fraction(1)})]), on_hit)


@lru_cache(maxsize=4096)
def simplified_hit_chance(attacker_mod: int, defender_mod: int) -> Fraction:
    """Dice Simplified: P(attacker's d13 + mod > defender's d13 + mod). Rule: WL-06."""
    return probability(map_dists(simplified_hit, die(HUD_DIE, attacker_mod), die(HUD_DIE, defender_mod)), bool)


def _one_on_one(setup: Mapping[str, Any], options: HudOptions) -> tuple[HudState, str, str]:
    state, bands = build_state(hud_setup(setup), options)
    at_range = ranged_start(bands)
    ids = list(state.fighters)
    sides = {f.side for f in state.fighters.values()}
    if len(ids) != 2 or len(sides) != 2:
        raise NotSolvable("exact duels need exactly one combatant on each of two sides")
    a, b = ids
    if state.mode == "nerdified" and any(at_range.values()):
        raise NotSolvable("a combatant starts at range: the free round and closing in are not modelled exactly")
    return state, a, b


def _simplified(state: HudState, a: str, b: str, setup: Mapping[str, Any], exact: bool) -> DuelOdds:
    fa, fb = state.fighters[a], state.fighters[b]
    best_att = {x: max(die_modifier(f, "attack"), die_modifier(f, "damage")) for x, f in ((a, fa), (b, fb))}
    best_def = {x: max(die_modifier(f, "defense"), die_modifier(f, "injury")) for x, f in ((a, fa), (b, fb))}
    hit = {
        a: convert(simplified_hit_chance(best_att[a], best_def[b]), exact),
        b: convert(simplified_hit_chance(best_att[b], best_def[a]), exact),
    }

    def transitions(st: tuple[int, int, str], ex: bool) -> dict[tuple[int, int, str], Number]:
        hp_a, hp_b, first = st
        second = b if first == a else a
        out: dict[tuple[int, int, str], Number] = {}

        def hurt(h: tuple[int, int], who: str) -> tuple[int, int]:
            return (h[0] - 1, h[1]) if who == a else (h[0], h[1] - 1)

        for h1, p1 in ((hurt((hp_a, hp_b), second), hit[first]), ((hp_a, hp_b), 1 - hit[first])):
            if min(h1) <= 0:
                out[(*h1, first)] = out.get((*h1, first), 0) + p1
                continue
            for h2, p2 in ((hurt(h1, first), hit[second]), (h1, 1 - hit[second])):
                out[(*h2, first)] = out.get((*h2, first), 0) + p1 * p2
        return out

    def terminal(st: tuple[int, int, str]) -> str | None:
        return fb.side if st[0] <= 0 else fa.side if st[1] <= 0 else None

    labels = (fa.side, fb.side, "draw")
    firsts = [(Fraction(1), setup["first"])] if setup.get("first") else [(Fraction(1, 2), a), (Fraction(1, 2), b)]
    return mix_odds(
        [(p, solve(Chain((fa.hp, fb.hp, f), transitions, terminal, labels), exact=exact)) for p, f in firsts], exact
    )


def _free_attack(state: HudState, at_range: dict[str, bool]) -> str | None:
    """The Dice Simplified free attacker, if any (WL-07)."""
    eligible = [
        x for x, f in state.fighters.items() if at_range[x] and any(w.kind == "ranged" for w in f.arms.values())
    ]
    return eligible[0] if len(eligible) == 1 else None


NState = tuple[int, int, int, int]  # hp of A, hp of B, defenses left of A, of B


def _nerdified(state: HudState, a: str, b: str, exact: bool) -> DuelOdds:
    opts = state.options
    if not opts.riposte_costs_defense:
        raise NotSolvable("with free riposte defenses (WL-B5 off) riposte chains are unbounded")
    fighters = (state.fighters[a], state.fighters[b])
    exch = []
    for i in (0, 1):
        att, dfn = fighters[i], fighters[1 - i]
        arm = attack_arm(att, dfn)
        odds = exchange_odds(
            attack_modifier(att, arm, False),
            defense_modifier(dfn),
            damage_modifier(state.options, att, arm, False),
            injury_modifier(state.options, dfn),
            opts.riposte_margin,
        )
        losses = {k: convert(p, exact) for k, p in odds.loss_on_hit.items()}
        exch.append((convert(odds.p_hit, exact), convert(odds.p_riposte, exact), losses))
    attacks = [f.actions - 1 for f in fighters]
    if min(attacks) < 1:
        raise NotSolvable("the steady plan needs at least two actions (an attack and a defense)")

    def damage(st: NState, att: int) -> dict[NState, Number]:
        out: dict[NState, Number] = {}
        for loss, p in exch[att][2].items():
            hp = [st[0], st[1]]
            hp[1 - att] -= loss
            key = (hp[0], hp[1], st[2], st[3])
            out[key] = out.get(key, 0) + p
        return out

    def attack(st: NState, att: int) -> dict[NState, Number]:
        if st[0] <= 0 or st[1] <= 0:
            return {st: 1}
        dfn = 1 - att
        if st[2 + dfn] == 0:
            return damage(st, att)
        defended = list(st)
        defended[2 + dfn] -= 1
        st1: NState = (defended[0], defended[1], defended[2], defended[3])
        p_hit, p_riposte, _ = exch[att]
        parry = (1 - p_hit - p_riposte, {st1: Fraction(1)})
        return mix([(p_hit, damage(st1, att)), parry, (p_riposte, attack(st1, dfn))])

    def side_acts(dist: dict[NState, Number], who: int) -> dict[NState, Number]:
        for _ in range(attacks[who]):
            dist = mix([(p, attack(st, who)) for st, p in dist.items()])
        return dist

    half: Number = Fraction(1, 2) if exact else 0.5

    def transitions(st: tuple[int, int], ex: bool) -> dict[tuple[int, int], Number]:
        out: dict[tuple[int, int], Number] = {}
        for first in (0, 1):
            dist = side_acts(side_acts({(st[0], st[1], 1, 1): 1}, first), 1 - first)
            for s2, p in dist.items():
                out[(s2[0], s2[1])] = out.get((s2[0], s2[1]), 0) + half * p
        return out

    def terminal(st: tuple[int, int]) -> str | None:
        return fighters[1].side if st[0] <= 0 else fighters[0].side if st[1] <= 0 else None

    labels = (fighters[0].side, fighters[1].side, "draw")
    return solve(Chain((fighters[0].hp, fighters[1].hp), transitions, terminal, labels), exact=exact)


def duel_odds(setup: Mapping[str, Any], options: Mapping[str, Any] | None = None, exact: bool = False) -> DuelOdds:
    """Exact outcome of a HuD one-on-one scenario; :class:`NotSolvable` says why when it cannot be done."""
    from affray.core.options import parse_options

    opts = parse_options(HudOptions, options)
    state, a, b = _one_on_one(setup, opts)
    if state.mode == "nerdified":
        return _nerdified(state, a, b, exact)
    if state.mode == "simplified":
        at_range = ranged_start(build_state(hud_setup(setup), opts)[1])
        free = _free_attack(state, at_range)
        if free is None:
            return _simplified(state, a, b, setup, exact)
        target = b if free == a else a
        f, t = state.fighters[free], state.fighters[target]
        p = simplified_hit_chance(
            max(die_modifier(f, "attack", True), die_modifier(f, "damage", True)),
            max(die_modifier(t, "defense"), die_modifier(t, "injury")),
        )
        parts = []
        for hit, weight in ((True, p), (False, 1 - p)):
            if hit:
                state.fighters[target].hp -= 1
            parts.append((weight, _simplified(state, a, b, setup, exact)))
            if hit:
                state.fighters[target].hp += 1
        return mix_odds(parts, exact)
    raise NotSolvable("Free Form has no dice to solve (only its Dice Simplified exchanges)")


#: The exact duel model: the solver and what it assumes, in one sentence (printed with every answer).
DUEL = DuelModel(
    duel_odds,
    (
        "both sides play 'steady' (Nerdified: attack with every action but one, always defend and riposte, "
        "never disengage; Simplified: the die with the better modifier)"
    ),
)


def _exchange(p: Params) -> CheckResult:
    odds = exchange_odds(p["attack_mod"], p["defense_mod"], p["damage_mod"], p["injury_mod"], p["riposte_margin"])
    return CheckResult(
        "Sim HuD exchange (d13 + modifiers)",
        {"p_hit": odds.p_hit, "p_riposte": odds.p_riposte},
        {"hp_loss": odds.hp_loss},
    )


def _simplified_hit(p: Params) -> CheckResult:
    return CheckResult(
        f"Sim HuD Dice Simplified: d13 {p['attack_mod']:+d} against d13 {p['defense_mod']:+d}",
        {"p_hit": simplified_hit_chance(p["attack_mod"], p["defense_mod"])},
    )


def _modifier(name: str, description: str) -> Field:
    return Field(name, "integer", description, required=False, default=0)


#: The exact single checks (``affray odds hud CHECK``), declared with their parameters.
CHECKS = checks(
    Check(
        "exchange",
        "Combat Nerdified: the chance of a hit and of a riposte, and the HP-loss distribution (WL-11..WL-13).",
        ("WL-11", "WL-12", "WL-13", "WL-B3"),
        (
            _modifier("attack_mod", "the attacker's Attack die modifier (WL-11)"),
            _modifier("defense_mod", "the defender's Defense die modifier (WL-11)"),
            _modifier("damage_mod", "the attacker's Damage die modifier, on a hit (WL-13)"),
            _modifier("injury_mod", "the defender's Injury die modifier, on a hit (WL-13)"),
            Field(
                "riposte_margin",
                "integer",
                "a riposte when Defense - Attack is at least this (WL-12, WL-B3)",
                required=False,
                default=6,
            ),
        ),
        _exchange,
    ),
    Check(
        "simplified-hit",
        "Dice Simplified: the chance that the attacker's d13 + modifier beats the defender's (WL-06).",
        ("WL-06",),
        (
            _modifier("attack_mod", "the attacker's die modifier"),
            _modifier("defense_mod", "the defender's die modifier"),
        ),
        _simplified_hit,
    ),
)
