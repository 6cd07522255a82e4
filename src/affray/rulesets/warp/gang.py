"""Ganging up: who gets the bonus die for attacking a defender that others attack too (WR-31, ruling WR-B17).

The seed: "Someone can defend normally against one opponent for each die they have in fighting ability ...
Each additional attacker receives a bonus die on attacks against that character. The defender gets to
choose which attackers get the bonus die." A defender's capacity C is the dice of its best fighting trait
(2 by default). Within a round, its first C distinct melee attackers attack it normally, and at most
(distinct attackers this round - C) of them ever carry the die: the die counts attackers, not foes who
merely stand within reach. Outnumbered by the foes in reach, the defender names, at its first melee
defense of the round, the C foes it defends against normally; an attacker it named never carries the die,
so its choice can spare dice but never give more than that bound (option ``gang_up_choice: first_attackers``
asks nothing and gives every further attacker the die). Defense rolls never carry it.

The bookkeeping lives on the defender (``Fighter.gang_*``) and is reset lazily when a new round begins.
"""

from __future__ import annotations

from affray.core.journal import Journal
from affray.rulesets.warp.events import GangChosen
from affray.rulesets.warp.rolls import fighting_capacity
from affray.rulesets.warp.state import Attack, Fighter, WarpState


def engaged(state: WarpState, t: Fighter) -> list[str]:
    """Foes of ``t`` within melee reach of it (WR-31, WR-X2)."""
    return [g.id for g in state.foes(t) if abs(g.position - t.position) <= state.options.melee_reach_m]


def _this_round(state: WarpState, t: Fighter) -> None:
    """Forget the previous round's ganging up: the bound and the choice are per round (WR-B17)."""
    if t.gang_round != state.round:
        t.gang_round, t.gang_chosen = state.round, False
        t.gang_normal, t.gang_attackers, t.gang_bonus = [], [], []


def gang_choice_needed(state: WarpState, a: Attack) -> bool:
    """A defender with more foes in reach than its capacity names, once a round, whom it defends against
    normally (WR-31)."""
    if a.mode != "melee" or state.options.gang_up_choice != "kept":
        return False
    t = state.fighters[a.target]
    chosen = t.gang_round == state.round and t.gang_chosen
    return not chosen and len(engaged(state, t)) > fighting_capacity(t)


def choose_gang(state: WarpState, t: Fighter, normal: list[str], events: Journal) -> None:
    """Record the defender's choice for this round (WR-31)."""
    _this_round(state, t)
    t.gang_chosen, t.gang_normal = True, list(normal)
    events.append(GangChosen(t.id, list(normal), fighting_capacity(t)))


def ganging_up(state: WarpState, f: Fighter, t: Fighter) -> bool:
    """Whether ``f``'s melee attack on ``t`` carries the ganging-up bonus die, counting ``f`` among ``t``'s
    attackers this round. An attacker keeps the same answer for the whole round. Rules: WR-31, WR-B17."""
    _this_round(state, t)
    if f.id in t.gang_attackers:
        return f.id in t.gang_bonus
    t.gang_attackers.append(f.id)
    beyond = len(t.gang_attackers) - fighting_capacity(t)
    carries = len(t.gang_bonus) < beyond and f.id not in t.gang_normal
    if carries:
        t.gang_bonus.append(f.id)
    return carries


def gang_bound_problems(state: WarpState) -> list[str]:
    """Defenders whose ganging-up dice this round exceed their attackers beyond capacity (WR-B17)."""
    problems = []
    for t in state.fighters.values():
        allowed = max(0, len(t.gang_attackers) - fighting_capacity(t))
        if len(t.gang_bonus) > allowed or not set(t.gang_bonus) <= set(t.gang_attackers):
            problems.append(f"{t.id}: {len(t.gang_bonus)} ganging-up dice from {len(t.gang_attackers)} attackers "
                            f"(capacity {fighting_capacity(t)})")
    return problems
