"""Ganging up over whole seeded fights: no defender-round ever carries more ganging-up dice than it has distinct
melee attackers beyond its capacity, and no defense roll carries one. Rules: WR-31, WR-B17.

The count is made from the fights' events (every melee attack roll and the exchange it belongs to), not from
the state the rules keep, so it checks the rules' bookkeeping against what was rolled.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import affray
from affray.ai.base import RandomPolicy, get_policy
from affray.core.engine import Accepted
from affray.core.events import Event
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.warp.events import Exchanged, PoolRolled
from affray.rulesets.warp.rolls import fighting_capacity
from affray.rulesets.warp.state import WarpState

FIGHTS = 200
SQUADS = {"dockers": ["thug", "thug", "thug", "enforcer"], "crew": ["dana", "theo", "ines", "thug"]}


def scenario_data(seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Three or four a side (by seed), everyone within a few metres, so defenders get outnumbered."""
    sizes = (3 + seed % 2, 3 + (seed // 2) % 2)
    sides = []
    for (name, uses), size, start in zip(SQUADS.items(), sizes, (0.0, 3.0), strict=True):
        sides.append({"name": name, "combatants": [
            {"id": f"{name}{i}", "use": use, "position": start + i % 2} for i, use in enumerate(uses[:size])]})
    return {"ruleset": "warp", "name": f"gang {seed}", "mode": "combat", "sides": sides, "options": options or {}}


def gang_rounds(match: Match, seed: int) -> dict[tuple[int, str], tuple[int, int, int]]:
    """Play the fight; for each (round, defender): (distinct melee attackers, attackers with the die, capacity).
    Side one plays the heuristic policy, side two the heuristic or, on odd seeds, the random one."""
    state = match.state
    assert isinstance(state, WarpState)
    sides = match.ruleset.sides(state)
    policy = {a: RandomPolicy() if seed % 2 and side == "crew" else get_policy("warp", "heuristic")
              for a, side in sides.items()}
    attackers: dict[tuple[int, str], set[str]] = defaultdict(set)
    carriers: dict[tuple[int, str], set[str]] = defaultdict(set)
    rng = FastRNG(seed)
    while (window := match.pending()) is not None:
        actor = window.actors[0]
        round_now = state.round
        action = policy[actor].choose(match.observe(actor), match.choices(actor), rng)
        result = match.act(actor, action)
        assert isinstance(result, Accepted), result
        events: list[Event] = result.events
        melee: PoolRolled | None = None
        for e in events:
            if isinstance(e, PoolRolled) and e.purpose == "defense":
                assert "ganging up" not in e.bonus, f"seed {seed}: a defense roll carries the die"
            if isinstance(e, PoolRolled) and e.purpose.endswith("attack"):
                melee = e if e.purpose == "melee attack" else None
            if isinstance(e, Exchanged) and melee is not None:
                attackers[round_now, e.target].add(e.attacker)
                if "ganging up" in melee.bonus:
                    carriers[round_now, e.target].add(e.attacker)
                melee = None
    return {key: (len(who), len(carriers[key]), fighting_capacity(state.fighters[key[1]]))
            for key, who in attackers.items()}


def test_wr_b17_two_hundred_fights_three_or_more_a_side() -> None:
    """WR-31, WR-B17: over 200 seeded fights of 3 or 4 a side, in every round every defender's ganging-up dice
    come from at most (its distinct melee attackers that round - its capacity) attackers; and the rule is not
    idle: some defender-rounds do carry the die."""
    over, carried = [], 0
    for seed in range(FIGHTS):
        scenario = affray.scenario_from_data(scenario_data(seed))
        for key, (n, dice, capacity) in gang_rounds(scenario.start(seed), seed).items():
            carried += dice
            if dice > max(0, n - capacity):
                over.append((seed, key, n, dice, capacity))
    assert over == []
    assert carried > 0


def test_wr_b17_without_the_choice_every_further_attacker_carries_the_die() -> None:
    """WR-31, WR-B17, option gang_up_choice: first_attackers: over the same 200 fights, every defender-round's
    ganging-up dice come from exactly (distinct melee attackers - capacity) attackers, or none."""
    wrong = []
    for seed in range(FIGHTS):
        scenario = affray.scenario_from_data(scenario_data(seed, {"gang_up_choice": "first_attackers"}))
        for key, (n, dice, capacity) in gang_rounds(scenario.start(seed), seed).items():
            if dice != max(0, n - capacity):
                wrong.append((seed, key, n, dice, capacity))
    assert wrong == []
