"""The blows, spells and support actions of a turn's listing, with their warnings (SC-28).

Attacks and full attacks on each foe in reach (SC-15, SC-B1), spells on each target in range (SC-06, SC-07,
ruling SC-R8), first aid on the dying within reach (SC-06), drawing a weapon, giving up (SC-02) and ending the turn.
An attack or a cast that would give a foe an attack of opportunity (SC-27 (c)..(e)) carries a note naming the foes,
with the warning code ``provokes`` (:data:`PROVOKES`) that clients decide on.
Specs and warnings repeat from decision to decision, so the match's memo keeps them
(read-only, like every listing); :mod:`.legal` lists the movement and puts the parts together.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from affray.core.actions import WarningCode
from affray.core.engine import Action, ActionSpec
from affray.core.grid import Pos
from affray.core.memo import Cache, Memo
from affray.rulesets.spellchrome.combat import attack_provokers, cast_provokers, line_clear
from affray.rulesets.spellchrome.mechanics import blows_in_full_attack, range_penalty, withdraw_distance
from affray.rulesets.spellchrome.movement import threateners
from affray.rulesets.spellchrome.state import CLOSE_KINDS, Arm, Combatant, SpellchromeState, Turn

# Specs (and warnings) kept per kind of listing before the cache starts again (Memo.cache): many when a simulation's
# matches share the memo's static store, fewer when one live match owns it (a table server holds hundreds).
SPECS_LIMIT = 50_000
SPECS_OWN = 4_000
WARNINGS_KEY = "spellchrome.warnings"  # the match's warnings (provoke_note), in its memo
#: The warning codes of a spec whose first note is :func:`provoke_note`'s (or the cast's) warning (SC-28).
PROVOKES: tuple[WarningCode, ...] = ("provokes",)


def spec(
    action: Action,
    label: str,
    notes: tuple[str, ...] = (),
    free: tuple[str, ...] = (),
    warnings: tuple[WarningCode, ...] = (),
) -> ActionSpec:
    """An :class:`ActionSpec`; ``free`` names the fields a client may change (``step`` checks what comes back);
    ``warnings`` are the codes of the first notes (:attr:`ActionSpec.warnings`)."""
    return ActionSpec(action, label, notes, free, warnings)


def provoke_note(state: SpellchromeState, c: Combatant, foes: Sequence[Combatant]) -> tuple[str, ...]:
    """The warning that ``foes`` get an attack of opportunity (its code: :data:`PROVOKES`), then the alternative
    (SC-28); nothing when there are none."""
    if not foes:
        return ()
    names = ", ".join(f.name for f in foes)
    safe = f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step does not provoke"
    return (f"provokes an attack of opportunity from {names}", safe)


def _reaches(state: SpellchromeState, a: Pos, b: Pos, d: int, arm: Arm) -> bool:
    """:func:`~affray.rulesets.spellchrome.combat.reach_problem` is ``None`` for a blow from ``a`` at ``b``, ``d``
    squares away: adjacent for a close weapon, within ten range increments and a clear line for a ranged one (SC-B1,
    ruling SC-R10)."""
    if arm.kind in CLOSE_KINDS:
        return d == 1
    if range_penalty(d, arm.range_sq) is None:
        return False
    return line_clear(state.grid, a, b)


_MAY_PROVOKE = frozenset({"unarmed", "ranged"})


def specs_cache(memo: Memo, key: str) -> Cache[Hashable, ActionSpec]:
    """The match's cache of specs under ``key`` (:meth:`Memo.cache`)."""
    found: Cache[Hashable, ActionSpec] = memo.cache(key, SPECS_LIMIT, SPECS_OWN)
    return found


def _warning(
    warnings: Cache[Hashable, tuple[str, ...]], state: SpellchromeState, c: Combatant, foes: list[Combatant]
) -> tuple[str, ...]:
    """:func:`provoke_note`, kept in the match's memo (names and speeds do not change in a fight)."""
    key = (c.id, c.speed_ft, foes[0].id if len(foes) == 1 else tuple([f.id for f in foes]))  # mostly one foe
    found = warnings.get(key)
    return warnings.keep(key, provoke_note(state, c, foes)) if found is None else found


def _blow(
    specs: Cache[Hashable, ActionSpec],
    kind: str,
    t: Combatant,
    arm: Arm,
    notes: tuple[str, ...],
    warnings: tuple[WarningCode, ...],
) -> ActionSpec:
    """The attack or full attack on ``t`` with ``arm`` under ``notes`` and the codes of its warnings: the same spec
    each time (names and weapons do not change in a fight), kept in the match's memo; read-only like every listing."""
    key = (kind, t.id, arm.id, notes, warnings)
    found = specs.get(key)
    if found is None:
        if kind == "attack":
            found = spec(
                {"type": "attack", "target": t.id, "weapon": arm.id},
                f"attack {t.name} with {arm.name}",
                notes,
                (),
                warnings,
            )
        else:
            found = spec(
                {"type": "full_attack", "target": t.id}, f"full attack on {t.name} (full-round)", notes, (), warnings
            )
        specs.keep(key, found)
    return found


Blows = tuple[list[ActionSpec], list[ActionSpec], list[ActionSpec]]
NO_BLOWS: Blows = ([], [], [])  # read-only, like every listing


def blows_by_kind(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> Blows:
    """The blows on offer: an attack on each foe in reach with the weapon in hand and unarmed, and a full attack with
    the weapon in hand when the turn allows one and there are iterative attacks (SC-15, SC-B1), with their warnings
    (SC-28); and the same blows by kind, the attacks and the full attacks, each in listing order (a policy asks for
    one kind at a time)."""
    if not turn.standard_left:
        return NO_BLOWS
    full_ok = (turn.move_left or turn.move_used_for == "step") and not turn.moved
    full_ok = full_ok and blows_in_full_attack(c.base_attack) > 1
    specs: list[ActionSpec] = []
    attacks: list[ActionSpec] = []
    fulls: list[ActionSpec] = []
    wielding = c.wielding
    arms = (c.arms[wielding],) if wielding == "unarmed" else (c.arms[wielding], c.arms["unarmed"])
    close = arms[0].kind in CLOSE_KINDS
    # who threatens the attacker's square: the same for every ranged shot from here (SC-27 (d)); a shooter with the
    # Guarded Ranged Attack feat never asks (ruling SC-R6)
    threats = threateners(state, c, c.pos) if arms[0].kind == "ranged" and "ranged" not in c.guards else None
    blows: Cache[Hashable, ActionSpec] | None = None  # the match's specs, fetched once a blow is found
    here, side = c.pos, c.side
    hx, hy = here
    for t in state.combatants.values():
        if t.side == side or t.surrendered or t.out:
            continue
        there = t.pos
        dx, dy = hx - there[0], hy - there[1]
        dx, dy = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
        d = dx if dx > dy else dy  # the grid distance, inline (no max, no abs): every turn asks
        if d > 1 and close:
            continue  # nothing reaches: the weapon in hand and unarmed are both close
        able = t.able
        if not able and t.hp_state == "dead":  # one who is able is not dead: most foes need one question
            continue
        if blows is None:
            blows = specs_cache(memo, "spellchrome.blows")
        helpless = () if able else (f"{t.name} is helpless ({t.status})",)
        for arm in arms:
            kind = arm.kind
            if not (d == 1 if kind in CLOSE_KINDS else _reaches(state, here, there, d, arm)):
                continue
            # only unarmed and ranged attacks may provoke (SC-27 (c), (d))
            trigger, foes = attack_provokers(state, c, arm, t, threats) if kind in _MAY_PROVOKE else ("", [])
            notes = _warning(memo.cache(WARNINGS_KEY, SPECS_LIMIT, SPECS_OWN), state, c, foes) if trigger else ()
            codes = PROVOKES if notes else ()  # the warning heads the notes (ActionSpec.warnings)
            if helpless:
                notes = (*notes, *helpless)
            # the match's spec of this blow (_blow), found without a call when it is there: nearly always
            one = blows.get(("attack", t.id, arm.id, notes, codes)) or _blow(blows, "attack", t, arm, notes, codes)
            specs.append(one)
            attacks.append(one)
            if full_ok and arm.id == wielding:
                full = blows.get(("full_attack", t.id, arm.id, notes, codes)) or _blow(
                    blows, "full_attack", t, arm, notes, codes
                )
                specs.append(full)
                fulls.append(full)
    return specs, attacks, fulls


def spell_actions(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> list[ActionSpec]:
    """Each castable spell on each target in range (SC-06, SC-07, ruling SC-R8), with the warning of casting in
    melee (SC-27 (e), SC-28); the specs are kept in the match's memo like the blows."""
    if not turn.standard_left or not c.spells:
        return []
    casts: Cache[Hashable, ActionSpec] = specs_cache(memo, "spellchrome.blows")
    specs: list[ActionSpec] = []
    notes: tuple[str, ...] | None = None  # the warning of casting here, found for the first castable spell
    for spell in c.spells.values():
        if spell.casting != "standard" or spell.uses <= 0:
            continue
        if notes is None:
            risk = cast_provokers(state, c)
            notes = (
                ()
                if not risk
                else (
                    f"casting in melee: Concentration DC 15, or it provokes an attack of opportunity from "
                    f"{', '.join(f.name for f in risk)}",
                    f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step first",
                )
            )
        for t in state.combatants.values():
            if t.out or t.hp_state == "dead":
                continue
            if spell.effect == "steal_life" and (t.side == c.side or t.surrendered):
                continue
            if spell.effect == "heal" and (t.side != c.side or t.hp >= t.max_hp):
                continue
            dist = max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1]))
            if (spell.range_squares == 0 and t is not c) or dist > spell.range_squares:
                continue
            key = ("cast", spell.id, t.id, notes)  # the notes are the warning's or none: they say its code
            found = casts.get(key)
            if found is None:
                found = casts.keep(
                    key,
                    spec(
                        {"type": "cast", "spell": spell.id, "target": t.id},
                        f"cast {spell.name} on {t.name}",
                        notes,
                        (),
                        PROVOKES if notes else (),
                    ),
                )
            specs.append(found)
    return specs


def first_aid_actions(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    """First aid on the dying within reach (SC-06): a standard action."""
    specs = []
    if turn.standard_left:
        for t in state.combatants.values():
            # only the dying (below 0 HP, SC-04) within reach
            if t.hp < 0 and max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1])) <= 1 and t.status == "dying":
                specs.append(spec({"type": "first_aid", "target": t.id}, f"first aid on {t.name} (Heal DC 15)"))
    return specs


def support_actions(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> list[ActionSpec]:
    """Drawing another weapon, giving up (NPCs, SC-02) and ending the turn: the same specs for the whole match (its
    memo keeps them)."""
    draws, rest = _support(state, c, memo)
    return draws + rest if turn.move_left or turn.standard_left else rest


def end_of_turn(state: SpellchromeState, c: Combatant, memo: Memo) -> ActionSpec:
    """The end of the turn: the last of :func:`support_actions`, whatever is left of the turn, after the fight too."""
    return _support(state, c, memo)[1][-1]


def _support(state: SpellchromeState, c: Combatant, memo: Memo) -> tuple[list[ActionSpec], list[ActionSpec]]:
    """:func:`_fixed_support` of ``c`` holding what it holds, from the match's memo."""
    return memo.static(("spellchrome.support", c.id, c.wielding), _fixed_support, state, c)


def _fixed_support(state: SpellchromeState, c: Combatant) -> tuple[list[ActionSpec], list[ActionSpec]]:
    """The draws of ``c`` holding what it holds, and giving up and the end of the turn: fixed for the match."""
    draws = [
        spec({"type": "draw", "weapon": wid}, f"take up {arm.name} (move action)")
        for wid, arm in c.arms.items()
        if wid != c.wielding
    ]
    rest = (
        [spec({"type": "give_up"}, "give up the fight")]  # SC-02
        if (c.kind != "character" and state.options.npcs_may_give_up)
        else []
    )
    return draws, [*rest, spec({"type": "end_turn"}, "end the turn")]
