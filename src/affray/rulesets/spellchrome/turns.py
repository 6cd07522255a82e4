"""Initiative, rounds and turns (Rules: SC-15, SC-16, SC-21, SC-26, SC-B3, SC-B7).

Initiative is d20 + Dex modifier + miscellaneous bonuses (+ the aware side's surprise bonus), kept for
the whole fight unless the re-roll option is on; ties go to the higher Dexterity score, then to d10
roll-offs. Each turn the actor has a move action and a standard action (SC-15). At the start of a turn
its attack of opportunity comes back (SC-B7) and, if dying, it rolls to stabilise (SC-B3); at the end of
each round the dying lose 1d4 (SC-04).
"""

from __future__ import annotations

from affray.core.events import RoundStarted
from affray.core.journal import QuietJournal
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events, loud, roll
from affray.rulesets.spellchrome.events import InitiativeSet, TurnEnded, TurnStarted
from affray.rulesets.spellchrome.health import check_outcome, dying_losses, round_limit_reached, stabilise_check
from affray.rulesets.spellchrome.mechanics import D20, initiative_key, initiative_total
from affray.rulesets.spellchrome.state import SpellchromeState, Turn

ROLLOFF_DIE = 10


def roll_initiative(state: SpellchromeState, rng: RNG, events: Events) -> None:
    """Roll initiative for everyone and order the fight (SC-16); a re-roll after the first counts the surprise
    bonus only with the option ``surprise_on_reroll``."""
    ids = list(state.combatants)
    surprised = state.surprise is not None and (state.round == 0 or state.options.surprise_on_reroll)
    aware = state.surprise["aware"] if state.surprise and surprised else None
    totals: dict[str, int] = {}
    for a in ids:
        c = state.combatants[a]
        surprise = state.surprise["bonus"] if state.surprise and aware is not None and c.side == aware else 0
        bonus = initiative_total(0, c.mods["dexterity"], c.initiative_bonus, surprise)
        natural = roll(rng, a, "initiative", D20, bonus, events) - bonus
        totals[a] = initiative_total(natural, c.mods["dexterity"], c.initiative_bonus, surprise)
        c.initiative = totals[a]
    rolloffs: dict[str, list[int]] = {a: [] for a in ids}

    def key(a: str) -> tuple[int, ...]:
        return initiative_key(totals[a], state.combatants[a].abilities["dexterity"], tuple(rolloffs[a]))

    while True:
        groups: dict[tuple[int, ...], list[str]] = {}
        for a in ids:
            groups.setdefault(key(a), []).append(a)
        tied = [g for g in groups.values() if len(g) > 1]
        if not tied:
            break
        for group in tied:
            for a in group:
                rolloffs[a].append(roll(rng, a, "initiative roll-off", ROLLOFF_DIE, 0, events))
    state.order = sorted(ids, key=key)
    if loud(events):
        events.append(InitiativeSet(list(state.order), totals))


def begin(state: SpellchromeState, rng: RNG, events: Events) -> None:
    """Roll initiative and start round 1."""
    roll_initiative(state, rng, events)
    state.round = 1
    if loud(events):
        events.append(RoundStarted(1))
    check_outcome(state, events)
    advance(state, rng, 0, events)


def _new_round(state: SpellchromeState, rng: RNG, events: Events) -> None:
    dying_losses(state, rng, events)
    check_outcome(state, events)
    if state.outcome is not None:
        return
    state.round += 1
    if round_limit_reached(state, events):
        return
    if loud(events):
        events.append(RoundStarted(state.round))
    if state.options.reroll_initiative_each_round:
        roll_initiative(state, rng, events)
    if state.options.aoo_refresh == "round_start":
        for c in state.combatants.values():
            c.aoo_left = 1


def advance(state: SpellchromeState, rng: RNG, index: int, events: Events) -> None:
    """Start the turn of the first combatant from ``index`` on who can act, crossing round ends."""
    state.turn = None
    while state.outcome is None:
        if index >= len(state.order):
            _new_round(state, rng, events)
            index = 0
            continue
        c = state.combatants[state.order[index]]
        if state.options.aoo_refresh == "own_turn":
            c.aoo_left = 1
        if c.hp < 0:  # only the dying roll to stabilise (stabilise_check asks first; most turns need no call)
            stabilise_check(state, rng, c, events)
        if c.able:
            state.turn_index = index
            state.turn = Turn(c.id)
            if not isinstance(events, QuietJournal):  # loud(events), inline: every turn asks
                events.append(TurnStarted(c.id))
            return
        index += 1


def end_turn(state: SpellchromeState, rng: RNG, events: Events) -> None:
    turn = state.turn
    if turn is None:
        return
    if not isinstance(events, QuietJournal):  # loud(events), inline: every turn asks
        events.append(TurnEnded(turn.actor))
    advance(state, rng, state.turn_index + 1, events)


def step_available(state: SpellchromeState, turn: Turn) -> bool:
    """A 5-foot step is possible now (SC-21; option ``five_foot_step``)."""
    if turn.stepped or turn.moved:
        return False
    if state.options.five_foot_step == "srd":
        return True
    return turn.move_left or turn.move_used_for == "still"


def exhausted(state: SpellchromeState, turn: Turn) -> bool:
    return not turn.move_left and not turn.standard_left and not step_available(state, turn)


def after_action(state: SpellchromeState, rng: RNG, events: Events) -> None:
    """End the turn by itself when the actor dropped or has nothing left to do."""
    turn = state.turn
    if state.outcome is not None or turn is None or state.opportunity is not None or state.motion is not None:
        return
    if not state.combatants[turn.actor].able or exhausted(state, turn):
        end_turn(state, rng, events)
