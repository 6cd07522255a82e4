"""The legal-action list, with warnings on every choice that provokes (SC-28).

SC-28: "warn the player before an action provokes, and offer withdraw as the alternative". Each move,
run, attack or cast that would give a foe an attack of opportunity carries a note naming the foes, and
the withdraw and 5-foot-step actions are listed beside it. Moves are listed to every legal end square
(with the path the engine would take: one that provokes nobody if there is one); runs along the eight
compass lines. Any other square on a legal path may still be submitted with an explicit ``path``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affray.core.engine import ActionSpec
from affray.core.grid import DIRECTIONS, Pos, open_squares
from affray.core.memo import Memo
from affray.rulesets.spellchrome.combat import attack_provokers, cast_provokers, reach_problem
from affray.rulesets.spellchrome.health import after_the_fight
from affray.rulesets.spellchrome.mechanics import iterative_bonuses, squares, withdraw_distance
from affray.rulesets.spellchrome.movement import (
    Threats,
    can_punish,
    end_squares,
    opponent_squares,
    taken_squares,
    threat_map,
    whole_of,
)
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState, Turn
from affray.rulesets.spellchrome.turns import step_available

COMPASS = dict(zip(("nw", "n", "ne", "w", "e", "sw", "s", "se"), DIRECTIONS, strict=True))
NEVER_PROVOKES = ("never provokes (SC-21)",)
_LABELS = {"move": "move to", "withdraw": "withdraw to", "tumble": "tumble to", "step": "5-foot step to"}
#: The fields of a listed move-like action a client may change (issue 11): any other square, and a path of its own
#: (the listing leaves the path to the engine, so it is absent from the action); a 5-foot step takes no path.
MOVE_FREE = ("to", "path")
STEP_FREE = ("to",)
SpecKey = tuple[str, Pos, str, tuple[str, ...]]
MOVES_KEY = "spellchrome.moves"  # the match's move listings, in its memo
_SPECS_LIMIT = 50_000


def spec(action: dict[str, Any], label: str, notes: tuple[str, ...] = (), free: tuple[str, ...] = ()) -> ActionSpec:
    """An :class:`ActionSpec`; ``free`` names the fields a client may change (``step`` checks what comes back)."""
    return ActionSpec(action, label, notes, free)


def provoke_note(state: SpellchromeState, c: Combatant, foes: Sequence[Combatant]) -> tuple[str, ...]:
    if not foes:
        return ()
    names = ", ".join(f.name for f in foes)
    safe = f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step does not provoke"
    return (f"provokes an attack of opportunity from {names}", safe)


def path_provokers(threats: Threats, c: Combatant, path: list[Pos]) -> list[Combatant]:
    """Foes whose attack of opportunity this path would give (SC-27 (a)/(b)), once each (SC-R9);
    ``threats`` is :func:`threat_map` for the mover."""
    seen: dict[str, Combatant] = {}
    for here in [c.pos, *path[:-1]]:
        for f in threats.get(here, ()):
            seen.setdefault(f.id, f)
    return list(seen.values())


def _move_spec(specs: dict[SpecKey, ActionSpec], kind: str, to: Pos, suffix: str, notes: tuple[str, ...]
               ) -> ActionSpec:
    """The spec of a move-like action to ``to``: ``kind`` is move, withdraw, step, tumble (a move with
    ``tumble: true``) or run (``suffix`` is then its compass point; otherwise the label's tail). Specs repeat
    from call to call (same square, same label, same warnings), so each match keeps them in ``specs`` (its
    memo's); like every legal list they are read-only."""
    key = (kind, to, suffix, notes)
    found = specs.get(key)
    if found is None:
        if len(specs) >= _SPECS_LIMIT:
            specs.clear()
        where = f"[{to[0]}, {to[1]}]"
        action: dict[str, Any] = {"type": "move" if kind == "tumble" else kind, "to": list(to)}
        if kind == "run":
            label = f"run {suffix} to {where}"
        elif kind == "tumble":
            action["tumble"] = True
            label = f"tumble to {where}{suffix}"
        else:
            label = f"{_LABELS[kind]} {where}{suffix}"
        found = specs[key] = spec(action, label, notes, STEP_FREE if kind == "step" else MOVE_FREE)
    return found


class _Board:
    """What the move listings of one ``legal()`` call share: the threat map, the squares no move may end
    on, and the warning per set of provokers (SC-28)."""

    def __init__(self, state: SpellchromeState, c: Combatant, specs: dict[SpecKey, ActionSpec]) -> None:
        self.state, self.c, self.specs = state, c, specs
        self.threats = threat_map(state, c)
        self.taken = taken_squares(state, c)
        self._notes: dict[tuple[str, ...], tuple[str, ...]] = {}

    def notes(self, foes: tuple[Combatant, ...]) -> tuple[str, ...]:
        key = tuple(f.id for f in foes)
        out = self._notes.get(key)
        if out is None:
            out = self._notes[key] = provoke_note(self.state, self.c, foes)
        return out


def _listing(specs: dict[SpecKey, ActionSpec], kind: str, ends: list[Pos], suffix: str, usual: tuple[str, ...],
             odd: dict[Pos, tuple[str, ...]]) -> list[ActionSpec]:
    """Specs of ``kind`` to ``ends``: warnings ``usual``, or ``odd``'s for the squares it names."""
    get = specs.get
    out = []
    for to in ends:
        notes = odd.get(to, usual) if odd else usual
        out.append(get((kind, to, suffix, notes)) or _move_spec(specs, kind, to, suffix, notes))
    return out


def _moves(state: SpellchromeState, c: Combatant, turn: Turn, board: _Board) -> list[ActionSpec]:
    if turn.stepped or not (turn.move_left or turn.standard_left):
        return []
    threats, notes = board.threats, board.notes
    second = "" if turn.move_left else " (standard action as a second move)"
    ends, at_start, odd = end_squares(state, c, "move", threats)
    specs = _listing(board.specs, "move", ends, second, notes(at_start), {p: notes(f) for p, f in odd.items()})
    specs += _listing(board.specs, "withdraw", end_squares(state, c, "withdraw", threats)[0], second, (), {})
    if "tumble" in c.skills:
        dc = f"tumbles through an opponent: Acrobatics and Tumbling DC {state.options.tumble_dc}"
        plain = set(ends)
        rolls, at_start, odd = end_squares(state, c, "move", threats, tumble=True)
        specs += _listing(board.specs, "tumble", [p for p in rolls if p not in plain], second, (dc, *notes(at_start)),
                          {p: (dc, *notes(f)) for p, f in odd.items()})
    return specs


def _runs(state: SpellchromeState, c: Combatant, turn: Turn, board: _Board) -> list[ActionSpec]:
    if not state.options.running or not (turn.move_left and turn.standard_left) or turn.moved or turn.stepped:
        return []
    specs = []
    sure = 2 * squares(c.speed_ft)
    whole = whole_of(c, "run")
    blocked = opponent_squares(state, c)
    terrain = open_squares(state.grid)
    for name, (dx, dy) in COMPASS.items():
        # along a compass line the only fairly straight path is the line itself (SC-18, ruling SC-R2)
        path: list[Pos] = []
        best = 0
        spent = 0
        x, y = c.pos
        while True:
            x, y = x + dx, y + dy
            cost = terrain.get((x, y))
            if cost is None or (x, y) in blocked or spent + (cost or whole) > sure:
                break
            spent += cost or whole  # 0 is a '%' square: one of the run's two move actions (SC-20)
            path.append((x, y))
            if (x, y) not in board.taken:  # open ground (in terrain) nobody able stands on: end_ok
                best = len(path)
        if best:
            notes = provoke_note(state, c, path_provokers(board.threats, c, path[:best]))
            specs.append(_move_spec(board.specs, "run", path[best - 1], name, notes))
    return specs


def _steps(state: SpellchromeState, c: Combatant, turn: Turn, board: _Board) -> list[ActionSpec]:
    if not step_available(state, turn):
        return []
    terrain = open_squares(state.grid)
    specs = []
    for dx, dy in DIRECTIONS:
        to = (c.pos[0] + dx, c.pos[1] + dy)
        if terrain.get(to) == 1 and to not in board.taken:  # open, not difficult (SC-R11), free (SC-24)
            specs.append(_move_spec(board.specs, "step", to, "", NEVER_PROVOKES))
    return specs


def _attacks(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not turn.standard_left:
        return []
    full_ok = (turn.move_left or turn.move_used_for == "step") and not turn.moved
    specs = []
    for t in state.foes_of(c):
        if t.hp_state == "dead" or t.surrendered:
            continue
        for wid in dict.fromkeys([c.wielding, "unarmed"]):
            arm = c.arms[wid]
            if reach_problem(state, c, arm, t) is not None:
                continue
            trigger, foes = attack_provokers(state, c, arm, t)
            notes = provoke_note(state, c, foes) if trigger else ()
            helpless = (f"{t.name} is helpless ({t.status})",) if t.helpless else ()
            action = {"type": "attack", "target": t.id, "weapon": wid}
            specs.append(spec(action, f"attack {t.name} with {arm.name}", notes + helpless))
            if full_ok and wid == c.wielding and len(iterative_bonuses(c.base_attack)) > 1:
                specs.append(spec({"type": "full_attack", "target": t.id},
                                        f"full attack on {t.name} (full-round)", notes + helpless))
    return specs


def _spells(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    if not turn.standard_left:
        return []
    specs = []
    risk = cast_provokers(state, c)
    notes = () if not risk else (
        f"casting in melee: Concentration DC 15, or it provokes an attack of opportunity from "
        f"{', '.join(f.name for f in risk)}", f"withdraw ({withdraw_distance(c.speed_ft)} ft) or a 5-foot step first")
    for spell in c.spells.values():
        if spell.casting != "standard" or spell.uses <= 0:
            continue
        for t in state.combatants.values():
            if t.hp_state == "dead":
                continue
            if spell.effect == "steal_life" and (t.side == c.side or t.surrendered):
                continue
            if spell.effect == "heal" and (t.side != c.side or t.hp >= t.max_hp):
                continue
            dist = max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1]))
            if (spell.range_squares == 0 and t is not c) or dist > spell.range_squares:
                continue
            specs.append(spec({"type": "cast", "spell": spell.id, "target": t.id},
                                    f"cast {spell.name} on {t.name}", notes))
    return specs


def _support(state: SpellchromeState, c: Combatant, turn: Turn) -> list[ActionSpec]:
    specs = []
    if turn.standard_left:
        for t in state.combatants.values():
            if t.status == "dying" and max(abs(t.pos[0] - c.pos[0]), abs(t.pos[1] - c.pos[1])) <= 1:
                specs.append(spec({"type": "first_aid", "target": t.id},
                                        f"first aid on {t.name} (Heal DC 15)"))
    if turn.move_left or turn.standard_left:
        for wid, arm in c.arms.items():
            if wid != c.wielding:
                specs.append(spec({"type": "draw", "weapon": wid}, f"take up {arm.name} (move action)"))
    if c.kind != "character" and state.options.npcs_may_give_up:
        specs.append(spec({"type": "give_up"}, "give up the fight (SC-02)"))
    specs.append(spec({"type": "end_turn"}, "end the turn"))
    return specs


def _movement(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> list[ActionSpec]:
    """The 5-foot steps, moves and runs, kept for the match (in its memo) under everything they read: the mover's
    square and speed, what its turn has used, the turn order (the order of warnings), and each other combatant's
    square, whether it is able (it blocks, SC-24) and whether it threatens and may still punish (SC-26, SC-27).
    Fighters in melee stand still for rounds, so the same listing comes back again and again."""
    others = tuple((o.pos, o.able, o.melee_armed and can_punish(state, o))
                   for o in state.combatants.values() if o is not c)
    key = (c.id, c.pos, c.speed_ft, turn.move_left, turn.standard_left, turn.stepped, turn.moved, turn.move_used_for,
           tuple(state.order), others)
    listings: dict[Any, list[ActionSpec]] = memo.static(MOVES_KEY, dict)
    specs = listings.get(key)
    if specs is None:
        if len(listings) >= _SPECS_LIMIT // 10:
            listings.clear()
        board = _Board(state, c, memo.static("spellchrome.specs", dict))
        specs = listings[key] = _steps(state, c, turn, board) + _moves(state, c, turn, board) + _runs(state, c, turn,
                                                                                                      board)
    return specs


def turn_actions(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo | None = None) -> list[ActionSpec]:
    """Everything ``c`` may do now on its turn; ``memo`` is the match's (``None``: build fresh). The order is part of
    the contract the heuristic policy reads cheaply: attacks and spells, then steps, moves and runs, then first
    aid, draws, giving up and the end of the turn."""
    memo = memo if memo is not None else Memo()
    if after_the_fight(state):  # no more blows: healing, first aid, moves and the end of the turn (SC-04)
        spells = [s for s in _spells(state, c, turn) if c.spells[s.action["spell"]].effect == "heal"]
        support = [s for s in _support(state, c, turn) if s.action["type"] != "give_up"]
        return spells + _movement(state, c, turn, memo) + support
    return (_attacks(state, c, turn) + _spells(state, c, turn) + _movement(state, c, turn, memo)
            + _support(state, c, turn))


def opportunity_actions(state: SpellchromeState, foe: Combatant) -> list[ActionSpec]:
    opp = state.opportunity
    assert opp is not None
    who = state.combatants[opp.provoker].name
    return [spec({"type": "attack_of_opportunity"}, f"attack {who} ({opp.trigger})",
                 ("uses this round's one attack of opportunity (SC-26)",)),
            spec({"type": "decline"}, f"let {who} go")]
