"""Searching the map: cheapest reachable squares, paths, greedy steps and lines of fire.

Rules: X-3, SC-18 (a run's restricted directions), SC-20 (terrain costs), SC-24 (squares one may not
enter; squares one may enter but not leave), WH-B13 (greedy steps), ruling SC-R10 (lines of fire).
The search is a small Dijkstra over the map's cached links (see docs/grid.md for why no library).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from affray.core.grid.board import Grid, Links, links, weights
from affray.core.grid.geometry import DIRECTIONS, Pos


@dataclass(frozen=True, slots=True)
class Reach:
    """Result of :func:`reachable`: the cost to each square, the previous square on a cheapest path, and every
    reached square in (x, y) order (``squares``, the start included).

    Searches are memoised, so one ``Reach`` may be handed to several callers: treat it as read-only.
    """

    cost: dict[Pos, int]
    previous: dict[Pos, Pos]
    squares: tuple[Pos, ...] = ()

    def path_to(self, goal: Pos) -> list[Pos]:
        """Squares from (excluding) the start to ``goal`` (inclusive)."""
        previous = self.previous
        path = [goal]
        while path[-1] in previous:
            path.append(previous[path[-1]])
        path.pop()
        path.reverse()
        return path


def reachable(
    grid: Grid,
    start: Pos,
    budget: int,
    blocked: Iterable[Pos] = (),
    stop_at: Iterable[Pos] = (),
    mult: int = 1,
    dirs: tuple[Pos, ...] = DIRECTIONS,
    whole: int | None = None,
) -> Reach:
    """Every square reachable from ``start`` (on the map) within ``budget`` movement.

    A path never enters ``blocked`` (opponents, SC-24) and never leaves a square of ``stop_at`` other than
    the start (squares whose leaving would provoke, to find a path that provokes nobody); each square costs
    ``mult`` × its terrain cost (SC-20; a tumble costs double), a ``%`` square ``mult`` × ``whole`` (by
    default the whole ``budget``: it takes a whole move to enter); steps go only in ``dirs`` (a run's
    fairly straight line, SC-18). Squares one may pass but not stop in (allies, SC-24) are the caller's
    filter on the result, since passing through them is legal.

    Squares are settled cheapest first, ties in (x, y) order, and a square's previous square is the first
    settled one that reaches it at its final cost; so results are deterministic and replays match. A turn
    asks the same question several times (listing, then checking the chosen move), so answers are memoised.
    """
    return _search(grid, start, budget, frozenset(blocked), frozenset(stop_at), mult, dirs, whole)


@lru_cache(maxsize=256)
def _search(
    grid: Grid,
    start: Pos,
    budget: int,
    blocked: frozenset[Pos],
    stop_at: frozenset[Pos],
    mult: int,
    dirs: tuple[Pos, ...],
    whole: int | None,
) -> Reach:
    net = links(grid, dirs)
    if mult < 1:
        raise ValueError(f"a search's cost multiplier is 1 or more, not {mult}")
    if not grid.in_bounds(start):
        raise ValueError(f"a search starts on the map, not at {list(start)}")
    wt = weights(grid, mult, max(1, budget if whole is None else whole))
    size, h, nbrs = net.size, net.height, net.nbrs
    over = budget + 1
    cost = [over] * size
    for x, y in blocked:
        if 0 <= x < grid.width and 0 <= y < h:
            cost[x * h + y] = -1  # never improved upon: a path cannot enter it
    s = start[0] * h + start[1]
    cost[s] = 0
    halt = {x * h + y for x, y in stop_at if 0 <= x < grid.width and 0 <= y < h}
    halt.discard(s)
    prev = [0] * size
    seen = [s]
    # Squares are settled by cost level, cheapest first, each level's squares in index ((x, y)) order: the order of a
    # heap of (cost, index), with one sort per level instead of a heap operation per square (12-16% less time). No
    # step costs 0 (mult >= 1, a '%' square costs whole >= 1), so a level never grows while it is being settled.
    levels = [0]  # the cost levels that hold squares, as a heap
    at_level = {0: [s]}
    pop, push, level_of = heapq.heappop, heapq.heappush, at_level.get
    while levels:
        c = pop(levels)
        level = at_level.pop(c)
        if len(level) > 1:
            level.sort()
        for i in level:
            if c > cost[i] or i in halt:
                continue  # reached again more cheaply since, or a square one may not leave
            for j in nbrs[i]:
                nc = c + wt[j]
                if nc < cost[j]:
                    if cost[j] == over:
                        seen.append(j)
                    cost[j] = nc
                    prev[j] = i
                    found = level_of(nc)
                    if found is None:
                        at_level[nc] = [j]
                        push(levels, nc)
                    else:
                        found.append(j)
    pos = net.pos
    return Reach(
        {pos[i]: cost[i] for i in seen}, {pos[i]: pos[prev[i]] for i in seen[1:]}, tuple(pos[i] for i in sorted(seen))
    )


def shortest_path(
    grid: Grid, start: Pos, goal: Pos, blocked: Iterable[Pos] = (), budget: int = 10_000
) -> list[Pos] | None:
    """A cheapest path from ``start`` to ``goal`` (excluding ``start``), or ``None`` if there is none."""
    reach = reachable(grid, start, budget, blocked)
    return reach.path_to(goal) if goal in reach.cost else None


def path_cost(grid: Grid, path: Iterable[Pos], mult: int = 1, whole: int | None = None) -> int:
    """What walking ``path`` costs: ``mult`` × each square's terrain cost; a ``%`` square costs ``whole``
    (by default more than any budget). Rule: SC-20."""
    if whole is None:
        return sum(mult * grid.cost(p) for p in path)
    return sum(mult * grid.cost(p, whole) for p in path)


def step_toward(
    grid: Grid, start: Pos, target: Pos, occupied: Iterable[Pos], away: bool = False, net: Links | None = None
) -> Pos | None:
    """One greedy step toward (or away from) ``target`` without entering ``occupied`` or walls (WH-B13).

    Toward: the free neighbour with the smallest (Chebyshev, squared Euclidean) distance, if that beats
    standing still. Away: the largest Chebyshev distance, then the smallest Euclidean (straight back rather
    than diagonal), if the Chebyshev distance grows. ``None`` means blocked (WH-08). Ties keep the earlier
    direction of :data:`DIRECTIONS`, so results are deterministic.

    It is the inner loop of every WitchHammer move, so the distances are worked out inline; ``occupied`` may be a
    set (used as is) and ``net`` the grid's :func:`links`, when the caller has them.
    """
    taken = occupied if isinstance(occupied, (set, frozenset)) else set(occupied)
    tx, ty = target
    sx, sy = start
    best: Pos | None = None
    bc = be = 0
    if 0 <= sx < grid.width and 0 <= sy < grid.height:  # Grid.neighbours, from the links
        net = net if net is not None else links(grid)
        at = net.pos
        near = [at[j] for j in net.nbrs[sx * grid.height + sy]]
    else:
        near = grid.neighbours(start)
    for q in near:
        if q in taken or q == target:
            continue
        dx, dy = q[0] - tx, q[1] - ty
        ax, ay = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
        cheb, eu = (ax if ax > ay else ay), dx * dx + dy * dy
        if best is None or (cheb > bc if away else cheb < bc) or (cheb == bc and eu < be):
            best, bc, be = q, cheb, eu
    if best is None:
        return None
    dx, dy = sx - tx, sy - ty
    ax, ay = (dx if dx >= 0 else -dx), (dy if dy >= 0 else -dy)
    here = ax if ax > ay else ay  # distance(start, target)
    if away:
        return best if bc > here else None
    return best if (bc, be) < (here, dx * dx + dy * dy) else None  # euclid2(start, target)


def clear_line(grid: Grid, a: Pos, b: Pos) -> bool:
    """No wall lies on the straight (Bresenham) line between two squares, ends excluded (ruling SC-R10)."""
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
