"""Rounds, initiative and turns: who acts when, holding an action, and the end of the fight.

A round is 3 s with one action per character, in initiative order (WR-05). Initiative is rolled once
per fight with an appropriate trait (2 dice otherwise), or taken from the seating order; ties go to the
larger pool, then PCs, then a seeded roll-off (WR-B8). A character may hold its action and interrupt
later in the round (WR-06): while it holds, it is offered the chance before every later turn, and at the
round's end it acts or lets the action go. :func:`advance` runs everything automatic until somebody
must choose.
"""

from __future__ import annotations

from affray.core.dice import roll_die
from affray.core.engine import GM, Outcome
from affray.core.events import Ended, Rolled, RoundStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp.events import Acted, Contest, InitiativeSet
from affray.rulesets.warp.rolls import Mods, agility_related, best, dice_of, roll, standing
from affray.rulesets.warp.state import Decision, Fighter, WarpState


def begin(state: WarpState, rng: RNG, events: Journal) -> None:
    """Start a combat-mode fight: the surprise check if asked (WR-31), then round 1."""
    if state.options.surprise_check:
        surprise_check(state, rng, events)
    start_round(state, rng, events)
    advance(state, rng, events)


def surprise_check(state: WarpState, rng: RNG, events: Journal) -> None:
    """Each unaware character rolls alertness against its foes' best stealth; a match or better means
    it sees them coming (WR-31)."""
    for f in state.fighters.values():
        if not f.unaware:
            continue
        foes = state.foes(f)
        if not foes:
            continue
        sneak = max(foes, key=lambda g: (dice_of(best(g, "stealth", None)), g.id))
        trait = best(sneak, "stealth", None)
        stealth = roll(
            state,
            rng,
            sneak,
            "stealth",
            trait,
            standing(state, sneak, "stealth", agility_related(state, trait, "stealth"), Mods()),
            events,
        )
        own = best(f, "alertness", None)
        alert = roll(state, rng, f, "alertness", own, standing(state, f, "alertness", False, Mods()), events)
        f.unaware = alert < stealth
        events.append(Contest(sneak.id, f.id, "sneak up on", f.unaware))


def start_round(state: WarpState, rng: RNG, events: Journal) -> None:
    state.round += 1
    if state.round > state.options.round_limit:
        finish(state, None, f"round limit of {state.options.round_limit} reached", events)
        return
    if events.loud:
        events.append(RoundStarted(state.round))
    for f in state.fighters.values():
        f.turn_started = f.turn_done = f.holding = False
        f.waited = -1
        if state.options.trait_lock == "until_next_round":
            f.locks.clear()
        if state.options.desperate_defense_span == "round":  # "for that round" (WR-32)
            f.desperate = False
    state.turn_index = 0
    if state.round == 1 or state.options.reroll_initiative_each_round:
        state.phase = "initiative"
        if state.options.initiative == "trait":
            for f in state.fighters.values():
                if f.pc and not f.out and f.experience > 0:
                    state.decisions.append(Decision("initiative", f.id))
    else:
        state.phase = "turn"


def _initiative_roll(state: WarpState, rng: RNG, f: Fighter, events: Journal) -> tuple[int, int]:
    trait = best(f, "initiative", None)
    mods = standing(state, f, "initiative", agility_related(state, trait, "initiative"), Mods())
    mods.bonus.extend(["experience"] * f.initiative_experience)
    f.experience -= f.initiative_experience
    f.initiative_experience = 0
    return roll(state, rng, f, "initiative", trait, mods, events), dice_of(trait)


def finish_initiative(state: WarpState, rng: RNG, events: Journal) -> None:
    """Roll (or seat) everyone still fighting and fix the order (WR-05, WR-B8)."""
    active = [f for f in state.fighters.values() if not f.out]
    if state.options.initiative != "trait":
        pcs = [f.id for f in active if f.pc]
        gmcs = [f.id for f in active if not f.pc]
        state.order = gmcs + pcs if state.options.initiative == "seating_gm_first" else pcs + gmcs
        events.append(InitiativeSet(list(state.order), {}))
        state.phase = "turn"
        return
    units: dict[str, list[Fighter]] = {}  # the GM's shared roll makes a side's GM characters one unit
    for f in active:
        group = state.options.gmc_single_initiative and not f.pc
        units.setdefault(f"side:{f.side}" if group else f.id, []).append(f)
    for members in units.values():
        leader = max(members, key=lambda g: (dice_of(best(g, "initiative", None)), g.id))
        total, pool = _initiative_roll(state, rng, leader, events)
        for f in members:
            f.initiative, f.initiative_pool = total, pool
    ranked = _order(state, rng, [members[0] for members in units.values()], events)
    lead = {members[0].id: members for members in units.values()}
    state.order = [f.id for unit in ranked for f in lead[unit]]
    events.append(InitiativeSet(list(state.order), {a: state.fighters[a].initiative for a in state.order}))
    state.phase = "turn"


def _order(state: WarpState, rng: RNG, active: list[Fighter], events: Journal) -> list[str]:
    """Highest roll first; ties by pool, then PCs, then seeded roll-offs (WR-B8)."""
    full = state.options.initiative_ties == "pool_pc_rolloff"
    keys: dict[str, list[int]] = {
        f.id: [-f.initiative, -f.initiative_pool, 0 if f.pc else 1] if full else [-f.initiative] for f in active
    }
    while True:
        groups: dict[tuple[int, ...], list[str]] = {}
        for a, k in keys.items():
            groups.setdefault(tuple(k), []).append(a)
        tied = [g for g in groups.values() if len(g) > 1]
        if not tied:
            break
        for group in tied:
            for a in group:
                r = roll_die(rng, 6)
                events.append(Rolled(a, "initiative roll-off", r))
                keys[a].append(-r.total)
    return sorted(keys, key=lambda a: keys[a])


def start_turn(state: WarpState, f: Fighter, events: Journal) -> None:
    """A turn begins: with the earlier readings the trait lock resets (WR-B15) and a desperate defense
    ends (WR-32); a prone character spends the turn getting up (WR-30)."""
    f.turn_started = True
    if state.options.trait_lock == "until_next_turn":
        f.locks.clear()
    f.desperate = False
    f.moved = False
    f.unaware = False
    if f.prone:
        f.prone = False
        if state.options.prone_costs_turn:
            f.turn_done = True
            state.slot += 1
        events.append(Acted(f.id, "gets up off the ground"))


def advance(state: WarpState, rng: RNG, events: Journal) -> None:
    """Run everything automatic until somebody must choose, or the fight ends."""
    while state.outcome is None and not state.decisions and state.attack is None:
        if state.phase == "initiative":
            finish_initiative(state, rng, events)
        elif state.phase == "turn":
            if check_outcome(state, events):
                return
            if state.turn_index >= len(state.order):
                state.phase = "round_end"
                continue
            f = state.fighters[state.order[state.turn_index]]
            if f.out or f.turn_done:
                state.turn_index += 1
            elif not f.turn_started:
                start_turn(state, f, events)
            else:
                return
        elif state.phase == "round_end":
            if check_outcome(state, events) or state.holders():
                return
            start_round(state, rng, events)
        else:
            return


def check_outcome(state: WarpState, events: Journal) -> bool:
    """The fight ends when at most one side has anyone still fighting."""
    if state.outcome is not None:
        return True
    sides = {f.side for f in state.fighters.values() if f.status == "fighting"}  # not f.out
    if len(sides) > 1:
        return False
    winner = next(iter(sides), None)
    escaped = [f.name for f in state.fighters.values() if f.status == "escaped" and f.side != winner]
    reason = f"{', '.join(escaped)} escaped" if escaped and winner else "every foe is out of the fight"
    finish(state, winner, reason if winner else "nobody is left standing", events)
    return True


def finish(state: WarpState, winner: str | None, reason: str, events: Journal) -> None:
    state.outcome = Outcome(winner, reason)
    state.phase = "over"
    events.append(Ended(winner, reason))


def turn_actors(state: WarpState) -> tuple[str, ...]:
    """Who may act in the turn phase: holders that have not declined this moment, then the current."""
    current = state.current()
    if current is None:
        return ()
    slot = state.slot
    holders = tuple(
        h.id for h in state.fighters.values() if h.holding and not h.out and h.waited != slot and h is not current
    )
    return (*holders, current.id) if holders else (current.id,)


def end_action(state: WarpState, f: Fighter) -> None:
    """Book an action: the current character's turn is done; a holder has used its held action."""
    if f.holding:
        f.holding = False
    else:
        f.turn_done = True
    state.slot += 1


def gm_decides(state: WarpState) -> bool:
    """Whether the GM seat takes the GM's calls in windows (ruling WR-X1)."""
    return state.options.gm_decisions == "table"


__all__ = [
    "GM",
    "advance",
    "begin",
    "check_outcome",
    "end_action",
    "finish",
    "gm_decides",
    "start_round",
    "turn_actors",
]
