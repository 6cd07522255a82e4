"""Declaring an attack: checking every field before anything changes, then committing to it.

An attack names a target, a weapon (the one in hand by default) and how it is used (hand to hand, or
as a missile), the trait rolled (none: 2 dice, WR-03), a maneuver (its tag feeds the predictable-attack
rule, WR-17/WR-B11; a special one halves damage, WR-30), Experience Pool dice to spend (WR-04), a ranged
attacker's own movement (WR-14) and, with a GM at the table, a claim of advantage (WR-31). Melee needs
the target within reach (ruling WR-X2); a missile needs a range column (WR-15, WR-B7).
"""

from __future__ import annotations

from affray.core.engine import Action, Rejected
from affray.core.fields import integer, maybe_text, text
from affray.core.journal import Journal
from affray.rulesets.warp.actions import ATTACK, weapon_of
from affray.rulesets.warp.events import AttackDeclared, Moved
from affray.rulesets.warp.mechanics import PACES, distance_dice
from affray.rulesets.warp.rolls import best, lock, lock_allows
from affray.rulesets.warp.state import UNARMED, Arm, Attack, Fighter, WarpState
from affray.rulesets.warp.turns import end_action, gm_decides

#: The fields an attack may carry: its type's (:data:`affray.rulesets.warp.actions.ATTACK`), and ``type``.
ATTACK_FIELDS = frozenset({"type", *(f.name for f in ATTACK.fields)})


def count_field(action: Action, key: str, have: int, what: str) -> Rejected | int:
    """A whole number of dice from 0 to ``have`` (``bad_count``/``not_enough_experience`` otherwise)."""
    value = action.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return Rejected("bad_count", f"'{key}' must be a whole number of dice, 0 or more (got {value!r}).")
    if value > have:
        return Rejected("not_enough_experience", f"Only {have} {what} left; cannot spend {value}.")
    return value


def pace_field(state: WarpState, value: object) -> Rejected | float:
    """A pace name within the GM's cap (WR-07)."""
    if not isinstance(value, str) or value not in PACES:  # a list or an object is refused, not hashed
        return Rejected("bad_pace", f"A pace is one of {', '.join(PACES)} (got {value!r}).")
    if PACES[str(value)] > PACES[state.options.max_pace]:
        return Rejected("bad_pace", f"The GM caps the pace at {state.options.max_pace} this fight.")
    return PACES[str(value)]


def reach(state: WarpState) -> float:
    return state.options.melee_reach_m


def in_range(state: WarpState, arm: Arm, mode: str, distance: float) -> bool:
    if mode == "melee":
        return distance <= reach(state) + state.options.close_in_m
    assert arm.ranged is not None
    return distance_dice(arm.ranged.row, distance, state.options.beyond_range == "extra_die") is not None


def usable_weapons(f: Fighter) -> list[str]:
    return [w for w in f.arms if w == UNARMED or f.carried.get(w, 0) > 0]


def infer_mode(state: WarpState, arm: Arm, distance: float) -> str:
    if arm.melee is not None and (arm.ranged is None or distance <= reach(state) + state.options.close_in_m):
        return "melee"
    return "ranged" if arm.ranged is not None else "melee"


def _target(state: WarpState, f: Fighter, action: Action) -> Rejected | Fighter:
    target = action.get("target")
    t = state.fighters.get(target) if isinstance(target, str) else None
    if t is None or t.out or t.side == f.side:
        return Rejected("bad_target", f"'{target}' is not a foe still in the fight.")
    return t


def _weapon(state: WarpState, f: Fighter, action: Action, distance: float) -> Rejected | tuple[Arm, str]:
    wid = weapon_of(action, f.wielding)
    if not isinstance(wid, str) or wid not in usable_weapons(f):
        return Rejected("unknown_weapon", f"{f.name} carries no weapon called '{wid}'.")
    arm = f.arms[wid]
    mode = action.get("mode", infer_mode(state, arm, distance))
    if (
        mode not in ("melee", "ranged")
        or (mode == "melee" and arm.melee is None)
        or (mode == "ranged" and arm.ranged is None)
    ):
        return Rejected("bad_mode", f"The {arm.name} cannot be used that way ({mode!r}).")
    return arm, str(mode)


def _trait(f: Fighter, action: Action, use: str, weapon: str) -> Rejected | str | None:
    """The trait rolled: as named, the best suitable one when the field is absent, or none (2 dice,
    WR-03) when it is ``null``."""
    if "trait" not in action:
        top = best(f, use, "attack", weapon)
        return None if top is None else top.id
    tid = action["trait"]
    if tid is None:
        return None
    if not isinstance(tid, str) or tid not in f.traits:
        return Rejected("unknown_trait", f"{f.name} has no trait called '{tid}'.")
    trait = f.traits[tid]
    if use not in trait.uses:
        return Rejected("unsuitable_trait", f"{trait.name} cannot be used for a {use} attack.")
    if not trait.fits(weapon):
        return Rejected("unsuitable_trait", f"{trait.name} helps only with: {', '.join(trait.weapons)}.")
    if not lock_allows(f, trait, "attack"):
        return Rejected(
            "trait_locked", f"{trait.name} is not a combat trait and already served for defense this round (WR-09)."
        )
    return tid


def _maneuver(state: WarpState, action: Action, mode: str) -> Rejected | str:
    mid = action.get("maneuver", "attack")
    m = state.maneuvers.get(mid) if isinstance(mid, str) else None
    if m is None:
        return Rejected("unknown_maneuver", f"There is no maneuver called '{mid}'.")
    if not (m.melee if mode == "melee" else m.ranged):
        return Rejected("bad_maneuver", f"'{m.name}' is not a {mode} maneuver.")
    return str(mid)


def _move(state: WarpState, f: Fighter, action: Action, mode: str) -> Rejected | tuple[str, float] | None:
    move = action.get("move")
    if move is None:
        return None
    if mode != "ranged" or not isinstance(move, dict) or move.get("dir") not in ("toward", "away"):
        return Rejected(
            "bad_move", 'Only a missile attack may move as it shoots: "move": {"pace": ..., "dir": "toward" or "away"}.'
        )
    if f.held_by:
        return Rejected("held", f"{f.name} is held and cannot move.")
    pace = pace_field(state, move.get("pace"))
    return pace if isinstance(pace, Rejected) else (str(move["dir"]), pace)


def check_attack(state: WarpState, f: Fighter, action: Action) -> Rejected | Attack:
    """Validate an attack completely; nothing changes here (contract 2)."""
    unknown = sorted(set(action) - ATTACK_FIELDS)
    if unknown:
        return Rejected("bad_field", f"An attack has no field {', '.join(unknown)}.")
    t = _target(state, f, action)
    if isinstance(t, Rejected):
        return t
    distance = abs(f.position - t.position)
    weapon = _weapon(state, f, action, distance)
    if isinstance(weapon, Rejected):
        return weapon
    arm, mode = weapon
    checks = (
        _trait(f, action, mode, arm.id),
        _maneuver(state, action, mode),
        count_field(action, "experience", f.experience, "Experience Pool dice"),
        _move(state, f, action, mode),
    )
    for check in checks:
        if isinstance(check, Rejected):
            return check
    trait, maneuver, experience, move = checks
    claim = action.get("claim", "")
    if not isinstance(claim, str) or (claim and not gm_decides(state)):
        return Rejected("no_gm", "Claims of advantage need a GM at the table (option gm_decisions: table).")
    if not in_range(state, arm, mode, distance):
        return Rejected("out_of_range", f"{t.name} is {distance:g} m away: out of range for the {arm.name} ({mode}).")
    if mode == "melee" and distance > reach(state) and f.held_by:
        return Rejected("held", f"{f.name} is held and cannot close in.")
    return _declared(
        state,
        f,
        t,
        arm.id,
        mode,
        trait if isinstance(trait, str) else None,
        str(maneuver),
        int(experience) if isinstance(experience, int) else 0,
        move if isinstance(move, tuple) else None,
        claim,
        distance,
    )


def trusted_attack(state: WarpState, f: Fighter, action: Action) -> Attack:
    """The attack :func:`check_attack` would declare for an action taken from the legal listing (a journal that
    does not validate, :mod:`affray.core.journal`): the same defaults, none of the checks."""
    t = state.fighters[text(action, "target")]
    distance = abs(f.position - t.position)
    wid = str(weapon_of(action, f.wielding))
    mode = text(action, "mode") if "mode" in action else infer_mode(state, f.arms[wid], distance)
    if "trait" in action:
        trait = maybe_text(action, "trait")
    else:
        top = best(f, mode, "attack", wid)
        trait = None if top is None else top.id
    move = action.get("move")
    moving = (str(move["dir"]), PACES[str(move["pace"])]) if isinstance(move, dict) else None
    return _declared(
        state,
        f,
        t,
        wid,
        mode,
        trait,
        text(action, "maneuver", "attack"),
        integer(action, "experience", 0),
        moving,
        text(action, "claim", ""),
        distance,
    )


def _declared(
    state: WarpState,
    f: Fighter,
    t: Fighter,
    wid: str,
    mode: str,
    trait: str | None,
    maneuver: str,
    experience: int,
    move: tuple[str, float] | None,
    claim: str,
    distance: float,
) -> Attack:
    a = Attack(
        f.id,
        t.id,
        wid,
        mode,
        trait,
        maneuver,
        state.maneuvers[maneuver].special,
        experience,
        move is not None,
        distance,
        claim=claim,
    )
    a.cover, a.darkness = t.cover, state.darkness
    if move is not None:
        a.move_dir, a.move_m = move
    return a


def step_toward(state: WarpState, f: Fighter, target: Fighter, metres: float) -> float:
    """Move ``f`` up to ``metres`` toward ``target``, stopping at half the melee reach (WR-07, WR-X2)."""
    gap = target.position - f.position
    step = min(metres, max(0.0, abs(gap) - reach(state) / 2))
    return f.position + (step if gap > 0 else -step)


def leave_cover(state: WarpState, f: Fighter) -> None:
    """Moving leaves one's cover (ruling WR-X13)."""
    if state.options.moving_leaves_cover:
        f.cover = "none"


def step_away(f: Fighter, target: Fighter, metres: float) -> float:
    return f.position - metres if target.position >= f.position else f.position + metres


def commit(state: WarpState, f: Fighter, a: Attack, events: Journal) -> None:
    """Apply the declaration: spend dice, lock the trait, move, use up a thrown weapon (WR-04, WR-09)."""
    t = state.fighters[a.target]
    f.experience -= a.experience
    lock(f, f.traits.get(a.trait) if a.trait else None, "attack")
    if a.move_dir:  # a missile attacker moving as it shoots, from where it stood (WR-14)
        end = step_toward(state, f, t, a.move_m) if a.move_dir == "toward" else step_away(f, t, a.move_m)
        events.append(Moved(f.id, f.position, end, "shooting on the move"))
        f.position, f.moved = end, True
        leave_cover(state, f)
    elif a.mode == "melee" and a.distance > reach(state):  # closing in first (WR-X3)
        end = step_toward(state, f, t, a.distance)
        events.append(Moved(f.id, f.position, end, "closing in"))
        f.position, f.moved = end, True
        leave_cover(state, f)
        a.distance = abs(f.position - t.position)
    arm = f.arms[a.weapon]
    if a.mode == "ranged" and arm.ranged is not None and arm.ranged.thrown:
        f.carried[a.weapon] -= 1
        state.ground.append((a.weapon, t.position))
        if f.carried[a.weapon] <= 0 and f.wielding == a.weapon:
            f.wielding = UNARMED
    else:
        f.wielding = a.weapon
    for g in state.fighters.values():  # a holder who turns on someone else lets go (WR-30)
        if g.held_by == f.id and g.id != t.id:
            g.held_by = ""
    a.repeated = state.options.predictable_repeats and f.last_attack == (state.round - 1, t.id, a.maneuver)
    f.last_attack = (state.round, t.id, a.maneuver)
    if events.loud:
        events.append(AttackDeclared(f.id, t.id, arm.name, a.mode, state.maneuvers[a.maneuver].name, a.distance))
    end_action(state, f)
    state.attack = a
