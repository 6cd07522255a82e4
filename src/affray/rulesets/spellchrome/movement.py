"""Movement on the battle grid: budgets, legal paths, occupancy, threatened squares and illegal end squares.

Rules: SC-17 (speed in 5-ft squares), SC-18 (running), SC-19 (withdraw), SC-20 (difficult terrain costs
2 or 3 squares, from ``core.grid``), SC-21 (5-foot step), SC-22 (double move), SC-23 (a diagonal counts
as one square), SC-24 (allies and helpless foes may be passed, opponents may not; no move ends in an
occupied square; tumbling; a move that ends illegally goes back to the nearest legal square),
SC-27 (a)/(b) (leaving a square a melee-armed foe threatens provokes, unless withdrawing or stepping).

The search is a small Dijkstra like ``core.grid.reachable`` with three additions that core does not have
(see the report in ``docs/grid.md``): squares one may enter but not leave (``stop_at``, used to find a
path that provokes nobody), a cost multiplier (tumbling at half speed), and a restricted set of
directions (a run's "fairly straight" path).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from functools import cache

from affray.core.engine import Rejected
from affray.core.grid import DIRECTIONS, Grid, Pos, Reach, adjacent, distance
from affray.rulesets.spellchrome.mechanics import run_bonus_squares, squares, withdraw_distance
from affray.rulesets.spellchrome.state import Combatant, SpellchromeState

MOVE_KINDS = ("move", "withdraw", "run", "step")
PROVOKING_KINDS = frozenset({"move", "run"})  # SC-19, SC-21: withdrawing and 5-foot steps never provoke


@cache
def open_squares(grid: Grid) -> dict[Pos, int]:
    """Every passable square of ``grid`` and what entering it costs (SC-20); cached per map."""
    return {(x, y): grid.cost((x, y)) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))}


@cache
def _links(grid: Grid, dirs: tuple[Pos, ...]) -> dict[Pos, tuple[tuple[Pos, int], ...]]:
    """For each open square, its open neighbours in ``dirs`` and their entry costs; cached per map."""
    terrain = open_squares(grid)
    out: dict[Pos, tuple[tuple[Pos, int], ...]] = {}
    for p in terrain:
        nbrs = ((p[0] + dx, p[1] + dy) for dx, dy in dirs)
        out[p] = tuple((q, terrain[q]) for q in nbrs if q in terrain)
    return out


def search(grid: Grid, start: Pos, budget: int, blocked: Iterable[Pos] = (), stop_at: Iterable[Pos] = (),
           mult: int = 1, dirs: tuple[Pos, ...] = DIRECTIONS) -> Reach:
    """Cheapest costs from ``start`` within ``budget``: never entering ``blocked``, never leaving ``stop_at``
    (except the start), each square costing ``mult`` × its terrain cost, stepping only in ``dirs``."""
    stop, halt = set(blocked), set(stop_at)
    links = _links(grid, dirs)
    cost: dict[Pos, int] = {start: 0}
    previous: dict[Pos, Pos] = {}
    heap: list[tuple[int, Pos]] = [(0, start)]
    over = budget + 1
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost[p] or (p in halt and p != start):
            continue
        for q, step in links.get(p, ()):
            nc = c + mult * step
            if nc < cost.get(q, over) and q not in stop:
                cost[q] = nc
                previous[q] = p
                heapq.heappush(heap, (nc, q))
    return Reach(cost, previous)


def end_ok(state: SpellchromeState, mover: Combatant, pos: Pos) -> bool:
    """A move may end here: open ground nobody stands on, unless the occupant is helpless (SC-24)."""
    return state.grid.passable(pos) and all(o is mover or o.helpless for o in state.at(pos))


def opponent_squares(state: SpellchromeState, mover: Combatant, tumble: bool = False) -> set[Pos]:
    """Squares ``mover`` cannot pass: able opponents' (SC-24). Tumbling passes all but those that fill them."""
    return {o.pos for o in state.foes_of(mover) if not o.helpless and (o.fills_square or not tumble)}


def threateners(state: SpellchromeState, mover: Combatant, pos: Pos) -> list[Combatant]:
    """Foes that threaten ``pos``: able, melee-armed and adjacent (SC-27, ruling SC-R3), in turn order."""
    order = {a: i for i, a in enumerate(state.order)}
    foes = [f for f in state.foes_of(mover) if f.melee_armed and adjacent(f.pos, pos)]
    return sorted(foes, key=lambda f: order.get(f.id, len(order)))


def threat_map(state: SpellchromeState, mover: Combatant) -> dict[Pos, list[Combatant]]:
    """Squares whose leaving gives a foe an attack of opportunity it can take, and those foes (SC-27)."""
    out: dict[Pos, list[Combatant]] = {}
    order = {a: i for i, a in enumerate(state.order)}
    foes = sorted((f for f in state.foes_of(mover) if f.melee_armed and can_punish(state, f)),
                  key=lambda f: order.get(f.id, len(order)))
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


def run_modifier(c: Combatant) -> int:
    """Run skill bonus, or untrained Str modifier (ruling SC-R2)."""
    return c.skills.get("run", c.mods["strength"])


def run_dirs(start: Pos, to: Pos) -> tuple[Pos, ...]:
    """A "fairly straight" run (SC-18, ruling SC-R2): only the straight and the diagonal step toward ``to``."""
    dx, dy = to[0] - start[0], to[1] - start[1]
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    straight = (sx, 0) if abs(dx) >= abs(dy) else (0, sy)
    return tuple(dict.fromkeys([straight, (sx, sy)]))


def path_cost(grid: Grid, path: list[Pos], mult: int = 1) -> int:
    return sum(mult * grid.cost(p) for p in path)


def _reach(state: SpellchromeState, c: Combatant, kind: str, tumble: bool, to: Pos | None, safe: bool
           ) -> Reach | None:
    """The search for a move of ``kind``; with ``safe``, ``None`` when no square is dangerous (same as unsafe)."""
    budget = budget_of(state, c, kind)
    dirs = run_dirs(c.pos, to) if kind == "run" and to is not None else DIRECTIONS
    stop = danger_squares(state, c) if safe else set()
    if safe and not stop:
        return None
    return search(state.grid, c.pos, budget, opponent_squares(state, c, tumble), stop, 2 if tumble else 1, dirs)


def auto_path(state: SpellchromeState, c: Combatant, kind: str, to: Pos, tumble: bool = False) -> list[Pos] | None:
    """The path the engine takes to ``to``: one that provokes nobody new if there is one, else the cheapest."""
    if kind in PROVOKING_KINDS:
        safe = _reach(state, c, kind, tumble, to, True)
        if safe is not None and to in safe.cost:
            return safe.path_to(to)
    reach = _reach(state, c, kind, tumble, to, False)
    assert reach is not None
    return reach.path_to(to) if to in reach.cost else None


def destinations(state: SpellchromeState, c: Combatant, kind: str, tumble: bool = False) -> dict[Pos, list[Pos]]:
    """Every legal end square of a move of ``kind`` (not run) and the path the engine would take there."""
    reach = _reach(state, c, kind, tumble, None, False)
    assert reach is not None
    safe = (_reach(state, c, kind, tumble, None, True) if kind in PROVOKING_KINDS else None) or reach
    out: dict[Pos, list[Pos]] = {}
    for p in sorted(reach.cost):
        if p != c.pos and end_ok(state, c, p):
            out[p] = safe.path_to(p) if p in safe.cost else reach.path_to(p)
    return out


def check_path(state: SpellchromeState, c: Combatant, kind: str, to: Pos, path: list[Pos] | None,
               tumble: bool = False) -> list[Pos] | Rejected:
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


def _check_given(state: SpellchromeState, c: Combatant, kind: str, to: Pos, path: list[Pos],
                 tumble: bool) -> list[Pos] | Rejected:
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
    if path_cost(grid, path, 2 if tumble else 1) > budget_of(state, c, kind):
        return Rejected("too_far", _too_far(state, c, kind))
    return list(path)


def _too_far(state: SpellchromeState, c: Combatant, kind: str) -> str:
    return (f"That is farther than {c.name} can {kind} ({budget_of(state, c, kind)} squares; difficult terrain "
            "costs 2 or 3).")


def _why_unreachable(state: SpellchromeState, c: Combatant, kind: str, to: Pos, tumble: bool) -> Rejected:
    dirs = run_dirs(c.pos, to) if kind == "run" else DIRECTIONS
    open_map = search(state.grid, c.pos, 10_000, (), (), 2 if tumble else 1, dirs)
    if to not in open_map.cost:
        return Rejected("blocked_by_wall", f"Walls leave no way to {list(to)}.")
    no_budget = search(state.grid, c.pos, 10_000, opponent_squares(state, c, tumble), (), 2 if tumble else 1, dirs)
    if to not in no_budget.cost:
        return Rejected("blocked_by_opponent", f"Opponents bar every way to {list(to)} (SC-24).")
    return Rejected("too_far", _too_far(state, c, kind))


def settle(state: SpellchromeState, c: Combatant, start: Pos, walked: list[Pos]) -> Pos:
    """Where a move that stopped on ``c.pos`` ends: there if legal, else back along the way it came to the
    last legal square, else the nearest legal square (SC-24)."""
    for p in reversed([start, *walked]):
        if end_ok(state, c, p):
            return p
    ring = sorted((p for p in search(state.grid, c.pos, 10_000).cost if end_ok(state, c, p)),
                  key=lambda p: (distance(p, c.pos), p))
    return ring[0] if ring else c.pos


def clear_line(grid: Grid, a: Pos, b: Pos) -> bool:
    """No wall lies on the straight line between two squares (ranged attacks, ruling SC-R10)."""
    x0, y0 = a
    x1, y1 = b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        if (x0, y0) != (x1, y1) and not grid.passable((x0, y0)):
            return False
    return True
