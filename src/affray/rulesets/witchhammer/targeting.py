"""Positions on the grid: target selectors, mandatory movement and the starting facing.

Rules: WH-07 (selectors), WH-08 (mandatory movement), WH-10 (ranges), WH-B13 (ties and greedy steps), WH-B14
(facing), WH-A4 (difficult terrain). The grid itself, with the geometry of from behind and flanking (WH-25,
WH-26, WH-B14, WH-B15: ``behind``, ``sides_of``, ``flanks``), is the shared :mod:`affray.core.grid`.
"""

from __future__ import annotations

from functools import lru_cache

from affray.core.grid import Grid, Pos, direction, distance, euclid2, links, step_toward
from affray.rulesets.witchhammer.state import Fighter, WitchHammerState

SELECTORS = frozenset(("nearest_ally", "nearest_enemy", "farthest_enemy", "largest_enemy", "weakest_enemy"))


def _near_key(f: Fighter, g: Fighter) -> tuple[int, int, int]:
    return distance(f.pos, g.pos), euclid2(f.pos, g.pos), g.order


def pick(state: WitchHammerState, f: Fighter, selector: str) -> Fighter | None:
    """The one combatant a selector names, ties broken per WH-B13; ``None`` if there is none. Rule: WH-07."""
    if selector == "self":
        return f
    side, pool = f.side, []
    allies = selector == "nearest_ally"
    for g in state.fighters.values():  # a plain loop, not a comprehension: most cards' targets ask
        if not g.out and ((g.side == side and g is not f) if allies else g.side != side):
            pool.append(g)
    if not pool:
        return None
    if len(pool) == 1 and selector in SELECTORS:  # the only one, whatever the key (a lone monster, a lone hero)
        return pool[0]
    if selector == "nearest_ally" or selector == "nearest_enemy":
        return _nearest(f, pool)
    if selector == "farthest_enemy":
        return min(pool, key=lambda g: (-distance(f.pos, g.pos), -euclid2(f.pos, g.pos), g.order))
    if selector == "largest_enemy":
        return min(pool, key=lambda g: (-g.size, *_near_key(f, g)))
    if selector == "weakest_enemy":
        return min(pool, key=lambda g: (g.poise + g.health, *_near_key(f, g)))
    raise ValueError(f"unknown selector {selector!r}")


def _nearest(f: Fighter, pool: list[Fighter]) -> Fighter:
    """The first of ``pool`` by :func:`_near_key` (grid distance, squared Euclidean distance, actor order), worked
    out in a plain loop: most cards' targets ask."""
    fx, fy = f.pos
    best = pool[0]
    best_key: tuple[int, int, int] | None = None
    for g in pool:
        dx, dy = g.pos[0] - fx, g.pos[1] - fy
        ax, ay = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
        key = (ax if ax > ay else ay, dx * dx + dy * dy, g.order)
        if best_key is None or key < best_key:
            best, best_key = g, key
    return best


def group(state: WitchHammerState, f: Fighter, recipient: str, reach: int = 1_000) -> list[Fighter]:
    """Everyone an area recipient names (``each_enemy`` within ``reach``, ``each_ally``, ``each_adjacent_enemy``),
    in the stable actor order."""
    if recipient == "each_ally":
        return [g for g in state.fighters.values() if g.up and g.side == f.side]
    if recipient == "each_adjacent_enemy":
        reach = 1
    (fx, fy), side, out = f.pos, f.side, []
    for g in state.fighters.values():  # a plain loop, not a comprehension: every area card asks
        if not g.out and g.side != side and -reach <= fx - g.pos[0] <= reach and -reach <= fy - g.pos[1] <= reach:
            out.append(g)
    return out


def face_nearest_enemy(state: WitchHammerState, f: Fighter) -> None:
    """The starting facing when the scenario gives none: toward the nearest enemy (WH-B14)."""
    foe = pick(state, f, "nearest_enemy")
    f.facing = direction(f.pos, foe.pos) if foe is not None else (0, 1)
    if f.facing == (0, 0):
        f.facing = (0, 1)


def move(state: WitchHammerState, f: Fighter, reference: Fighter, squares: int, away: bool) -> tuple[list[Pos], str]:
    """Mandatory movement (WH-08): step greedily (WH-B13) until the full distance, adjacency to the reference
    (toward) or a block. Difficult terrain costs 2 or 3 squares, and a ``%`` square the whole move, so it can
    only be the first step (WH-A4). Returns the squares entered and why it stopped: ``full``, ``adjacent`` or
    ``blocked``; the mover faces its last step (WH-B14)."""
    if squares <= 0:
        return [], "full"
    rx, ry = reference.pos
    if not away and -1 <= f.pos[0] - rx <= 1 and -1 <= f.pos[1] - ry <= 1:
        return [], "adjacent"  # already there (most moves of a fight in melee): nothing else to look up
    path, why = walk(
        state.grid, f.pos, reference.pos, state.occupied(f), squares, away, state.options.difficult_terrain
    )
    if path:
        before = path[-2] if len(path) > 1 else f.pos
        f.facing = (path[-1][0] - before[0], path[-1][1] - before[1])
        f.pos = path[-1]
    return list(path), why


@lru_cache(maxsize=4096)
def walk(
    grid: Grid, start: Pos, target: Pos, taken: frozenset[Pos], squares: int, away: bool, terrain: bool
) -> tuple[tuple[Pos, ...], str]:
    """The squares a mandatory move from ``start`` enters toward (or away from) ``target`` with ``squares`` to
    spend, past ``taken`` (everyone else on the map), and why it stops (see :func:`move`; ``terrain``: the option
    ``difficult_terrain``). A pure function of immutable values, memoised (bounded): the fights of a scenario walk
    the same few ways again and again (in the three hunters' fight, some thirty moves make up all of them)."""
    path: list[Pos] = []
    net = links(grid)  # the map's neighbour links, looked up once for the whole move
    tx, ty = target
    here = start
    left = squares
    while left > 0:
        if not away and max(abs(here[0] - tx), abs(here[1] - ty)) <= 1:  # grid distance, inline
            return tuple(path), "adjacent"
        nxt = step_toward(grid, here, target, taken, away, net)
        if nxt is None:
            return tuple(path), "blocked"
        cost = grid.cost(nxt, squares) if terrain else 1
        if cost > left:
            return tuple(path), "blocked"
        left -= cost
        here = nxt
        path.append(nxt)
    return tuple(path), "full"
