"""Resolving an attack: the GM's ruling, the defender's choices, the two rolls and the hit.

The attack roll is the chosen trait with its bonus and penalty dice: Experience Pool dice (WR-04), the
advantages (ganging up, surprise, better weaponry, better position, psychological: WR-31), predictable
attacks for PCs (WR-17, WR-B11). The target makes one defense roll per attack (WR-08): in melee its
best defense trait; against a missile the dice the GM assigns from distance, cover, movement and
darkness, plus bonus dice for dodging (WR-14..WR-16). A hit needs attack > defense (WR-10).
"""

from __future__ import annotations

from affray.core.engine import GM
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp import gestalt, turns
from affray.rulesets.warp.events import DefenseDice, Exchanged
from affray.rulesets.warp.gang import gang_choice_needed, ganging_up
from affray.rulesets.warp.mechanics import (
    better_weaponry,
    distance_dice,
    half_distance_dice,
    hit,
    predictable,
    ranged_defense,
)
from affray.rulesets.warp.rolls import (
    Mods,
    agility_related,
    candidates,
    dodge_dice,
    lock,
    roll,
    standing,
)
from affray.rulesets.warp.state import Attack, Decision, Fighter, TraitRating, WarpState
from affray.rulesets.warp.turns import gm_decides
from affray.rulesets.warp.wounds import apply_hit


def needs_ruling(state: WarpState, a: Attack) -> bool:
    """With a GM at the table: claims, special effects, missiles (the GM assigns their dice, WR-14) and
    PC attacks (the GM may call them predictable, WR-17) wait for the GM's ruling."""
    return gm_decides(state) and (
        bool(a.claim) or a.special != "none" or a.mode == "ranged" or state.fighters[a.attacker].pc
    )


def defense_options(state: WarpState, a: Attack) -> list[TraitRating | None]:
    """The traits ``a.target`` could defend with; ``[None]`` alone means the default 2 dice."""
    t = state.fighters[a.target]
    if a.mode == "ranged":
        found: list[TraitRating | None] = list(candidates(t, "dodge", "defense"))
    else:
        found = list(candidates(t, "defense", "defense", t.wielding))
    return found or [None]


def lock_matters(state: WarpState, a: Attack) -> bool:
    """Defending with a non-combat trait costs something only if its owner may still attack before the
    lock resets: while it holds its action, or (locks by round, the default) before its turn (WR-09,
    WR-B15)."""
    t = state.fighters[a.target]
    may_still_attack = t.holding or (state.options.trait_lock == "until_next_round" and not t.turn_done)
    if not may_still_attack:
        return False
    top = defense_options(state, a)[0]
    return top is not None and not top.combat and any(u in top.uses for u in ("melee", "ranged"))


def defend_choice_needed(state: WarpState, a: Attack) -> bool:
    """Whether the defender has a real choice to make: gang-up, experience dice or a costly trait."""
    t = state.fighters[a.target]
    return t.experience > 0 or gang_choice_needed(state, a) or lock_matters(state, a)  # cheapest first


def continue_fight(state: WarpState, rng: RNG, events: Journal) -> None:
    """Run what the fight runs by itself until somebody must choose or it ends: the attack in flight moves on unless
    a decision about it waits, then the turns and rounds (:func:`~affray.rulesets.warp.turns.advance`) or the
    gestalt's totals (:func:`~affray.rulesets.warp.gestalt.advance`). After every step, and after a GM ruling's
    changes (:func:`affray.rulesets.warp.leave.settle`)."""
    if state.attack is not None and not state.decisions:
        continue_attack(state, rng, events)
    if state.mode == "gestalt":
        gestalt.advance(state, rng, events)
    else:
        turns.advance(state, rng, events)


def continue_attack(state: WarpState, rng: RNG, events: Journal) -> None:
    """Move the pending attack on until a decision is needed or it is resolved."""
    a = state.attack
    assert a is not None
    if a.stage == "ruling":
        a.stage = "defend"
        if needs_ruling(state, a):
            state.decisions.append(Decision("ruling", GM, a.attacker))
            return
    if a.stage == "defend":
        a.stage = "resolve"
        if defend_choice_needed(state, a):
            state.decisions.append(Decision("defend", a.target, a.attacker))
            return
        auto_defense(state, a)
    state.attack = None
    resolve(state, rng, a, events)


def auto_defense(state: WarpState, a: Attack) -> None:
    """The dominant defense: the best trait, dodging when aware (WR-14, ruling WR-X5)."""
    top = defense_options(state, a)[0]
    a.defense_trait = top.id if top is not None else None
    a.dodge = True


def _advantages(state: WarpState, f: Fighter, t: Fighter, a: Attack, mods: Mods) -> None:
    """Bonus dice from advantage (WR-31) and the GM's ruling; the predictable penalty (WR-17, WR-B11)."""
    if a.mode == "melee":
        if ganging_up(state, f, t):
            mods.bonus.append("ganging up")
        if better_weaponry(f.arms[a.weapon].handiness, t.arms[t.wielding].handiness):
            mods.bonus.append("better weaponry")
    if t.unaware:
        mods.bonus.extend(["surprise"] * state.options.surprise_bonus_dice)
    if (f.high_ground and not t.high_ground) or (t.prone and not f.prone):
        mods.bonus.append("better position")
    mods.bonus.extend(["experience"] * a.experience)
    mods.bonus.extend(["GM: advantage"] * a.gm_bonus)
    mods.penalty.extend(["GM: disadvantage"] * a.gm_penalty)
    if predictable(f.pc, a.gm_predictable or state.maneuvers[a.maneuver].predictable, a.repeated):
        mods.penalty.append("predictable")


def attack_roll(state: WarpState, rng: RNG, a: Attack, events: Journal) -> int:
    f, t = state.fighters[a.attacker], state.fighters[a.target]
    trait = f.traits.get(a.trait) if a.trait else None
    arm = f.arms[a.weapon]
    gunfire = a.mode == "ranged" and arm.ranged is not None and arm.ranged.gunfire
    mods = standing(state, f, a.mode, agility_related(state, trait, a.mode, gunfire), Mods())
    _advantages(state, f, t, a, mods)
    return roll(state, rng, f, f"{a.mode} attack", trait, mods, events)


def _defense_extras(state: WarpState, t: Fighter, a: Attack, mods: Mods) -> None:
    if t.desperate:
        mods.bonus.append("desperate defense")
    mods.bonus.extend(["experience"] * a.defense_experience)


def melee_defense(state: WarpState, rng: RNG, a: Attack, events: Journal) -> int:
    t = state.fighters[a.target]
    trait = t.traits.get(a.defense_trait) if a.defense_trait else None
    lock(t, trait, "defense")
    mods = standing(state, t, "defense", agility_related(state, trait, "defense"), Mods())
    _defense_extras(state, t, a, mods)
    return roll(state, rng, t, "defense", trait, mods, events)


def distance_of(state: WarpState, a: Attack) -> tuple[int, int]:
    """Distance dice for this shot, as (dice, bonus) with the GM's half-dice (WR-15, WR-16, WR-B7)."""
    arm = state.fighters[a.attacker].arms[a.weapon]
    assert arm.ranged is not None
    beyond = state.options.beyond_range == "extra_die"
    if state.options.half_dice:
        found = half_distance_dice(arm.ranged.row, a.distance, beyond)
    else:
        column = distance_dice(arm.ranged.row, a.distance, beyond)
        found = None if column is None else (column, 0)
    assert found is not None, "range is checked when the attack is declared"
    return found


def ranged_defense_roll(state: WarpState, rng: RNG, a: Attack, events: Journal) -> tuple[int, int]:
    """The GM's dice for a missile defense plus dodging (WR-14); returns (total, distance dice)."""
    t = state.fighters[a.target]
    distance = distance_of(state, a)
    dice, bonus = ranged_defense(distance, a.cover, a.darkness, t.moved, a.attacker_moving)
    factors = [f"distance {distance[0]}" + ("+b" if distance[1] else "")]
    factors += [f"cover {a.cover}"] if a.cover != "none" else []
    factors += ["target moving"] if t.moved else []
    factors += ["attacker moving"] if a.attacker_moving else []
    factors += [f"{a.darkness} light"] if a.darkness != "none" else []
    dodging = a.dodge and state.options.targets_dodge and not t.unaware
    mods = Mods(bonus=["half-dice"] * bonus)
    if dodging:
        extra, trait = dodge_dice(t)
        lock(t, trait, "defense")
        mods.bonus.extend(["dodging"] * extra)
        factors.append(f"dodging +{extra}")
    if dodging or state.options.passive_defense_standing:  # a passive defense is the shot's (WR-24)
        standing(state, t, "dodge" if dodging else "cover", dodging, mods)
    _defense_extras(state, t, a, mods)
    events.append(DefenseDice(t.id, dice, len(mods.bonus) - len(mods.penalty), factors))
    total = roll(state, rng, t, "ranged defense", None, mods, events, dice=dice)
    return total, distance[0]


def resolve(state: WarpState, rng: RNG, a: Attack, events: Journal) -> None:
    """Roll attack and defense, compare, and apply a hit (WR-08, WR-10, WR-11)."""
    attack = attack_roll(state, rng, a, events)
    if a.mode == "melee":
        defense, dd = melee_defense(state, rng, a, events), 1
    else:
        defense, dd = ranged_defense_roll(state, rng, a, events)
    t = state.fighters[a.target]
    t.unaware = False
    landed = hit(attack, defense)
    if events.loud:
        events.append(Exchanged(a.attacker, a.target, attack, defense, landed))
    if landed:
        apply_hit(state, rng, a, attack, defense, dd, events)
