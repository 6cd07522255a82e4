"""Ganging up: who gets the bonus die for attacking a defender that others attack too (WR-31, ruling WR-B17).

The seed: "Someone can defend normally against one opponent for each die they have in fighting ability ...
Each additional attacker receives a bonus die on attacks against that character. The defender gets to
choose which attackers get the bonus die." A defender's capacity C is the dice of its best fighting trait
(2 by default). The die counts attackers, not foes who merely stand within reach, and WR-B17 (made precise)
fixes how many carry it: in every round exactly max(0, A - C) of a defender's A distinct melee attackers,
each on all its attacks on that defender that round; defense rolls never carry it.

Attacks resolve one at a time and each is rolled before the next is declared, so when the die must go to
someone (the defender's (C+1)th distinct attacker of the round, then each later one) the only attacker not yet
resolved is the one arriving: giving it to a later one instead would leave the count one short for the rest of
the round (each new attacker raises A - C by one and can add at most one die), and an attacker already rolled
cannot take it back. So the defender's choice "where it can" is never a real one here, and the default
(``gang_up_choice: first_attackers``) asks nothing: the first C distinct attackers attack normally and every
further one carries the die. ``kept`` is the earlier reading, for tables that read the seed differently: at its
first melee defense of a round, a defender outnumbered by the foes in reach names the C it defends against
normally, and a named foe never carries the die, so that choice can leave fewer dice than A - C (never more).

The bookkeeping lives on the defender (``Fighter.gang_*``) and is reset lazily when a new round begins.
"""

from __future__ import annotations

from affray.core.journal import Journal
from affray.rulesets.warp.events import GangChosen
from affray.rulesets.warp.mechanics import gang_up_extra
from affray.rulesets.warp.rolls import fighting_capacity
from affray.rulesets.warp.state import Attack, Fighter, WarpState


def engaged(state: WarpState, t: Fighter) -> list[str]:
    """Foes of ``t`` within melee reach of it (WR-31, WR-X2)."""
    return [g.id for g in state.foes(t) if abs(g.position - t.position) <= state.options.melee_reach_m]


def _this_round(state: WarpState, t: Fighter) -> None:
    """Forget the previous round's ganging up: the count and the choice are per round (WR-B17)."""
    if t.gang_round != state.round:
        t.gang_round, t.gang_chosen = state.round, False
        t.gang_normal, t.gang_attackers, t.gang_bonus = [], [], []


def gang_choice_needed(state: WarpState, a: Attack) -> bool:
    """Under the earlier reading (``gang_up_choice: kept``), a defender with more foes in reach than its capacity
    names, once a round, whom it defends against normally (WR-31). The default never asks (see the module)."""
    if a.mode != "melee" or state.options.gang_up_choice != "kept":
        return False
    t = state.fighters[a.target]
    chosen = t.gang_round == state.round and t.gang_chosen
    return not chosen and len(engaged(state, t)) > fighting_capacity(t)


def choose_gang(state: WarpState, t: Fighter, normal: list[str], events: Journal) -> None:
    """Record the defender's choice for this round (WR-31, option ``gang_up_choice: kept``)."""
    _this_round(state, t)
    t.gang_chosen, t.gang_normal = True, list(normal)
    events.append(GangChosen(t.id, list(normal), fighting_capacity(t)))


def ganging_up(state: WarpState, f: Fighter, t: Fighter) -> bool:
    """Whether ``f``'s melee attack on ``t`` carries the ganging-up bonus die, counting ``f`` among ``t``'s
    attackers this round. An attacker keeps the same answer for the whole round. Rules: WR-31, WR-B17.

    By default the k-th distinct attacker of the round carries it when k > C, which keeps the round's carriers
    at exactly max(0, attackers so far - C) after every attack; with ``kept`` a foe the defender named never
    carries it, and no more carry it than that bound."""
    _this_round(state, t)
    if f.id in t.gang_attackers:
        return f.id in t.gang_bonus
    t.gang_attackers.append(f.id)
    owed = gang_up_extra(len(t.gang_attackers), fighting_capacity(t))
    carries = len(t.gang_bonus) < owed
    if state.options.gang_up_choice == "kept":
        carries = carries and f.id not in t.gang_normal
    if carries:
        t.gang_bonus.append(f.id)
    return carries


def gang_bound_problems(state: WarpState) -> list[str]:
    """Defenders whose ganging-up dice this round are not exactly their distinct attackers beyond capacity
    (WR-B17), or, under ``gang_up_choice: kept``, more than that."""
    exact = state.options.gang_up_choice != "kept"
    problems = []
    for t in state.fighters.values():
        owed = gang_up_extra(len(t.gang_attackers), fighting_capacity(t))
        wrong = len(t.gang_bonus) != owed if exact else len(t.gang_bonus) > owed
        if wrong or not set(t.gang_bonus) <= set(t.gang_attackers):
            problems.append(
                f"{t.id}: {len(t.gang_bonus)} ganging-up dice from {len(t.gang_attackers)} attackers "
                f"(capacity {fighting_capacity(t)})"
            )
    return problems
