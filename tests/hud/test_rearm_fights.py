"""Emergency rearm over whole seeded fights: after every one, the weapon that was in hand lies on the ground where
its owner stood, and its owner, still there, can pick it up for one action. Rules: WL-19, WL-B15."""

from __future__ import annotations

from typing import Any

import affray
from affray.ai.base import RandomPolicy
from affray.core.engine import Accepted
from affray.core.match import Match
from affray.core.rng import FastRNG
from affray.rulesets.hud.events import ArmsChanged
from affray.rulesets.hud.plans import sketch_of, weapon_step
from affray.rulesets.hud.state import HudState

FIGHTS = 60
KIT = ["vesna", "bors", "sergeant", "ilka"]


def scenario_data(seed: int) -> dict[str, Any]:
    """Two of the armed starter characters a side (by seed), random policies everywhere."""

    def side(name: str, first: int) -> dict[str, Any]:
        picks = [KIT[(seed + first + i) % len(KIT)] for i in range(2)]
        return {
            "name": name,
            "combatants": [{"id": f"{name}{i}", "use": use, "controller": "random"} for i, use in enumerate(picks)],
        }

    return {"ruleset": "hud", "name": f"rearm {seed}", "mode": "nerdified", "sides": [side("a", 0), side("b", 1)]}


def rearm_checks(match: Match, seed: int) -> tuple[int, list[str]]:
    """Play the fight; return how many emergency rearms it had and every way one of them went wrong."""
    state = match.state
    assert isinstance(state, HudState)
    rng, policy, rearms, wrong = FastRNG(seed), RandomPolicy(), 0, []
    while (window := match.pending()) is not None:
        actor = window.actors[0]
        hands = {f.id: [a.id for a in f.in_hand() if a.kind != "shield"] for f in state.fighters.values()}
        result = match.act(actor, policy.choose(match.observe(actor), match.choices(actor), rng))
        dropped: dict[str, list[str]] = {}
        assert isinstance(result, Accepted), result
        for e in result.events:
            if isinstance(e, ArmsChanged):
                if e.how.startswith("drops"):
                    rearms += 1
                    dropped[e.actor] = [w for w in hands[e.actor] if w != e.weapon]
                    wrong += [f"seed {seed}: {e.actor} still holds {w}" for w in dropped[e.actor] if w in e.in_hand]
                hands[e.actor] = list(e.in_hand)
        for fid, weapons in dropped.items():
            f = state.fighters[fid]
            for w in weapons:
                arm = f.arms[w]
                if arm.location == "hand":
                    continue  # picked up again later in the same round
                if arm.location != "dropped":
                    wrong.append(f"seed {seed}: {fid}'s {w} is {arm.location}, not on the ground")
                elif arm.place == f.place and weapon_step(f, sketch_of(f), {"type": "pick_up", "weapon": w}) != 1:
                    wrong.append(f"seed {seed}: {fid} cannot pick up {w}")
    return rearms, wrong


def test_wl19_after_every_emergency_rearm_the_old_weapon_is_on_the_ground() -> None:
    """WL-19, WL-B15: over 60 seeded fights of two armed characters a side on random policies, every emergency
    rearm leaves the weapon that was in hand on the ground (never still in hand), and its owner can pick it up
    for one action while next to it; the fights have emergency rearms to check."""
    total, problems = 0, list[str]()
    for seed in range(FIGHTS):
        match = affray.scenario_from_data(scenario_data(seed)).start(seed)
        rearms, wrong = rearm_checks(match, seed)
        total, problems = total + rearms, problems + wrong
    assert problems == []
    assert total >= FIGHTS
