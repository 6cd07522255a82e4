"""Vectorised batch paths: whole chunks of simple duels played at once with numpy.

Dice Simplified one-on-one (Rules: WL-04..WL-07) with the ``heuristic`` or ``steady`` policy — each side
rolls the die with the better modifier — reduces to Bernoulli attacks: the attacker's d13 + modifier
against the defender's d13 + modifier, a tie to the defender, 1 HP a hit, 3 HP each, a free attack first
for a lone ranged combatant at range. :func:`simplified_chunk` plays thousands of them per array operation
and counts them into the same :class:`~affray.sim.stats.Tally` as the full engine; the tests check it
against the engine and against the exact duel solver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from affray.core.options import parse_options
from affray.core.plugin import BatchPath
from affray.rulesets.hud.mechanics import HUD_DIE
from affray.rulesets.hud.options import HudOptions
from affray.rulesets.hud.setup import at_range as ranged_start
from affray.rulesets.hud.setup import build_state, hud_setup
from affray.rulesets.hud.simplified import die_modifier
from affray.rulesets.hud.state import Fighter
from affray.sim.runner import SimSpec, derive_seed
from affray.sim.stats import CombatantTally, Tally

BATCH_POLICIES = {"heuristic", "steady"}
BATCH_CHUNK = 50_000


def simplified_fit(spec: SimSpec) -> str | None:
    """Why the Dice Simplified batch path does not fit ``spec`` (``None`` when it does)."""
    if spec.ruleset != "hud" or spec.setup.get("mode") != "simplified":
        return "not a Dice Simplified scenario"
    if len(spec.setup["combatants"]) != 2 or len({c["side"] for c in spec.setup["combatants"]}) != 2:
        return "not one against one"
    if set(spec.policies.values()) - BATCH_POLICIES:
        return "a policy other than heuristic/steady"
    return None


@dataclass(frozen=True, slots=True)
class _Duel:
    """What the duels of one spec share: the two fighters, each one's better attack die modifier and better guard
    modifier (WL-06), who makes the free ranged attack and with what (WL-07), who posts first by the scene's logic
    (WL-05) and the round limit."""

    a: Fighter
    b: Fighter
    best: dict[str, int]
    guard: dict[str, int]
    free: str | None
    free_mod: int
    first: str | None
    limit: int


def _mods(spec: SimSpec) -> _Duel:
    options = parse_options(HudOptions, spec.options)
    setup = hud_setup(spec.setup)
    state, bands = build_state(setup, options)
    at_range = ranged_start(bands)
    a, b = state.fighters.values()
    best = {f.id: max(die_modifier(f, "attack"), die_modifier(f, "damage")) for f in (a, b)}
    guard = {f.id: max(die_modifier(f, "defense"), die_modifier(f, "injury")) for f in (a, b)}
    eligible = [f for f in (a, b) if at_range[f.id] and any(w.kind == "ranged" for w in f.arms.values())]
    free = eligible[0].id if len(eligible) == 1 else None
    free_mod = max(die_modifier(eligible[0], "attack", True), die_modifier(eligible[0], "damage", True)) if free else 0
    return _Duel(a, b, best, guard, free, free_mod, setup.get("first"), options.round_limit)


def _hits(rng: np.random.Generator, size: int, attack_mod: int, defense_mod: int) -> np.ndarray:
    return rng.integers(1, HUD_DIE + 1, size) + attack_mod > rng.integers(1, HUD_DIE + 1, size) + defense_mod


def simplified_chunk(spec: SimSpec, chunk: int, count: int) -> Tally:
    """Play ``count`` Dice Simplified duels at once; the counts match the engine's in distribution."""
    m = _mods(spec)
    a, b = m.a, m.b
    rng = np.random.default_rng(derive_seed(spec.seed, chunk))
    hp = {a.id: np.full(count, a.hp, dtype=np.int32), b.id: np.full(count, b.hp, dtype=np.int32)}
    # the post order is fixed by the scene, or won by opposed Chance (WL-05): a fair coin
    a_first = np.full(count, m.first == a.id) if m.first is not None else rng.integers(0, 2, count) == 1
    if m.free is not None:
        target = b.id if m.free == a.id else a.id
        hp[target] -= _hits(rng, count, m.free_mod, m.guard[target])
    rounds = np.zeros(count, dtype=np.int32)
    alive = (hp[a.id] > 0) & (hp[b.id] > 0)
    rounds[~alive] = 1
    for r in range(1, m.limit + 1):
        idx = np.flatnonzero(alive)
        if idx.size == 0:
            break
        for first_is_a in (True, False):
            group = idx[a_first[idx] == first_is_a]
            for att, dfn in ((a, b), (b, a)) if first_is_a else ((b, a), (a, b)):
                live = group[(hp[a.id][group] > 0) & (hp[b.id][group] > 0)]
                hit = _hits(rng, live.size, m.best[att.id], m.guard[dfn.id])
                hp[dfn.id][live[hit]] -= 1
        rounds[idx] = r
        alive = (hp[a.id] > 0) & (hp[b.id] > 0)
    return _tally(spec, a, b, hp, rounds, count)


def _tally(
    spec: SimSpec, a: Fighter, b: Fighter, hp: Mapping[str, np.ndarray], rounds: np.ndarray, count: int
) -> Tally:
    tally = Tally(fights=count)
    a_won = hp[b.id] <= 0
    b_won = hp[a.id] <= 0
    tally.wins = {a.side: int(a_won.sum()), b.side: int(b_won.sum())}
    tally.draws = count - int(a_won.sum()) - int(b_won.sum())
    values, counts = np.unique(rounds, return_counts=True)
    tally.rounds = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    for f, other in ((a, b), (b, a)):
        lost = f.hp - hp[f.id]
        dealt = other.hp - hp[other.id]
        tally.combatants[f.id] = CombatantTally(
            f.side,
            down=int((hp[f.id] <= 0).sum()),
            hp_left=int(hp[f.id].sum()),
            hp_max=f.max_hp,
            dealt=int(dealt.sum()),
            taken=int(lost.sum()),
        )
    return tally


#: The vectorised path for the Dice Simplified one-on-one scenarios it fits.
BATCH = BatchPath(simplified_fit, simplified_chunk, BATCH_CHUNK, "batch (numpy, Dice Simplified)")
