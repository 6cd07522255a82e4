"""Combat Nerdified: the round of initiative, declaration and actions, and its exchanges.

Round (WL-09, WL-15): everyone rolls Chance; declarations go from the lowest roll up, in the open;
actions are performed from the highest down, each combatant doing its non-defense actions in the order
declared (WL-B7). Defense actions are reactions used against any attacker during the round.

An exchange (WL-11..WL-14) may stop for a decision: the defender chooses to defend, take it
undefended, or spend an emergency additional action (WL-B5, WL-17); the winner of Attack vs Defense may
disengage (WL-21); a parry by 6 or more opens a riposte (WL-12). :func:`run` performs everything
automatic until the next decision or the end of the fight.
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.engine import Action, Rejected, StepResult
from affray.core.events import Note, RoundStarted
from affray.core.fields import objects, text
from affray.core.journal import Journal
from affray.core.json import JsonObject
from affray.core.rng import RNG
from affray.rulesets.hud import pursuit
from affray.rulesets.hud.combat import (
    accepted,
    attack_arm,
    attack_modifier,
    can_reach,
    chance,
    damage_phase,
    defense_modifier,
    roll,
    round_limit_reached,
)
from affray.rulesets.hud.events import (
    ArmsChanged,
    Declared,
    Exchanged,
    Fizzled,
    InitiativeSet,
    Moved,
    Undefended,
)
from affray.rulesets.hud.mechanics import ADDITIONAL_ACTION_PENALTY, Band, exchange, tied_groups
from affray.rulesets.hud.plans import check_declaration, sketch_of, weapon_step
from affray.rulesets.hud.state import Exchange, Fighter, HudState

#: The queue entry that offers a combatant an emergency additional action at the end of its initiative step.
EMERGENCY_POINT = -1


def begin(state: HudState, rng: RNG, bands: Mapping[str, Band], journal: Journal) -> None:
    """Place everyone by its starting band and decide the free round (WL-16, WL-B13), then start round 1.

    The engaged share the melee (place 0); everyone else stands at a place of its own, near or far. Ranged
    combatants at range get the free round unless every combatant is one of them.
    """
    has_ranged = {a: any(w.kind == "ranged" for w in f.arms.values()) for a, f in state.fighters.items()}
    eligible = [a for a in state.fighters if bands[a] != "engaged" and has_ranged[a]]
    everyone = len(eligible) == len(state.fighters)
    for a, f in state.fighters.items():
        if bands[a] != "engaged":
            f.place, f.band = state.new_place(), bands[a]
    if eligible and not everyone:
        state.free_round, state.free_attackers = True, eligible
        journal.append(Note("Crossing distance: the ranged combatants get a free round while their foes close in."))
    start_round(state, rng, journal)


def roll_initiative(state: HudState, rng: RNG, actors: list[str], journal: Journal) -> list[str]:
    """Chance for each actor, highest first; tied actors re-roll among themselves (WL-09, WL-B8)."""
    first = {a: chance(state, rng, a, journal, "initiative") for a in actors}
    if len(set(first.values())) == len(first) or state.options.initiative_ties != "reroll":
        # nothing to re-roll (the usual case): highest first, ties (file_order) in the actors' order (a stable sort)
        for a, value in first.items():
            state.fighters[a].initiative = value
        return sorted(actors, key=lambda a: -first[a])
    keys = {a: [value] for a, value in first.items()}
    while True:
        groups = tied_groups({a: tuple(k) for a, k in keys.items()})
        if not groups:
            break
        for group in groups:
            for a in group:
                keys[a].append(chance(state, rng, a, journal, "initiative tie"))
    for a in actors:
        state.fighters[a].initiative = keys[a][0]
    position = {a: i for i, a in enumerate(actors)}
    return sorted(actors, key=lambda a: ([-v for v in keys[a]], position[a]))


def start_round(state: HudState, rng: RNG, journal: Journal) -> None:
    state.round += 1
    if round_limit_reached(state, journal):
        return
    if journal.loud:
        journal.append(RoundStarted(state.round))
    for f in state.fighters.values():
        f.plan, f.declared, f.defenses, f.additional_used = [], False, 0, 0
        f.penalty, f.penalty_next, f.charged, f.closed = f.penalty_next, 0, False, False
    actors = state.free_attackers if state.free_round else [f.id for f in state.active()]
    order = roll_initiative(state, rng, actors, journal)
    if state.pursuers_first:  # back from a pursuit: the pursuers hold the initiative (WL-22)
        order = [a for a in order if a in state.pursuers_first] + [a for a in order if a not in state.pursuers_first]
        state.pursuers_first = []
    state.order, state.declare_queue = order, list(reversed(order))
    state.queue, state.cursor, state.phase = [], 0, "declare"
    if journal.loud:
        journal.append(InitiativeSet(order))


def declare(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """Apply a ``declare`` action. Rules: WL-09, WL-10, WL-17, WL-18, WL-B6.

    A trusted journal (``journal.validate`` false: a policy's declaration) skips the plan's check; the plan is
    applied the same either way."""
    f = state.fighters[actor]
    if journal.validate:
        error = check_declaration(state, f, action)
        if error:
            return error
    f.plan, f.declared = [dict(i) for i in objects(action, "plan")], True
    f.defenses = sum(1 for i in f.plan if i["type"] == "defense")
    additional = bool(action.get("additional", False))
    if additional:
        f.additional_used += 1
        f.penalty += ADDITIONAL_ACTION_PENALTY
    if journal.loud:
        journal.append(Declared(actor, f.plan, additional))
    state.declare_queue.remove(actor)
    if not state.declare_queue:
        queue_actions(state)
        run(state, rng, journal)
    return accepted(journal)


def queue_actions(state: HudState) -> None:
    """The order actions are performed in: WL-B7 ('declared' or 'interleave')."""
    marker = [EMERGENCY_POINT] if state.options.emergency_actions == "any" else []
    lists = [
        [(a, i) for i, item in enumerate(state.fighters[a].plan) if item["type"] != "defense"]
        + [(a, m) for m in marker]
        for a in state.order
    ]
    if state.options.action_order == "declared":
        state.queue = [x for items in lists for x in items]
    else:
        longest = max((len(items) for items in lists), default=0)
        state.queue = [items[k] for k in range(longest) for items in lists if k < len(items)]
    state.cursor, state.phase = 0, "act"


def run(state: HudState, rng: RNG, journal: Journal) -> None:
    """Perform queued actions until a decision is needed, a pursuit starts, or the fight ends."""
    while state.outcome is None and state.exchange is None and state.pursuit is None and state.phase == "act":
        if state.cursor >= len(state.queue):
            end_round(state, rng, journal)
            return
        actor, index = state.queue[state.cursor]
        state.cursor += 1
        f = state.fighters[actor]
        if f.out:
            continue
        if index != EMERGENCY_POINT:
            perform(state, rng, f, f.plan[index], journal)
        elif can_emergency(state, f) and state.enemies(actor):
            state.phase, state.emergency_actor = "emergency", actor  # WL-17: ask before moving on


def end_round(state: HudState, rng: RNG, journal: Journal) -> None:
    """Unused defenses expire (WL-B7); after the free round the closers arrive (WL-16)."""
    if state.free_round:
        state.free_round = False
        for f in state.active():
            f.place, f.band = 0, "engaged"
            journal.append(Moved(f.id, 0, "is in the melee as the distance closes"))
    start_round(state, rng, journal)


def perform(state: HudState, rng: RNG, f: Fighter, item: JsonObject, journal: Journal) -> None:
    kind = text(item, "type")
    if kind in ("attack", "charge", "close"):
        target = state.fighters[text(item, "target")]
        if target.out:
            if journal.loud:
                journal.append(Fizzled(f.id, kind, f"{target.name} is already out of the fight"))
        elif kind == "close":
            _close(state, f, target, journal)
        elif kind == "charge":
            f.place, f.band, f.charged = target.place, target.band, True
            if journal.loud:
                journal.append(Moved(f.id, f.place, f"charges {target.name}!"))
            start_exchange(state, rng, f.id, target.id, "charge", journal)
        elif not can_reach(f, target):
            if journal.loud:
                journal.append(Fizzled(f.id, kind, f"{target.name} is out of reach"))
        else:
            start_exchange(state, rng, f.id, target.id, "attack", journal)
    elif kind == "complex":
        journal.append(Note(str(item.get("text", "a complex activity")), f.id))
    else:
        change_arms(state, f, item, journal)


def _close(state: HudState, f: Fighter, target: Fighter, journal: Journal) -> None:
    """The free 10 m move: joins a near foe's place; a foe that is now far is out of its reach (WL-10, WL-B13)."""
    band = state.distance(f, target)
    if band == "far":
        if journal.loud:
            journal.append(Fizzled(f.id, "close", f"{target.name} is too far for the free move"))
        return
    f.place, f.band, f.closed = target.place, target.band, True
    if journal.loud:
        journal.append(Moved(f.id, f.place, f"closes in on {target.name}"))


def change_arms(state: HudState, f: Fighter, item: JsonObject, journal: Journal) -> None:
    """Draw, rearm, emergency rearm or pick up, if still possible now (WL-19, WL-20)."""
    sk = sketch_of(f)
    result = weapon_step(f, sk, item, state.options.emergency_rearm_draw_cost)
    if isinstance(result, Rejected):
        journal.append(Fizzled(f.id, text(item, "type"), result.message))
        return
    for arm in f.arms.values():
        if arm.id in sk.hand:
            arm.location = "hand"
        elif arm.id in sk.dropped:
            arm.location, arm.place = "dropped", sk.dropped[arm.id]
        else:
            arm.location = "stowed"
    verbs = {
        "draw": "draws",
        "rearm": "rearms with",
        "emergency_rearm": "drops what it held and draws",
        "pick_up": "picks up",
    }
    journal.append(ArmsChanged(f.id, verbs[text(item, "type")], text(item, "weapon"), list(sk.hand)))


def start_exchange(state: HudState, rng: RNG, attacker: str, defender: str, kind: str, journal: Journal) -> None:
    """Open an Attack vs Defense exchange; skip to the Damage phase when the target cannot defend (WL-14)."""
    a, d = state.fighters[attacker], state.fighters[defender]
    arm = attack_arm(a, d)
    ex = Exchange(attacker, defender, kind, "defend", arm.id if arm else "")
    if can_defend(state, d, kind) or can_emergency(state, d):
        state.exchange = ex
        return
    if journal.loud:
        journal.append(Undefended(attacker, defender, "no defense actions left"))
    damage_phase(state, rng, attacker, defender, ex.weapon, kind == "charge", journal)


def can_defend(state: HudState, d: Fighter, kind: str) -> bool:
    return d.defenses > 0 or (kind == "riposte" and not state.options.riposte_costs_defense)


def can_emergency(state: HudState, d: Fighter) -> bool:
    return d.additional_used < state.options.max_additional_actions


def reaction_choices(state: HudState, actor: str) -> list[str]:
    """What ``actor`` may answer in the current exchange."""
    ex = state.exchange
    if ex is None:
        return []
    if ex.stage == "defend" and actor == ex.defender:
        d = state.fighters[actor]
        choices = ["defend"] if can_defend(state, d, ex.kind) else []
        if not choices and can_emergency(state, d):
            choices.append("emergency_defense")
        return [*choices, "take"]
    if ex.stage == "follow" and actor == ex.attacker:
        return ["damage", "disengage"]
    if ex.stage == "parry" and actor == ex.defender:
        a, d = state.fighters[ex.attacker], state.fighters[ex.defender]
        opening = exchange(ex.attack, ex.defense, state.options.riposte_margin).riposte and a.place == d.place
        return (["riposte"] if opening else []) + ["disengage", "pass"]
    return []


def react(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """Apply a reaction (defend/take/emergency_defense, damage/disengage, riposte/disengage/pass); a trusted
    journal skips checking it against :func:`reaction_choices`. Rules: WL-11..WL-14, WL-17, WL-21."""
    ex = state.exchange
    if journal.validate or ex is None:
        choices = reaction_choices(state, actor)
        if ex is None or action["type"] not in choices:
            return Rejected("not_allowed_now", f"Now the choices are: {', '.join(choices) or 'none'}.")
    kind = text(action, "type")
    if ex.stage == "defend":
        _defend(state, rng, ex, kind, journal)
    elif kind == "damage":
        state.exchange = None
        damage_phase(state, rng, ex.attacker, ex.defender, ex.weapon, ex.kind == "charge", journal)
    elif kind == "riposte":
        state.exchange = None
        start_exchange(state, rng, ex.defender, ex.attacker, "riposte", journal)
    elif kind == "disengage":
        state.exchange = None
        if ex.stage == "follow" and not state.options.disengage_forfeits_follow_up:
            damage_phase(state, rng, ex.attacker, ex.defender, ex.weapon, ex.kind == "charge", journal)
        if state.outcome is None and not state.fighters[actor].out:
            pursuit.start(state, rng, actor, journal)
    else:
        state.exchange = None
    if state.pursuit is None:
        run(state, rng, journal)
    return accepted(journal)


def _defend(state: HudState, rng: RNG, ex: Exchange, kind: str, journal: Journal) -> None:
    a, d = state.fighters[ex.attacker], state.fighters[ex.defender]
    if kind == "take":
        state.exchange = None
        if journal.loud:
            journal.append(Undefended(a.id, d.id, "chose to take it"))
        damage_phase(state, rng, a.id, d.id, ex.weapon, ex.kind == "charge", journal)
        return
    if kind == "emergency_defense":  # WL-17: the -2 falls on the whole next round
        d.additional_used += 1
        d.penalty_next += ADDITIONAL_ACTION_PENALTY
    elif ex.kind != "riposte" or state.options.riposte_costs_defense:
        d.defenses -= 1
    arm = a.arms.get(ex.weapon)
    ex.attack = roll(state, rng, a.id, "attack", attack_modifier(a, arm, ex.kind == "charge"), journal)
    ex.defense = roll(state, rng, d.id, "defense", defense_modifier(d), journal)
    result = exchange(ex.attack, ex.defense, state.options.riposte_margin)
    riposte = result.riposte and a.place == d.place
    if journal.loud:
        journal.append(Exchanged(a.id, d.id, ex.attack, ex.defense, "hit" if result.hit else "parry", riposte))
    ex.stage = "follow" if result.hit else "parry"
