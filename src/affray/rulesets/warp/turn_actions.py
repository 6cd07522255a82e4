"""Turn actions other than attacks: move, hold and wait, take cover, desperate defense, intimidate,
break free, pick up, and anything else (``pass``).

Each is checked completely and then applied (contract 2). Movement is along the line at one of the
seed's paces (WR-07); leaving one's spot leaves its cover. Holding (WR-06) keeps the action for later in
the round; a holder offered a moment to interrupt may ``wait``.
"""

from __future__ import annotations

from affray.core.engine import Accepted, Action, Rejected, StepResult
from affray.core.events import Defeated
from affray.core.journal import Journal
from affray.core.rng import RNG
from affray.rulesets.warp.attack import (
    check_attack,
    commit,
    count_field,
    leave_cover,
    pace_field,
    step_away,
    step_toward,
    trusted_attack,
)
from affray.rulesets.warp.events import Acted, Contest, Moved
from affray.rulesets.warp.mechanics import COVER
from affray.rulesets.warp.rolls import Mods, agility_related, best, roll, standing
from affray.rulesets.warp.state import Fighter, WarpState
from affray.rulesets.warp.turns import end_action
from affray.rulesets.warp.wounds import release

COVER_ORDER = tuple(COVER)
TURN_ACTIONS = (
    "attack",
    "move",
    "hold",
    "wait",
    "pass",
    "take_cover",
    "desperate_defense",
    "intimidate",
    "break_free",
    "pick_up",
)


def _move_end(state: WarpState, f: Fighter, action: Action, metres: float) -> Rejected | float:
    keys = [k for k in ("toward", "away", "to") if k in action]
    if len(keys) != 1:
        return Rejected("bad_move", 'A move names one of "toward": <id>, "away": <id> or "to": <metres>.')
    key = keys[0]
    if key == "to":
        to = action["to"]
        if isinstance(to, bool) or not isinstance(to, int | float):
            return Rejected("bad_move", f"'to' is a position in metres (got {to!r}).")
        if abs(float(to) - f.position) > metres:
            return Rejected("too_far", f"{f.name} covers at most {metres:g} m at that pace.")
        return float(to)
    whom = action[key]
    other = state.fighters.get(whom) if isinstance(whom, str) else None
    if other is None or other.id == f.id or other.status in ("escaped",):
        return Rejected("bad_target", f"'{action[key]}' is nobody {f.name} can move relative to.")
    end = step_toward(state, f, other, metres) if key == "toward" else step_away(f, other, metres)
    if end == f.position:
        return Rejected("bad_move", f"{f.name} is already next to {other.name}.")
    return end


def move(state: WarpState, f: Fighter, action: Action, events: Journal) -> Rejected | None:
    """Move along the line at a pace (WR-07); a character beyond every foe's reach escapes (WR-X4)."""
    if f.held_by:
        return Rejected("held", f"{f.name} is held and must break free first.")
    metres = pace_field(state, action.get("pace"))
    if isinstance(metres, Rejected):
        return metres
    end = _move_end(state, f, action, metres)
    if isinstance(end, Rejected):
        return end
    events.append(Moved(f.id, f.position, end, str(action["pace"])))
    f.position, f.moved = end, True
    leave_cover(state, f)
    for g in state.fighters.values():
        if g.held_by == f.id:
            g.held_by = ""
    foes = state.foes(f)
    if foes and all(abs(g.position - f.position) > state.options.escape_m for g in foes):
        f.status = "escaped"
        release(state, f)
        events.append(Defeated(f.id, "escaped"))
    return None


def intimidate(state: WarpState, rng: RNG, f: Fighter, action: Action, events: Journal) -> Rejected | None:
    """Intimidation against resolve; winning gives a bonus die on every roll next round (WR-31, WR-X11)."""
    if not state.options.intimidation:
        return Rejected("option_off", "Intimidation is switched off (option intimidation).")
    target = action.get("target")
    t = state.fighters.get(target) if isinstance(target, str) else None
    if t is None or t.out or t.side == f.side:
        return Rejected("bad_target", f"'{target}' is not a foe still in the fight.")
    tid = action.get("trait")
    if tid is not None and (not isinstance(tid, str) or tid not in f.traits):
        return Rejected("unknown_trait", f"{f.name} has no trait called '{tid}'.")
    if tid is not None and "intimidate" not in f.traits[tid].uses:
        return Rejected("unsuitable_trait", f"{f.traits[tid].name} cannot be used to intimidate.")
    spend = count_field(action, "experience", f.experience, "Experience Pool dice")
    if isinstance(spend, Rejected):
        return spend
    trait = f.traits[tid] if tid is not None else best(f, "intimidate", None)
    mods = standing(state, f, "intimidate", agility_related(state, trait, "intimidate"), Mods())
    mods.bonus.extend(["experience"] * spend)
    f.experience -= spend
    mine = roll(state, rng, f, "intimidate", trait, mods, events)
    own = best(t, "resolve", None)
    theirs = roll(state, rng, t, "resolve", own, standing(state, t, "resolve", False, Mods()), events)
    won = mine > theirs
    if won:
        f.psych_round = state.round + 1
    events.append(Contest(f.id, t.id, "intimidate", won))
    return None


def break_free(state: WarpState, rng: RNG, f: Fighter, events: Journal) -> Rejected | None:
    """Struggle out of a hold: the best melee trait against the holder's (WR-30, ruling WR-X6)."""
    if not f.held_by:
        return Rejected("not_held", f"{f.name} is not held by anyone.")
    h = state.fighters[f.held_by]
    mine_trait, their_trait = best(f, "melee", None), best(h, "melee", None)
    mine = roll(
        state,
        rng,
        f,
        "break free",
        mine_trait,
        standing(state, f, "melee", agility_related(state, mine_trait, "melee"), Mods()),
        events,
    )
    theirs = roll(
        state,
        rng,
        h,
        "keep hold",
        their_trait,
        standing(state, h, "melee", agility_related(state, their_trait, "melee"), Mods()),
        events,
    )
    won = mine > theirs
    if won:
        f.held_by = ""
    events.append(Contest(f.id, h.id, "break free of", won))
    return None


def pick_up(state: WarpState, f: Fighter, action: Action, events: Journal) -> Rejected | None:
    wid = action.get("weapon")
    spot = next(
        (
            i
            for i, (w, at) in enumerate(state.ground)
            if w == wid and abs(at - f.position) <= state.options.melee_reach_m
        ),
        None,
    )
    if spot is None or not isinstance(wid, str) or wid not in f.arms:
        return Rejected("nothing_there", f"There is no '{wid}' of {f.name}'s within reach.")
    state.ground.pop(spot)
    f.carried[wid] = f.carried.get(wid, 0) + 1
    f.wielding = wid
    events.append(Acted(f.id, f"picks up the {f.arms[wid].name}"))
    return None


def simple(state: WarpState, f: Fighter, kind: str, action: Action, events: Journal) -> Rejected | None:
    """take_cover, desperate_defense, pass."""
    if kind == "take_cover":
        if COVER_ORDER.index(f.cover_nearby) <= COVER_ORDER.index(f.cover):
            return Rejected("no_cover", f"There is no better cover within {f.name}'s reach.")
        f.cover = f.cover_nearby
        events.append(Acted(f.id, f"takes cover ({f.cover})"))
    elif kind == "desperate_defense":
        if not state.options.desperate_defense:
            return Rejected("option_off", "Desperate defense is an optional rule that is switched off.")
        f.desperate = True
        events.append(Acted(f.id, "gives up the attack to defend desperately"))
    else:
        text = action.get("text", "")
        events.append(Acted(f.id, "does something else", text if isinstance(text, str) else ""))
    return None


def turn_step(state: WarpState, rng: RNG, f: Fighter, action: Action, phase: str, events: Journal) -> StepResult:
    """Apply a turn action of ``f`` (the current character, a holder interrupting, or at the round's end), writing
    its events into ``events``; without ``events.validate`` an attack from the listing is not checked again."""
    kind = action.get("type")
    holder = f.holding
    if (
        kind not in TURN_ACTIONS
        or (kind == "hold" and (holder or phase != "turn"))
        or (kind == "wait" and (not holder or phase != "turn"))
    ):
        return Rejected("not_allowed_now", f"'{kind}' is not an action {f.name} can take now.")
    if kind == "attack":
        attack = check_attack(state, f, action) if events.validate else trusted_attack(state, f, action)
        if isinstance(attack, Rejected):
            return attack
        commit(state, f, attack, events)
        return Accepted(events)
    if kind == "wait":
        f.waited = state.slot
        events.append(Acted(f.id, "keeps waiting"))
        return Accepted(events)
    if kind == "hold":
        f.holding, f.turn_done = True, True
        state.slot += 1
        events.append(Acted(f.id, "holds its action"))
        return Accepted(events)
    result = _apply(state, rng, f, kind, action, events)
    if isinstance(result, Rejected):
        return result
    end_action(state, f)
    return Accepted(events)


def _apply(state: WarpState, rng: RNG, f: Fighter, kind: str, action: Action, events: Journal) -> Rejected | None:
    if kind == "move":
        return move(state, f, action, events)
    if kind == "intimidate":
        return intimidate(state, rng, f, action, events)
    if kind == "break_free":
        return break_free(state, rng, f, events)
    if kind == "pick_up":
        return pick_up(state, f, action, events)
    return simple(state, f, kind, action, events)
