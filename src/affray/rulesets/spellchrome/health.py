"""Hit points, dying and stabilising in a fight (Rules: SC-01..SC-08, SC-11, SC-B3..SC-B6, SC-B11, SC-R5).

HP ≥ 1 is normal; exactly 0 is unconscious; −1..−29 is dying (1d4 lost at the end of every round, B3);
−30 or below is dead. A dying character makes the DC 22 Fortitude save at the start of its turns (B3,
B5); first aid (Heal DC 15) and any magical healing of ≥ 1 HP stabilise at once (SC-06).
"""

from __future__ import annotations

from affray.core.engine import Outcome
from affray.core.events import Defeated, Ended
from affray.core.outcomes import last_side_standing, round_limit_draw
from affray.core.rng import RNG
from affray.rulesets.spellchrome.checks import Events, loud, roll, saving_throw
from affray.rulesets.spellchrome.events import Damaged, FightDecided, Healed, StatusChanged
from affray.rulesets.spellchrome.mechanics import (
    DYING_LOSS_DIE,
    STABILISE_DC,
    damage_roll,
    dying_step,
    heal,
    nonlethal_result,
)
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState

_WHY = {"unconscious": "at 0 HP (SC-03)", "dying": "below 0 HP (SC-04)", "dead": "at −30 HP or below (SC-05)"}


def deal_damage(
    state: SpellchromeState,
    target: Combatant,
    amount: int,
    events: Events,
    *,
    steal_life: bool = False,
    nonlethal: bool = False,
    by: Combatant | None = None,
) -> None:
    """Apply damage through damage reduction, EX-HP and HP (SC-07, SC-B6) and update the target's state.
    ``nonlethal`` (SC-11) spares only a target conscious before the blow (ruling SC-B11, option
    ``nonlethal_spares_only_the_conscious``): a dying one keeps dying, and loses HP at the round's end."""
    before = target.status
    conscious = (target.hp >= 1 and not target.knocked_out) or not state.options.nonlethal_spares_only_the_conscious
    result = damage_roll(
        target.hp, target.ex_hp, amount, target.damage_reduction, steal_life, state.options.reduction_before_ex_hp
    )
    target.hp, target.ex_hp = result.hp, result.ex_hp
    target.taken += result.absorbed + result.to_hp
    if by is not None:
        by.dealt += result.absorbed + result.to_hp
    if result.to_hp > 0 and target.stable and state.options.damage_wakes_the_stable:
        target.stable = False  # SC-R5: a stable character who is hurt again is dying again
    state_after, stable = nonlethal_result(target.hp, nonlethal, state.options.nonlethal_overkill_kills, conscious)
    if stable and state_after == "dying":
        if target.hp <= -30:  # SC-B4 switched off: the blow stops at the edge of death
            target.hp = -29
        target.stable = True
    target.settle()
    if loud(events):
        events.append(
            Damaged(
                target.id, amount, result.reduced, result.absorbed, result.to_hp, target.hp, target.ex_hp, target.status
            )
        )
    _after_harm(state, target, before, events, "a non-lethal blow (SC-11)" if stable else "")


def _after_harm(state: SpellchromeState, c: Combatant, before: str, events: Events, why: str) -> None:
    now = c.status
    if now == before:
        return
    if now == "dying" or (now == "stable" and before not in ("dying", "stable")):
        c.dropped_round = state.round
    events.append(StatusChanged(c.id, now, why or _WHY.get(now, "")))
    if now == "dead":
        events.append(Defeated(c.id, "dead"))
    elif before in ("normal", "surrendered") and not c.able:
        events.append(Defeated(c.id, "down"))
    check_outcome(state, events)


def restore(
    state: SpellchromeState, actor: str, target: Combatant, amount: int, how: str, magical: bool, events: Events
) -> None:
    """Heal ``amount`` (never above max, SC-08); magical healing of ≥ 1 HP stabilises the dying (SC-06)."""
    if target.hp_state == "dead":
        return
    before = target.status
    if magical and amount >= 1 and target.hp < 0:
        target.stable = True
    target.hp = heal(target.hp, target.max_hp, amount)
    target.settle()
    if target.hp >= 0:
        target.stable = False
    events.append(Healed(actor, target.id, amount, target.hp, how))
    if target.status != before:
        reason = "healed to 1 HP or more (SC-03)" if target.able else f"stabilised by {how} (SC-06)"
        events.append(StatusChanged(target.id, target.status, reason))
        check_outcome(state, events)


def stabilise(c: Combatant, why: str, events: Events) -> None:
    """Stop the bleeding: the character stays unconscious but loses no more HP (SC-06)."""
    c.stable = True
    events.append(StatusChanged(c.id, "stable", why))


def stabilise_check(state: SpellchromeState, rng: RNG, c: Combatant, events: Events) -> None:
    """At the start of its turn a dying character rolls the DC 22 Fortitude save (SC-06, SC-B3, SC-B5)."""
    if c.hp >= 0 or c.status != "dying":  # the dying are below 0 HP (SC-04): most are not, and HP is quick to read
        return
    # 'next_turn': any turn after it began dying (a drop on its own turn has its next turn next round)
    due = state.options.first_stabilise_check == "next_turn" or c.dropped_round < state.round
    if not due:
        return
    if saving_throw(
        rng, c, "fortitude", STABILISE_DC, events, "Fortitude save to stabilise", state.options.stabilise_is_save
    ):
        stabilise(c, "made the DC 22 Fortitude save (SC-06)", events)
        check_outcome(state, events)


def dying_losses(state: SpellchromeState, rng: RNG, events: Events) -> None:
    """End of the round: every dying character loses 1d4 HP, dead at −30 or below (SC-04, SC-05, SC-B3)."""
    for c in state.combatants.values():
        if c.hp >= 0 or c.status != "dying":  # the dying are below 0 HP (SC-04)
            continue
        if c.dropped_round == state.round and not state.options.dying_loss_in_first_round:
            continue
        loss = roll(rng, c.id, "dying (1d4 lost)", DYING_LOSS_DIE, 0, events)
        c.hp, now = dying_step(c.hp, loss)
        c.settle()
        events.append(Damaged(c.id, loss, 0, 0, loss, c.hp, c.ex_hp, c.status))
        if now == "dead":
            events.append(StatusChanged(c.id, "dead", "bled out at −30 HP or below (SC-04, SC-B4)"))
            events.append(Defeated(c.id, "dead"))


def check_outcome(state: SpellchromeState, events: Events) -> None:
    """The fight is decided when at most one side has someone able to act (ruling SC-R12); it ends then, or, with
    someone dying, once every dying character is dead or stable (:func:`conclude`)."""
    if state.outcome is not None or state.round == 0:  # round 0: before the fight (downtime, SC-10)
        return
    if state.decided is not None:
        for c in state.combatants.values():  # anyone still dying? (a plain loop: every round's end asks)
            if c.status == "dying":
                return
        _finish(state, state.decided, events)
        return
    sides = set()
    for c in state.combatants.values():  # the sides still in: a plain loop, every round's end asks
        if c.able:
            sides.add(c.side)
    if len(sides) > 1:
        return  # two sides still fight (last_side_standing's None), asked at every round's end: nothing else to build
    outcome = last_side_standing(sides, gave_up=[c.name for c in state.combatants.values() if c.surrendered])
    if outcome is not None:
        conclude(state, outcome, events)


def conclude(state: SpellchromeState, outcome: Outcome, events: Events) -> None:
    """The last blow has fallen: end the fight, or play the clock out while anyone is dying (SC-04, SC-06,
    option ``dying_after_the_fight``). Afterwards no blow is struck; the dying lose 1d4 at each round's end
    and roll to stabilise on their turns, and whoever stands may give first aid or heal."""
    state.decided_round = state.round
    dying = [c.id for c in state.combatants.values() if c.status == "dying"]
    if not dying or not state.options.dying_after_the_fight:
        _finish(state, outcome, events)
        return
    state.decided = Outcome(outcome.winner, outcome.reason, {"dying": tuple(dying)})
    events.append(FightDecided(outcome.winner, outcome.reason, dying))


_AFTER = {"dead": "bled out", "stable": "stable", "normal": "healed", "unconscious": "healed to 0 HP"}


def _finish(state: SpellchromeState, outcome: Outcome, events: Events) -> None:
    """Set the outcome; after an aftermath its reason and details tell how each of the dying ended."""
    decided = state.decided
    if decided is not None:
        ends = {a: _AFTER.get(state.combatants[a].status, state.combatants[a].status) for a in decided.details["dying"]}
        told = ", ".join(f"{state.combatants[a].name} {how}" for a, how in ends.items())
        outcome = Outcome(
            decided.winner,
            f"{decided.reason}; after the fight {told}",
            {
                "decided_round": state.decided_round,
                "rounds_after": state.round - state.decided_round,
                "after_the_fight": ends,
            },
        )
    state.outcome = outcome
    events.append(Ended(outcome.winner, outcome.reason))


def after_the_fight(state: SpellchromeState) -> bool:
    """The fight is decided and the dying bleed on: no more blows (SC-04, option ``dying_after_the_fight``)."""
    return state.decided is not None and state.outcome is None


def round_limit_reached(state: SpellchromeState, events: Events) -> bool:
    draw = round_limit_draw(state.round, state.options.round_limit)
    if state.decided is not None or draw is None:
        return False  # after the fight the dying need at most 30 rounds to be dead or stable (SC-04, SC-05)
    conclude(state, draw, events)
    return state.outcome is not None
