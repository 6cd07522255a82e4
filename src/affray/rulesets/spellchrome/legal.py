"""The legal-action list, with warnings on every choice that provokes (SC-28).

SC-28: "warn the player before an action provokes, and offer withdraw as the alternative". Each move,
run, attack or cast that would give a foe an attack of opportunity carries a note naming the foes, with the warning
code ``provokes`` (a tumble's check first, code ``check``), and the withdraw and 5-foot-step actions are listed beside
it. Moves are listed to every legal end square (with the path the engine would take: one that provokes nobody if
there is one); runs along the eight compass lines. Any other square on a legal path may still be submitted with an
explicit ``path``. The blows, spells and support actions are :mod:`.offers`'; :class:`TurnListing` puts the parts
together.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar, cast

from affray.core.actions import WarningCode
from affray.core.engine import Action, ActionSpec
from affray.core.fields import text
from affray.core.grid import DIRECTIONS, Pos, open_squares
from affray.core.memo import Cache, Memo
from affray.core.policy import Choices
from affray.rulesets.spellchrome.health import after_the_fight
from affray.rulesets.spellchrome.mechanics import squares
from affray.rulesets.spellchrome.movement import (
    Threats,
    can_punish,
    end_squares,
    in_the_way,
    opponent_squares,
    taken_squares,
    threat_map,
    whole_of,
)
from affray.rulesets.spellchrome.offers import (
    NO_BLOWS,
    PROVOKES,
    Blows,
    blows_by_kind,
    end_of_turn,
    first_aid_actions,
    provoke_note,
    spec,
    specs_cache,
    spell_actions,
    support_actions,
)
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState, Turn
from affray.rulesets.spellchrome.turns import step_available

COMPASS = dict(zip(("nw", "n", "ne", "w", "e", "sw", "s", "se"), DIRECTIONS, strict=True))
NEVER_PROVOKES = ("never provokes",)  # SC-21
TUMBLES: tuple[WarningCode, ...] = ("check",)  # a tumble's first note: its Acrobatics and Tumbling check (SC-24)
_LABELS = {"move": "move to", "withdraw": "withdraw to", "tumble": "tumble to", "step": "5-foot step to"}
#: The fields of a listed move-like action a client may change (free fields): any other square, and a path of its own
#: (the listing leaves the path to the engine, so it is absent from the action); a 5-foot step takes no path.
MOVE_FREE = ("to", "path")
STEP_FREE = ("to",)
MOVES_KEY = "spellchrome.moves"  # the match's move listings, in its memo
# Move listings kept before the cache starts again (Memo.cache): many when a simulation's matches share the memo's
# static store (the same listings come back across fights), few when one live match owns it (a table server holds
# hundreds of matches; at 5,000 a long fight could keep megabytes of listings per table, docs/performance.md).
LISTINGS_SHARED = 5_000
LISTINGS_OWN = 256
_DERIVED_LIMIT = 64
T = TypeVar("T")


def path_provokers(threats: Threats, c: Combatant, path: list[Pos]) -> list[Combatant]:
    """Foes whose attack of opportunity this path would give (SC-27 (a)/(b)), once each (SC-R9);
    ``threats`` is :func:`threat_map` for the mover."""
    seen: dict[str, Combatant] = {}
    for here in [c.pos, *path[:-1]]:
        for f in threats.get(here, ()):
            seen.setdefault(f.id, f)
    return list(seen.values())


def _move_spec(
    specs: Cache[Hashable, ActionSpec], kind: str, to: Pos, suffix: str, notes: tuple[str, ...]
) -> ActionSpec:
    """The spec of a move-like action to ``to``: ``kind`` is move, withdraw, step, tumble (a move with
    ``tumble: true``) or run (``suffix`` is then its compass point; otherwise the label's tail). Specs repeat
    from call to call (same square, same label, same warnings), so each match keeps them in ``specs`` (its
    memo's); like every legal list they are read-only. The notes say the warnings' codes: a tumble's check first,
    then :func:`provoke_note`'s warning and alternative when the move provokes (a step's note warns of nothing)."""
    key = (kind, to, suffix, notes)
    found = specs.get(key)
    if found is None:
        lead = TUMBLES if kind == "tumble" else ()
        warnings = (*lead, *PROVOKES) if kind != "step" and len(notes) > len(lead) else lead
        where = f"[{to[0]}, {to[1]}]"
        action: Action = {"type": "move" if kind == "tumble" else kind, "to": list(to)}
        if kind == "run":
            label = f"run {suffix} to {where}"
        elif kind == "tumble":
            action["tumble"] = True
            label = f"tumble to {where}{suffix}"
        else:
            label = f"{_LABELS[kind]} {where}{suffix}"
        found = specs.keep(key, spec(action, label, notes, STEP_FREE if kind == "step" else MOVE_FREE, warnings))
    return found


class _Board:
    """What the move listings of one ``legal()`` call share: the threat map, the squares no move may end
    on, and the warning per set of provokers (SC-28)."""

    def __init__(self, state: SpellchromeState, c: Combatant, specs: Cache[Hashable, ActionSpec]) -> None:
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


def _listing(
    specs: Cache[Hashable, ActionSpec],
    kind: str,
    ends: list[Pos],
    suffix: str,
    usual: tuple[str, ...],
    odd: dict[Pos, tuple[str, ...]],
) -> list[ActionSpec]:
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
        specs += _listing(
            board.specs,
            "tumble",
            [p for p in rolls if p not in plain],
            second,
            (dc, *notes(at_start)),
            {p: (dc, *notes(f)) for p, f in odd.items()},
        )
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


class Moves:
    """One movement listing (steps, moves, withdraws, tumbles, runs, in that order) and, built when first asked, the
    same specs by action type and each one's end square with whether it carries the warning ``provokes`` (SC-28).
    Kept in the match's memo (:func:`movement`) and shared: read-only."""

    __slots__ = ("_derived", "_ends", "_groups", "specs")

    def __init__(self, specs: list[ActionSpec]) -> None:
        self.specs = specs
        self._groups: dict[str, list[ActionSpec]] | None = None
        self._ends: dict[str, tuple[tuple[int, int, bool], ...]] = {}
        self._derived: dict[Hashable, object] = {}

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per ``key`` for this listing: a value computed from the listing and what ``key`` names
        only (a policy's best move toward given squares: the same listing comes back turn after turn and fight
        after fight). A few keys are kept."""
        try:
            value = cast(T, self._derived[key])  # what build() made for this key
        except KeyError:
            if len(self._derived) >= _DERIVED_LIMIT:
                self._derived.clear()
            value = self._derived[key] = build()
        return value

    def of(self, kind: str) -> list[ActionSpec]:
        """The specs whose action type is ``kind`` (a tumble is a ``move``), in listing order."""
        groups = self._groups
        if groups is None:
            groups = self._groups = {}
            for s in self.specs:
                groups.setdefault(str(s.action["type"]), []).append(s)  # the listing's own specs
        return groups.get(kind, [])

    def ends(self, kind: str) -> tuple[tuple[int, int, bool], ...]:
        """``(x, y, provokes)`` of each spec of :meth:`of` ``kind``: its ``to`` square and whether one of its
        warnings is ``provokes``, an attack of opportunity (SC-28)."""
        found = self._ends.get(kind)
        if found is None:
            ends = []
            for s in self.of(kind):
                x, y = cast(list[int], s.action["to"])  # the listing's own specs: "to" is the [x, y] it put there
                ends.append((x, y, "provokes" in s.warnings))
            found = self._ends[kind] = tuple(ends)
        return found


def movement(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> Moves:
    """The 5-foot steps, moves and runs, kept for the match (in its memo) under everything they read: the mover's
    square and speed, what its turn has used, the turn order (the order of warnings), and each other combatant's
    square, whether it is in the way (able or surrendered: it blocks, SC-24, SC-B12) and whether it threatens and may
    still punish (SC-26, SC-27).
    Fighters in melee stand still for rounds, so the same listing comes back again and again."""
    others = []
    for o in state.combatants.values():  # a plain loop, not a comprehension: every move decision asks
        if o is not c:
            others.append(
                (o.pos, o.able or (o.surrendered and in_the_way(state, o)), o.melee_armed and can_punish(state, o))
            )
    key = (
        c.id,
        c.pos,
        c.speed_ft,
        turn.move_left,
        turn.standard_left,
        turn.stepped,
        turn.moved,
        turn.move_used_for,
        tuple(state.order),
        tuple(others),
    )
    listings: Cache[Hashable, Moves] = memo.cache(MOVES_KEY, LISTINGS_SHARED, LISTINGS_OWN)
    found = listings.get(key)
    if found is None:
        board = _Board(state, c, specs_cache(memo, "spellchrome.specs"))
        found = listings.keep(
            key, Moves(_steps(state, c, turn, board) + _moves(state, c, turn, board) + _runs(state, c, turn, board))
        )
    return found


class TurnListing(Choices):
    """``c``'s turn listing in its parts, each built when first asked: blows (attacks and full attacks), spells,
    movement (:class:`Moves`), first aid and support (draws, giving up, the end of the turn). :meth:`all` is their
    concatenation, in that order; after the fight (SC-04) there are no blows, only healing spells, and no giving
    up. ``memo`` is the match's. It is the actor's :class:`~affray.core.policy.Choices` over that listing too
    (:class:`~.choices.TurnChoices` answers their questions part by part): one object per decision."""

    __slots__ = ("_aid", "_blows", "_moves", "_spells", "_support", "after", "c", "memo", "state", "turn")

    def __init__(self, state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo) -> None:
        # Choices' fields, set here rather than through super() (its listing is all(), below)
        self.actor, self._all = c.id, None
        self.state, self.c, self.turn, self.memo = state, c, turn, memo
        self.after = after_the_fight(state)
        self._blows: Blows | None = None
        self._spells: list[ActionSpec] | None = None
        self._moves: Moves | None = None
        self._aid: list[ActionSpec] | None = None
        self._support: list[ActionSpec] | None = None

    def _blows_by_kind(self) -> Blows:
        found = self._blows
        if found is None:
            found = self._blows = NO_BLOWS if self.after else blows_by_kind(self.state, self.c, self.turn, self.memo)
        return found

    def blows(self) -> list[ActionSpec]:
        return self._blows_by_kind()[0]

    def blows_of(self, kind: str) -> list[ActionSpec]:
        """The blows of type ``kind`` (attack or full_attack), in listing order."""
        if kind == "attack":
            return self._blows_by_kind()[1]
        return self._blows_by_kind()[2] if kind == "full_attack" else []

    def spells(self) -> list[ActionSpec]:
        if self._spells is None:
            spells = spell_actions(self.state, self.c, self.turn, self.memo)
            if self.after:
                spells = [s for s in spells if self.c.spells[text(s.action, "spell")].effect == "heal"]
            self._spells = spells
        return self._spells

    def moves(self) -> Moves:
        if self._moves is None:
            self._moves = movement(self.state, self.c, self.turn, self.memo)
        return self._moves

    def aid(self) -> list[ActionSpec]:
        """First aid, the head of the support part."""
        if self._aid is None:
            self._aid = first_aid_actions(self.state, self.c, self.turn)
        return self._aid

    def support(self) -> list[ActionSpec]:
        """The rest of the support part: draws, giving up, the end of the turn."""
        if self._support is None:
            support = support_actions(self.state, self.c, self.turn, self.memo)
            if self.after:
                support = [s for s in support if s.action["type"] != "give_up"]
            self._support = support
        return self._support

    def end(self) -> list[ActionSpec]:
        """The end of the turn, the support part's last spec, without the rest of it (most decisions that end a turn
        ask for nothing else)."""
        if self._support is not None:
            return self._support[-1:]
        return [end_of_turn(self.state, self.c, self.memo)]

    def all(self) -> list[ActionSpec]:
        if self._all is None:
            self._all = self.blows() + self.spells() + self.moves().specs + self.aid() + self.support()
        return self._all


def turn_actions(state: SpellchromeState, c: Combatant, turn: Turn, memo: Memo | None = None) -> list[ActionSpec]:
    """Everything ``c`` may do now on its turn; ``memo`` is the match's (``None``: build fresh). The order is part of
    the contract the policies' choices read part by part (:class:`TurnListing`): attacks and spells, then steps,
    moves and runs, then first aid, draws, giving up and the end of the turn."""
    return TurnListing(state, c, turn, memo if memo is not None else Memo()).all()


def opportunity_actions(state: SpellchromeState, foe: Combatant) -> list[ActionSpec]:
    """Take the attack of opportunity or let the provoker go (SC-26, SC-27)."""
    opp = state.opportunity
    assert opp is not None
    who = state.combatants[opp.provoker].name
    return [
        spec(
            {"type": "attack_of_opportunity"},
            f"attack {who} ({opp.trigger})",
            ("uses this round's one attack of opportunity",),  # SC-26
        ),
        spec({"type": "decline"}, f"let {who} go"),
    ]
