"""Movement on the battle grid: budgets, legal paths, occupancy, threatened squares and illegal end squares.

Rules: SC-17 (speed in 5-ft squares), SC-18 (running), SC-19 (withdraw; "minimum 5 feet": its first square is
always within reach, whatever the terrain, ruling SC-B10), SC-20 (difficult terrain costs 2 or 3 squares; a ``%``
square, "5 ft per move action", takes a whole move action to enter: ruling SC-R14), SC-21 (5-foot step), SC-22
(double move), SC-23 (a diagonal counts as one square), SC-24 (allies and helpless foes may be passed, opponents
may not; no move ends in an occupied square; a combatant who surrendered is not helpless, ruling SC-B12;
tumbling; a move that ends illegally goes back to the nearest legal square), SC-27 (a)/(b) (leaving a square a
melee-armed foe threatens provokes, unless withdrawing or stepping).

The searches are :func:`affray.core.grid.reachable`: squares one may enter but not leave (``stop_at``) find
a path that provokes nobody, a cost multiplier prices tumbling at half speed, restricted directions give a
run's "fairly straight" path, and ``whole`` says what a ``%`` square costs.
"""

from __future__ import annotations

from affray.core.engine import Rejected
from affray.core.events import counted
from affray.core.grid import DIRECTIONS, Pos, Reach, adjacent, distance, path_cost, reachable
from affray.rulesets.spellchrome.mechanics import run_bonus_squares, squares, withdraw_distance
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState

MOVE_KINDS = ("move", "withdraw", "run", "step")
PROVOKING_KINDS = frozenset({"move", "run"})  # SC-19, SC-21: withdrawing and 5-foot steps never provoke
Threats = dict[Pos, list[Combatant]]


def in_the_way(state: SpellchromeState, o: Combatant) -> bool:
    """Whether ``o`` stands in the way of moves (SC-24): no move ends on its square and its opponents may not pass
    through it (tumbling aside). That is anyone not helpless: able, or surrendered on its feet, conscious in its
    square (ruling SC-B12, option ``surrendered_in_the_way``). The helpless (unconscious, dying, stable, dead) are
    not, nor is one the GM took out of the fight (off the board)."""
    if o.able:
        return True
    return (
        o.surrendered
        and o.hp >= 1
        and not (o.knocked_out or o.out)
        and o.abilities["constitution"] > 0
        and state.options.surrendered_in_the_way
    )


def end_ok(state: SpellchromeState, mover: Combatant, pos: Pos) -> bool:
    """A move may end here: open ground nobody stands on, unless the occupant is helpless (SC-24, SC-B12)."""
    if not state.grid.passable(pos):
        return False
    # whoever stands there (state.at) is the mover or helpless; a plain loop, not all(): every move ends somewhere
    for o in state.combatants.values():
        if o.pos == pos and o is not mover and (o.able or (o.surrendered and in_the_way(state, o))):
            return False
    return True


# The functions below list combatants in plain loops, not comprehensions (in this Python a comprehension is a call of
# its own): moves, runs and blows ask them at every decision.


def taken_squares(state: SpellchromeState, mover: Combatant) -> set[Pos]:
    """Squares where no move of ``mover`` may end: another creature stands there that is not helpless (able, or
    surrendered on its feet: :func:`in_the_way`; SC-24, SC-B12)."""
    out = set()
    for o in state.combatants.values():
        if o is not mover and (o.able or (o.surrendered and in_the_way(state, o))):
            out.add(o.pos)
    return out


def opponent_squares(state: SpellchromeState, mover: Combatant, tumble: bool = False) -> set[Pos]:
    """Squares ``mover`` cannot pass: opponents' that are not helpless (able, or surrendered on its feet:
    :func:`in_the_way`; SC-24, SC-B12). Tumbling passes all but those that fill them."""
    out = set()
    for o in state.foes_of(mover):
        if (o.able or (o.surrendered and in_the_way(state, o))) and (o.fills_square or not tumble):
            out.add(o.pos)
    return out


def threateners(
    state: SpellchromeState, mover: Combatant, pos: Pos, armed: list[Combatant] | None = None
) -> list[Combatant]:
    """Foes that threaten ``pos``: able, melee-armed and adjacent (SC-27, ruling SC-R3), in turn order. ``armed``:
    :func:`melee_foes` of ``mover``, when the caller asks about several squares of one state (a walk)."""
    x, y = pos
    foes = []
    if armed is not None:
        for f in armed:  # adjacent, in turn order
            dx, dy = f.pos[0] - x, f.pos[1] - y
            if -1 <= dx <= 1 and -1 <= dy <= 1 and (dx or dy):  # adjacent, inline
                foes.append(f)
        return foes
    for f in state.foes_of(mover):
        if f.melee_armed and adjacent(f.pos, pos):
            foes.append(f)
    if len(foes) < 2:
        return foes  # nothing to order (most squares have one threatener or none)
    order = {a: i for i, a in enumerate(state.order)}
    return sorted(foes, key=lambda f: order.get(f.id, len(order)))


def melee_foes(state: SpellchromeState, mover: Combatant) -> list[Combatant]:
    """``mover``'s foes that are able and melee-armed (SC-27, ruling SC-R3), in turn order: those
    :func:`threateners` picks from."""
    armed = []
    for f in state.foes_of(mover):
        if f.melee_armed:
            armed.append(f)
    if len(armed) < 2:
        return armed  # nothing to order
    order = {a: i for i, a in enumerate(state.order)}
    return sorted(armed, key=lambda f: order.get(f.id, len(order)))


def threat_map(state: SpellchromeState, mover: Combatant) -> Threats:
    """Squares whose leaving gives a foe an attack of opportunity it can take, and those foes (SC-27)."""
    out: Threats = {}
    foes = []
    for f in state.foes_of(mover):
        if f.melee_armed and can_punish(state, f):
            foes.append(f)
    if len(foes) > 1:  # in turn order
        order = {a: i for i, a in enumerate(state.order)}
        foes.sort(key=lambda f: order.get(f.id, len(order)))
    for f in foes:
        for dx, dy in DIRECTIONS:
            out.setdefault((f.pos[0] + dx, f.pos[1] + dy), []).append(f)
    return out


def can_punish(state: SpellchromeState, foe: Combatant) -> bool:
    """The foe has an attack of opportunity left (SC-26) and was not yet offered one for this turn's moves."""
    turn = state.turn
    return foe.aoo_left > 0 and (turn is None or foe.id not in turn.offered)


def danger_squares(state: SpellchromeState, mover: Combatant) -> set[Pos]:
    """Squares whose leaving would provoke an attack of opportunity that can actually be taken."""
    return set(threat_map(state, mover))


def budget_of(state: SpellchromeState, c: Combatant, kind: str) -> int:
    """Squares a move of ``kind`` may spend: speed (SC-17), withdraw speed (SC-19), one (SC-21), or a run's
    two moves plus the best possible Run bonus (SC-18)."""
    if kind == "withdraw":
        return squares(withdraw_distance(c.speed_ft))
    if kind == "step":
        return 1
    if kind == "run":
        return 2 * squares(c.speed_ft) + run_bonus_squares(20 + run_modifier(c))
    return squares(c.speed_ft)


def whole_of(c: Combatant, kind: str) -> int:
    """What entering a ``%`` square ("5 ft per move action", SC-20, ruling SC-R14) costs a move of ``kind``:
    the whole move action, i.e. all of a move's or a withdraw's squares (so it can only be a move's first
    square, and the move ends there), one of a run's two moves. A 5-foot step never enters it (SC-R11)."""
    if kind == "withdraw":
        return squares(withdraw_distance(c.speed_ft))
    if kind == "step":
        return 2  # more than a step's one square
    return squares(c.speed_ft)


def run_modifier(c: Combatant) -> int:
    """Run skill bonus, or untrained Str modifier (ruling SC-R2)."""
    return c.skills.get("run", c.mods["strength"])


def run_dirs(start: Pos, to: Pos) -> tuple[Pos, ...]:
    """A "fairly straight" run (SC-18, ruling SC-R2): only the straight and the diagonal step toward ``to``."""
    dx, dy = to[0] - start[0], to[1] - start[1]
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    straight = (sx, 0) if abs(dx) >= abs(dy) else (0, sy)
    return tuple(dict.fromkeys([straight, (sx, sy)]))


def _reach(
    state: SpellchromeState,
    c: Combatant,
    kind: str,
    tumble: bool,
    to: Pos | None,
    safe: bool,
    threats: Threats | None = None,
) -> Reach | None:
    """The search for a move of ``kind``; with ``safe``, ``None`` when no square is dangerous (same as unsafe).
    ``threats``, when the caller has it, is :func:`threat_map` for ``c`` (whose squares are the dangerous ones)."""
    budget = budget_of(state, c, kind)
    dirs = run_dirs(c.pos, to) if kind == "run" and to is not None else DIRECTIONS
    stop = (danger_squares(state, c) if threats is None else threats.keys()) if safe else ()
    if safe and not stop:
        return None
    blocked = opponent_squares(state, c, tumble)
    reach = reachable(state.grid, c.pos, budget, blocked, stop, 2 if tumble else 1, dirs, whole_of(c, kind))
    if kind == "withdraw" and state.options.withdraw_minimum_square:
        return _first_square_within(state, c.pos, budget, blocked, reach)
    return reach


def _first_square_within(state: SpellchromeState, start: Pos, budget: int, blocked: set[Pos], reach: Reach) -> Reach:
    """``reach`` with every square around ``start`` that may be entered, those whose terrain costs more than
    ``budget`` at the whole ``budget`` (ruling SC-B10: SC-19's "minimum 5 feet" holds whatever the ground, as a
    ``%`` square's whole move action does, SC-R14). A square around the start costs its terrain at most by the
    straight step, so ``reach`` lacks exactly those dearer than ``budget``; spending all of it, nothing lies
    beyond them, and the rest of ``reach`` stands. The searches are memoised: a new ``Reach``, never a change."""
    extra = [p for p in state.grid.neighbours(start) if p not in reach.cost and p not in blocked]
    if not extra:
        return reach
    cost, previous = dict(reach.cost), dict(reach.previous)
    for p in extra:
        cost[p], previous[p] = budget, start
    return Reach(cost, previous, tuple(sorted((*reach.squares, *extra))))


def withdraw_cost(state: SpellchromeState, c: Combatant, path: list[Pos]) -> int:
    """What a withdraw along ``path`` spends: its first square at most the withdraw's whole distance (ruling
    SC-B10, option ``withdraw_minimum_square``), the rest at their terrain costs (SC-20)."""
    whole, budget = whole_of(c, "withdraw"), budget_of(state, c, "withdraw")
    first = state.grid.cost(path[0], whole)
    if state.options.withdraw_minimum_square:
        first = min(first, budget)
    return first + path_cost(state.grid, path[1:], 1, whole)


def auto_path(state: SpellchromeState, c: Combatant, kind: str, to: Pos, tumble: bool = False) -> list[Pos] | None:
    """The path the engine takes to ``to``: one that provokes nobody new if there is one, else the cheapest."""
    if kind in PROVOKING_KINDS:
        safe = _reach(state, c, kind, tumble, to, True)
        if safe is not None and to in safe.cost:
            return safe.path_to(to)
    reach = _reach(state, c, kind, tumble, to, False)
    assert reach is not None
    return reach.path_to(to) if to in reach.cost else None


def end_squares(
    state: SpellchromeState, c: Combatant, kind: str, threats: Threats, tumble: bool = False
) -> tuple[list[Pos], tuple[Combatant, ...], dict[Pos, tuple[Combatant, ...]]]:
    """Every legal end square of a move of ``kind`` (not run), in (x, y) order, and the foes whose attack of
    opportunity the engine's path there (:func:`auto_path`) would give, once each (SC-27 (a)/(b), SC-R9): the
    start's threateners, except for the squares in the returned dict (empty for kinds that never provoke).

    ``threats`` is :func:`threat_map` for ``c``. A path that provokes nobody new leaves no threatened square
    but the start, so it gives exactly the start's threateners; only squares out of reach of such a path take
    the cheapest path, whose provokers are gathered once along the search tree instead of per path.
    """
    reach = _reach(state, c, kind, tumble, None, False)
    assert reach is not None
    taken, start = taken_squares(state, c), c.pos
    ends = [p for p in reach.squares if p not in taken and p != start]
    if kind not in PROVOKING_KINDS or not threats:
        return ends, (), {}
    safe = _reach(state, c, kind, tumble, None, True, threats)
    assert safe is not None  # ``threats`` is not empty, so some square is dangerous
    at_start = tuple(threats.get(start, ()))
    left: dict[Pos, tuple[Combatant, ...]] = {start: at_start}
    near = safe.cost
    return (
        ends,
        at_start,
        {p: _provokers(reach.previous[p], left, reach.previous, threats) for p in ends if p not in near},
    )


def _provokers(
    p: Pos, left: dict[Pos, tuple[Combatant, ...]], previous: dict[Pos, Pos], threats: Threats
) -> tuple[Combatant, ...]:
    """The foes threatening the squares from the start to ``p`` on the search tree, in the order a walk meets
    them; ``left`` memoises the answer per square."""
    chain = []
    while p not in left:
        chain.append(p)
        p = previous[p]
    acc = left[p]
    for q in reversed(chain):
        here = threats.get(q)
        if here:
            acc = acc + tuple(f for f in here if all(f is not g for g in acc))
        left[q] = acc
    return acc


def check_path(
    state: SpellchromeState, c: Combatant, kind: str, to: Pos, path: list[Pos] | None, tumble: bool = False
) -> list[Pos] | Rejected:
    """Validate a move of ``kind`` to ``to`` (along ``path`` if given) and return the path to walk."""
    grid = state.grid
    if not grid.in_bounds(to):
        return Rejected("out_of_bounds", f"{list(to)} is off the {grid.width}×{grid.height} map.")
    if not grid.passable(to):
        return Rejected("blocked_by_wall", f"{list(to)} is a wall.")
    if to == c.pos:
        return Rejected("no_movement", f"{c.name} is already on {list(to)}.")
    if not end_ok(state, c, to):
        return Rejected("occupied", f"{list(to)} is occupied; a move cannot end there (SC-24).")
    if path is not None:
        return _check_given(state, c, kind, to, path, tumble)
    found = auto_path(state, c, kind, to, tumble)
    if found is not None:
        return found
    return _why_unreachable(state, c, kind, to, tumble)


def _check_given(
    state: SpellchromeState, c: Combatant, kind: str, to: Pos, path: list[Pos], tumble: bool
) -> list[Pos] | Rejected:
    grid, here = state.grid, c.pos
    blocked = opponent_squares(state, c, tumble)
    dirs = set(run_dirs(c.pos, to)) if kind == "run" else set(DIRECTIONS)
    if not path or path[-1] != to:
        return Rejected("bad_path", "A path lists the squares to walk, ending at the destination.")
    for p in path:
        if not adjacent(here, p) or (p[0] - here[0], p[1] - here[1]) not in dirs:
            why = "a fairly straight line (SC-18)" if kind == "run" else "adjacent squares"
            return Rejected("bad_path", f"{list(p)} does not follow {list(here)}: a path is made of {why}.")
        if not grid.passable(p):
            return Rejected("blocked_by_wall", f"The path runs through a wall at {list(p)}.")
        if p in blocked:
            return Rejected("blocked_by_opponent", f"The path runs through an opponent at {list(p)} (SC-24).")
        here = p
    spent = (
        withdraw_cost(state, c, path)
        if kind == "withdraw"
        else path_cost(grid, path, 2 if tumble else 1, whole_of(c, kind))
    )
    if spent > budget_of(state, c, kind):
        return Rejected("too_far", _too_far(state, c, kind))
    return list(path)


def _too_far(state: SpellchromeState, c: Combatant, kind: str) -> str:
    return (
        f"That is farther than {c.name} can {kind} ({counted(budget_of(state, c, kind), 'square')}; "
        "difficult terrain costs 2 or 3, and a '%' square a whole move action)."
    )


def _why_unreachable(state: SpellchromeState, c: Combatant, kind: str, to: Pos, tumble: bool) -> Rejected:
    dirs = run_dirs(c.pos, to) if kind == "run" else DIRECTIONS
    mult, whole = 2 if tumble else 1, whole_of(c, kind)
    open_map = reachable(state.grid, c.pos, 10_000, (), (), mult, dirs, whole)
    if to not in open_map.cost:
        return Rejected("blocked_by_wall", f"Walls leave no way to {list(to)}.")
    no_budget = reachable(state.grid, c.pos, 10_000, opponent_squares(state, c, tumble), (), mult, dirs, whole)
    if to not in no_budget.cost:
        return Rejected("blocked_by_opponent", f"Opponents bar every way to {list(to)} (SC-24).")
    return Rejected("too_far", _too_far(state, c, kind))


def settle(state: SpellchromeState, c: Combatant, start: Pos, walked: list[Pos]) -> Pos:
    """Where a move that stopped on ``c.pos`` ends: there if legal, else back along the way it came to the
    last legal square, else the nearest legal square (SC-24)."""
    for p in reversed([start, *walked]):
        if end_ok(state, c, p):
            return p
    ring = sorted(
        (p for p in reachable(state.grid, c.pos, 10_000, whole=1).cost if end_ok(state, c, p)),
        key=lambda p: (distance(p, c.pos), p),
    )
    return ring[0] if ring else c.pos
