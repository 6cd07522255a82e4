"""Dice Simplified (WL-04..WL-07), and the one-exchange duel Free Form calls on (WL-00).

Everyone has 3 HP. The post order comes from the scene (the scenario's ``first``) or from opposed
Chance rolls, ties re-rolled (WL-05, WL-B8). On each attack the attacker chooses to roll Attack or
Damage, then the defender Defense or Injury; a higher attacker roll costs the defender 1 HP, a tie goes
to the defender (WL-06). Ranged combatants at range get one free attack first, unless everyone is
ranged (WL-07).
"""

from __future__ import annotations

from affray.core.engine import Action, ActionSpec, Rejected, StepResult
from affray.core.events import RoundStarted
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.hud.combat import accepted, defense_modifier, knock_out, roll, round_limit_reached
from affray.rulesets.hud.events import InitiativeSet, SimplifiedExchange
from affray.rulesets.hud.mechanics import simplified_hit
from affray.rulesets.hud.nerdified import roll_initiative
from affray.rulesets.hud.state import Duel, Fighter, HudState

ATTACKER_DICE = ("attack", "damage")
DEFENDER_DICE = ("defense", "injury")


def post_order(state: HudState, rng: RNG, first: str | None, journal: Journal, roll_if_unclear: bool) -> None:
    """The fixed post order: the scene's first attacker, else opposed Chance (WL-05)."""
    ids = list(state.fighters)
    if first is not None:
        state.order = [first] + [a for a in ids if a != first]
    elif roll_if_unclear:
        state.order = roll_initiative(state, rng, ids, journal)
    else:
        state.order = ids
    journal.append(InitiativeSet(state.order))


def begin(state: HudState, rng: RNG, first: str | None, at_range: dict[str, bool], journal: Journal) -> None:
    post_order(state, rng, first, journal, roll_if_unclear=True)
    eligible = [
        a for a in state.order if at_range[a] and any(w.kind == "ranged" for w in state.fighters[a].arms.values())
    ]
    if eligible and len(eligible) < len(state.fighters):
        state.free_attackers = eligible  # WL-07: one free attack each while the foes close in
    state.round, state.turn, state.phase = 1, 0, "attack"
    journal.append(RoundStarted(1))


def current(state: HudState) -> str:
    return state.free_attackers[0] if state.free_attackers else state.order[state.turn]


def die_modifier(f: Fighter, die: str, ranged_only: bool = False) -> int:
    """The HuD modifier of a die (WL-B2) with the best weapon in hand for it."""
    held = [a for a in f.in_hand() if a.kind != "shield" and (a.kind == "ranged" or not ranged_only)]
    if not held and ranged_only:
        held = [a for a in f.arms.values() if a.kind == "ranged"]
    if die == "attack":
        return max((a.attack for a in held), default=0) - f.armour_penalty
    if die == "damage":
        return max((a.damage for a in held), default=0)
    if die == "defense":
        return defense_modifier(f)
    return f.injury_mod


def attack_specs(state: HudState, actor: str, kind: str = "attack") -> list[ActionSpec]:
    return [
        ActionSpec({"type": kind, "target": e.id, "die": die}, f"{kind} {e.name} rolling {die.upper()}")
        for e in state.enemies(actor)
        for die in ATTACKER_DICE
    ]


def respond_specs(state: HudState) -> list[ActionSpec]:
    return [ActionSpec({"type": "respond", "die": die}, f"roll {die.upper()}") for die in DEFENDER_DICE]


def open_duel(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> Rejected | None:
    """The attacker's half: check the target and die, roll it (into ``journal``), and wait for the defender."""
    target, die = action.get("target"), action.get("die")
    foe = state.fighters.get(target) if isinstance(target, str) else None
    if foe is None or foe.out or foe.side == state.fighters[actor].side:
        return Rejected("bad_target", f"'{target}' is not a foe still in the fight.")
    if die not in ATTACKER_DICE:
        return Rejected("bad_die", "The attacker rolls 'attack' or 'damage'.")
    ranged = bool(state.free_attackers) and state.phase == "attack"
    total = roll(state, rng, actor, str(die), die_modifier(state.fighters[actor], str(die), ranged), journal)
    state.duel = Duel(actor, str(target), str(die), total)
    state.phase = "respond" if state.phase == "attack" else "settle"
    return None


def close_duel(state: HudState, rng: RNG, action: Action, journal: Journal) -> Rejected | None:
    """The defender's half: roll Defense or Injury; a higher attacker roll costs 1 HP (WL-06)."""
    duel = state.duel
    assert duel is not None
    die = action.get("die")
    if die not in DEFENDER_DICE:
        return Rejected("bad_die", "The defender rolls 'defense' or 'injury'.")
    d = state.fighters[duel.defender]
    total = roll(state, rng, d.id, str(die), die_modifier(d, str(die)), journal)
    state.duel = None
    hit = simplified_hit(duel.attacker_total, total)
    if hit:
        d.hp -= 1
        d.taken += 1
        state.fighters[duel.attacker].dealt += 1
    if journal.loud:  # the exchange as its result, hit or not: "Vesna's Attack 9 against Hald's Defense 7: ..."
        journal.append(
            SimplifiedExchange(
                duel.attacker, d.id, duel.attacker_die, duel.attacker_total, str(die), total, int(hit), d.hp
            )
        )
    if hit:
        knock_out(state, d, journal)
    return None


def step(state: HudState, rng: RNG, actor: str, action: Action, journal: Journal) -> StepResult:
    """An attacker's or a defender's roll of a Dice Simplified exchange. Rules: WL-05, WL-06."""
    kind = action["type"]
    if state.phase == "attack" and kind == "attack":
        result = open_duel(state, rng, actor, action, journal)
    elif state.phase == "respond" and kind == "respond":
        result = close_duel(state, rng, action, journal)
        if result is None:
            next_turn(state, journal)
    else:
        want = "attack" if state.phase == "attack" else "respond"
        return Rejected("not_allowed_now", f"Now the action is '{want}'.")
    return accepted(journal) if result is None else result


def next_turn(state: HudState, journal: Journal) -> None:
    """The turn passes: the next free attacker (WL-07), else the next in the post order still in the fight."""
    if state.outcome is not None:
        return
    state.phase = "attack"
    if state.free_attackers:
        state.free_attackers.pop(0)
        if state.free_attackers or not state.fighters[state.order[state.turn]].out:
            return
    n = len(state.order)
    for _ in range(n):
        state.turn += 1
        if state.turn >= n:
            state.turn = 0
            state.round += 1
            if round_limit_reached(state, journal):
                return
            if journal.loud:
                journal.append(RoundStarted(state.round))
        if not state.fighters[state.order[state.turn]].out:
            return
