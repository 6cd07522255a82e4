"""The actions on offer in each window, as concrete action objects (``ActionSpec``).

The lists are representative rather than exhaustive where a field is open (a free-text reason, any
position on the line, any number of Experience Pool dice): every listed action is accepted by ``step``,
and ``step`` accepts the unlisted variants too. Each spec names those open fields in ``free`` (declared with
``Field(free=True)`` in :mod:`affray.rulesets.warp.actions`). For attacks the list covers every target in range,
weapon, way of using it and suitable trait with a maneuver that is not predictable, each special effect,
and spending one experience die.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from affray.core.engine import Action, ActionSpec
from affray.core.fields import maybe_text, text, texts
from affray.rulesets.warp.actions import ATTACK, WEAPON
from affray.rulesets.warp.attack import in_range, reach, usable_weapons
from affray.rulesets.warp.gang import engaged, gang_choice_needed
from affray.rulesets.warp.mechanics import PACES
from affray.rulesets.warp.resolution import defense_options, lock_matters
from affray.rulesets.warp.rolls import candidates, fighting_capacity
from affray.rulesets.warp.state import Arm, Decision, Fighter, WarpState
from affray.rulesets.warp.turn_actions import COVER_ORDER

MAX_COMBINATIONS = 6
_ATTACK_FREE = ATTACK.free  # maneuver, experience, claim, move


def fresh_maneuver(state: WarpState, f: Fighter, target: str, mode: str) -> str:
    """A maneuver that draws no predictable-attack penalty: 'attack' unless it would repeat (WR-B11)."""

    def fresh(mid: str) -> bool:
        m = state.maneuvers[mid]
        return (
            m.special == "none"
            and not m.predictable
            and (m.melee if mode == "melee" else m.ranged)
            and f.last_attack != (state.round - 1, target, mid)
        )

    last = f.last_attack
    if last is None or last[2] != "attack" or last[1] != target or last[0] != state.round - 1:
        return "attack"
    return next((mid for mid in state.maneuvers if fresh(mid)), "attack")


def _specials(state: WarpState) -> list[str]:
    """One melee maneuver per kind of special effect (WR-30)."""
    seen: dict[str, str] = {}
    for mid, m in state.maneuvers.items():
        if m.special != "none" and m.melee and m.special not in seen:
            seen[m.special] = mid
    return list(seen.values())


def _attack(target: str, weapon: str, mode: str, trait: str | None, maneuver: str) -> Action:
    """An attack as the listing offers it: every choice made, the weapon included (:data:`.actions.WEAPON`)."""
    return {"type": "attack", "target": target, WEAPON.name: weapon, "mode": mode, "trait": trait, "maneuver": maneuver}


def _attack_plan(state: WarpState, f: Fighter) -> Iterator[tuple[Action, Fighter, Arm, bool]]:
    """Every target in range x weapon x way of using it x suitable trait, with a fresh maneuver; each
    special effect and one spent experience die with the weapon in hand. Yields each attack with its target,
    weapon and whether it is one of those extras (for its label), in listing order."""
    specials = _specials(state)
    weapons = usable_weapons(f)
    traits_of: dict[tuple[str, str], list[str | None]] = {}
    for t in state.foes(f):
        distance = abs(f.position - t.position)
        for wid in weapons:
            arm = f.arms[wid]
            for mode in ("melee", "ranged"):
                if (arm.melee if mode == "melee" else arm.ranged) is None or not in_range(state, arm, mode, distance):
                    continue
                traits = traits_of.get((wid, mode)) or traits_of.setdefault(
                    (wid, mode), [tr.id for tr in candidates(f, mode, "attack", wid)] or [None]
                )
                man = fresh_maneuver(state, f, t.id, mode)
                for tid in traits:
                    yield _attack(t.id, wid, mode, tid, man), t, arm, False
                if wid != f.wielding:
                    continue
                extra = [(mid, 0) for mid in specials] if mode == "melee" else []
                if f.experience > 0:
                    extra.append((man, 1))
                for mid, spend in extra:
                    action = _attack(t.id, wid, mode, traits[0], mid)
                    if spend:
                        action["experience"] = spend
                    yield action, t, arm, True


def attack_actions(state: WarpState, f: Fighter) -> list[Action]:
    """The attacks :func:`turn_specs` lists for ``f``, in its order, as bare actions (no labels: the policies'
    question, :meth:`WarpChoices.attacks`)."""
    return [action for action, _, _, _ in _attack_plan(state, f)]


def attack_key(state: WarpState, f: Fighter) -> tuple[object, ...]:
    """Everything :func:`attack_actions` reads that a fight can change (the rest, the sheets, weapons, maneuvers
    and options, is fixed for a match): which foe ``f``'s plain attack of last round was on (the fresh maneuver,
    WR-B11), where ``f`` and its foes stand, what it carries and wields, whether it has experience left and its
    trait locks (WR-09)."""
    last = f.last_attack
    repeat = last[1] if last is not None and last[2] == "attack" and last[0] == state.round - 1 else None
    return (
        repeat,
        f.position,
        tuple((t.id, t.position) for t in state.foes(f)),
        tuple(f.carried.items()),
        f.wielding,
        f.experience > 0,
        tuple(f.locks.items()) if f.locks else (),
    )


def _free(attack: Action) -> tuple[str, ...]:
    """The free fields an attack spec names: those of the attack's type it carries (:data:`.actions.ATTACK`), a
    maneuver always, Experience Pool dice when it spends some."""
    return tuple(name for name in _ATTACK_FREE if name in attack)


def _attack_specs(state: WarpState, f: Fighter) -> list[ActionSpec]:
    specs: list[ActionSpec] = []
    for action, t, arm, extra in _attack_plan(state, f):
        if not extra:
            tid = maybe_text(action, "trait")
            name = f.traits[tid].name if tid is not None else "2 dice"
            specs.append(
                ActionSpec(
                    action, f"{action['mode']} attack on {t.name} with the {arm.name} ({name})", (), _free(action)
                )
            )
            continue
        spend = action.get("experience", 0)
        specs.append(
            ActionSpec(
                action,
                f"{state.maneuvers[text(action, 'maneuver')].name} on {t.name}"
                + (", spending an experience die" if spend else ""),
                (),
                _free(action),
            )
        )
    return specs


def _move_specs(state: WarpState, f: Fighter) -> list[ActionSpec]:
    if f.held_by:
        return []
    foes = state.foes(f)
    if not foes:
        return []
    near = min(foes, key=lambda g: (abs(g.position - f.position), g.id))
    allowed = [p for p, m in PACES.items() if m <= PACES[state.options.max_pace]]
    specs = []
    gap = abs(near.position - f.position) - reach(state) / 2
    if gap > 0:
        enough = next((p for p in allowed if PACES[p] >= gap), allowed[-1])
        for pace in dict.fromkeys([enough, allowed[-1]]):
            specs.append(
                ActionSpec(
                    {"type": "move", "pace": pace, "toward": near.id}, f"{pace} toward {near.name}", free=("pace",)
                )
            )
    specs.append(
        ActionSpec(
            {"type": "move", "pace": allowed[-1], "away": near.id},
            f"{allowed[-1]} away from {near.name}",
            free=("pace",),
        )
    )
    return specs


def turn_specs(state: WarpState, f: Fighter, phase: str) -> list[ActionSpec]:
    """What ``f`` may do with its turn (or its held action)."""
    specs = _attack_specs(state, f) + _move_specs(state, f)
    if phase == "turn":
        specs.append(
            ActionSpec(
                {"type": "wait"} if f.holding else {"type": "hold"},
                "keep waiting" if f.holding else "hold the action to interrupt later",  # WR-06
            )
        )
    if COVER_ORDER.index(f.cover_nearby) > COVER_ORDER.index(f.cover):
        specs.append(ActionSpec({"type": "take_cover"}, f"take cover ({f.cover_nearby})"))
    if state.options.desperate_defense:
        specs.append(ActionSpec({"type": "desperate_defense"}, "desperate defense"))  # WR-32
    foes = state.foes(f)
    if state.options.intimidation and foes:
        t = min(foes, key=lambda g: (abs(g.position - f.position), g.id))
        specs.append(ActionSpec({"type": "intimidate", "target": t.id}, f"intimidate {t.name}"))
    if f.held_by:
        specs.append(ActionSpec({"type": "break_free"}, "break free of the hold"))
    for wid, at in state.ground:
        if wid in f.arms and abs(at - f.position) <= reach(state):
            specs.append(ActionSpec({"type": "pick_up", "weapon": wid}, f"pick up the {f.arms[wid].name}"))
    label = "let the held action go" if f.holding and phase != "turn" else "do something else"
    specs.append(ActionSpec({"type": "pass"}, label))
    return specs


def _counts(have: int) -> list[int]:
    return [0, 1] if have > 0 else [0]


def _defend_plan(state: WarpState) -> Iterator[Action]:
    """The defenses on offer against the pending attack: the best few traits (one unless a non-combat trait's
    lock matters, WR-09), not dodging a missile when that saves the trait, no or one experience die (WR-04),
    and, outnumbered, whom to defend against normally (WR-31)."""
    a = state.attack
    assert a is not None
    t = state.fighters[a.target]
    matters = lock_matters(state, a)
    traits = [tr.id if tr is not None else None for tr in defense_options(state, a)][: 3 if matters else 1]
    dodges = [True, False] if a.mode == "ranged" and matters else [True]
    normals: list[list[str] | None] = [None]
    if gang_choice_needed(state, a):
        close = engaged(state, t)
        need = min(fighting_capacity(t), len(close))
        normals = [list(c) for c in itertools.islice(itertools.combinations(close, need), MAX_COMBINATIONS)]
    for tid, dodge, spend, normal in itertools.product(traits, dodges, _counts(t.experience), normals):
        action: Action = {"type": "defend", "trait": tid, "dodge": dodge, "experience": spend}
        if normal is not None:
            action["normal"] = [*normal]
        yield action


def defense_actions(state: WarpState) -> list[Action]:
    """The defenses :func:`decision_specs` lists, in its order, as bare actions (:meth:`WarpChoices.defenses`)."""
    return list(_defend_plan(state))


def _defend_specs(state: WarpState, d: Decision) -> list[ActionSpec]:
    a = state.attack
    assert a is not None
    free = ("experience",) if state.fighters[a.target].experience > 0 else ()
    specs = []
    for action in _defend_plan(state):
        tid, spend = action["trait"], action["experience"]
        normal = texts(action, "normal") if "normal" in action else []
        label = f"defend with {tid or '2 dice'}" + (f", spending {spend} experience" if spend else "")
        specs.append(
            ActionSpec(
                action,
                label
                + ("" if action["dodge"] else ", not dodging")
                + (f", facing {', '.join(normal)}" if normal else ""),
                free=free,
            )
        )
    return specs


def _ruling_specs(state: WarpState) -> list[ActionSpec]:
    a = state.attack
    assert a is not None
    specs = [
        ActionSpec({"type": "rule"}, "as declared"),
        ActionSpec({"type": "rule", "bonus": 1}, "grant a bonus die"),
        ActionSpec({"type": "rule", "penalty": 1}, "impose a penalty die"),
    ]
    if state.fighters[a.attacker].pc:
        specs.append(ActionSpec({"type": "rule", "predictable": True}, "predictable attack: a penalty die"))
    if a.special != "none":
        specs += [
            ActionSpec({"type": "rule", "margin": m}, f"the effect needs a margin of {m}", free=("margin",))
            for m in (2, 4, 6)
        ]
    if a.mode == "ranged":
        specs += [ActionSpec({"type": "rule", "cover": c}, f"cover: {c}") for c in COVER_ORDER if c != a.cover]
    return specs


def decision_specs(state: WarpState, d: Decision) -> list[ActionSpec]:
    kind = d.kind
    if kind == "defend":
        return _defend_specs(state, d)
    if kind == "ruling":
        return _ruling_specs(state)
    if kind == "initiative" or kind == "gestalt_roll":
        f = state.fighters[d.actor]
        return [
            ActionSpec(
                {"type": kind, "experience": n},
                f"roll, spending {n} experience dice",
                free=("experience",) if f.experience > 0 else (),
            )
            for n in range(min(f.experience, 2) + 1)
        ]
    if kind == "plea":
        return [
            ActionSpec({"type": "plea", "reason": "someone still needs me"}, "give a reason to live", free=("reason",)),
            ActionSpec({"type": "let_go"}, "let go"),
        ]
    if kind == "verdict":
        return [
            ActionSpec({"type": "verdict", "lives": True}, "accept the reason"),
            ActionSpec({"type": "verdict", "lives": False}, "refuse it"),
            ActionSpec({"type": "verdict", "roll": True}, "roll for it"),
        ]
    if kind == "serious":
        return [
            ActionSpec({"type": "serious", "wound": w}, f"serious wound: {w}") for w in ("mis_heal", "fatal", "none")
        ]
    return [
        ActionSpec({"type": "gestalt_verdict", "overturn": False}, "the totals stand"),
        ActionSpec({"type": "gestalt_verdict", "overturn": True}, "overturn the close result"),
    ]
