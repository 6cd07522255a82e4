"""A square battle grid shared by WitchHammer and Spellchrome (Rules: X-3, SC-20, SC-23, SC-24, WH-B13).

Maps are ASCII, one character a square, rows top to bottom; ``(x, y)`` is (column, row) from the top
left. Legend::

    .  open ground          #  wall (impassable)
    ~  difficult terrain: half speed (each square costs 2)
    ^  very difficult terrain: a third of speed (each square costs 3)

Distance is Chebyshev (a diagonal counts as one 5-ft square), adjacency is the 8 squares around.
Paths are found by Dijkstra over terrain costs with a small heap (no library: the graphs here have a few
hundred squares, and the occupancy rules — squares one may pass but not stop in — are easier to state
directly than to bend a general library to; see docs/grid.md).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Pos = tuple[int, int]
TERRAIN_COST = {".": 1, "~": 2, "^": 3}
WALL = "#"
DIRECTIONS: tuple[Pos, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


class MapError(ValueError):
    """An ASCII map that cannot be read; the message names the row and column."""


def distance(a: Pos, b: Pos) -> int:
    """Squares between ``a`` and ``b`` with diagonals counting as one (Chebyshev). Rules: SC-23, WH-B13."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Pos, b: Pos) -> bool:
    """True for the 8 squares around ``a`` (not ``a`` itself)."""
    return a != b and distance(a, b) == 1


def euclid2(a: Pos, b: Pos) -> int:
    """Squared Euclidean distance, the tie-break of WH-B13."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def direction(a: Pos, b: Pos) -> Pos:
    """The unit step (each of dx, dy in -1..1) from ``a`` toward ``b``."""
    return sign(b[0] - a[0]), sign(b[1] - a[1])


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable map. Build one with :meth:`parse`."""

    width: int
    height: int
    rows: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Grid:
        lines = [line.strip() for line in text.strip("\n").splitlines() if line.strip()]
        if not lines:
            raise MapError("the map is empty; expected rows of '.', '#', '~' and '^'")
        width = len(lines[0])
        for y, line in enumerate(lines):
            if len(line) != width:
                raise MapError(f"row {y} has {len(line)} squares but row 0 has {width}; rows must be equally long")
            for x, ch in enumerate(line):
                if ch != WALL and ch not in TERRAIN_COST:
                    raise MapError(f"row {y}, column {x}: '{ch}' is not a map square; "
                                   "expected '.', '#', '~' (half speed) or '^' (third speed)")
        return cls(width, len(lines), tuple(lines))

    @classmethod
    def open(cls, width: int, height: int) -> Grid:
        return cls(width, height, tuple("." * width for _ in range(height)))

    def in_bounds(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def passable(self, p: Pos) -> bool:
        return self.in_bounds(p) and self.rows[p[1]][p[0]] != WALL

    def cost(self, p: Pos) -> int:
        """Squares of movement it costs to enter ``p`` (1, 2 or 3). Rule: SC-20."""
        return TERRAIN_COST[self.rows[p[1]][p[0]]]

    def neighbours(self, p: Pos) -> Iterator[Pos]:
        for dx, dy in DIRECTIONS:
            q = (p[0] + dx, p[1] + dy)
            if self.passable(q):
                yield q

    def render(self, marks: dict[Pos, str] | None = None) -> str:
        """The map as text with ``marks`` (a character per square) drawn over it."""
        marks = marks or {}
        return "\n".join("".join(marks.get((x, y), ch) for x, ch in enumerate(row)) for y, row in enumerate(self.rows))


@dataclass(frozen=True, slots=True)
class Reach:
    """Result of :func:`reachable`: the cost to each square and the previous square on a cheapest path."""

    cost: dict[Pos, int]
    previous: dict[Pos, Pos]

    def path_to(self, goal: Pos) -> list[Pos]:
        """Squares from (excluding) the start to ``goal`` (inclusive)."""
        path = [goal]
        while path[-1] in self.previous:
            path.append(self.previous[path[-1]])
        path.pop()
        return path[::-1]


def reachable(grid: Grid, start: Pos, budget: int, blocked: Iterable[Pos] = ()) -> Reach:
    """Every square reachable from ``start`` within ``budget`` movement, never entering ``blocked``.

    Squares one may pass through but not stop in (allies, SC-24) are the caller's filter on the result,
    since passing through them is legal. Ties between equal-cost paths prefer the earlier direction in
    :data:`DIRECTIONS`, so results are deterministic.
    """
    stop = set(blocked)
    cost: dict[Pos, int] = {start: 0}
    previous: dict[Pos, Pos] = {}
    heap: list[tuple[int, Pos]] = [(0, start)]
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost.get(p, budget + 1):
            continue
        for q in grid.neighbours(p):
            if q in stop:
                continue
            nc = c + grid.cost(q)
            if nc <= budget and nc < cost.get(q, budget + 1):
                cost[q] = nc
                previous[q] = p
                heapq.heappush(heap, (nc, q))
    return Reach(cost, previous)


def shortest_path(grid: Grid, start: Pos, goal: Pos, blocked: Iterable[Pos] = (), budget: int = 10_000
                  ) -> list[Pos] | None:
    """A cheapest path from ``start`` to ``goal`` (excluding ``start``), or ``None`` if there is none."""
    reach = reachable(grid, start, budget, blocked)
    return reach.path_to(goal) if goal in reach.cost else None


def path_cost(grid: Grid, path: Iterable[Pos]) -> int:
    return sum(grid.cost(p) for p in path)


def step_toward(grid: Grid, start: Pos, target: Pos, occupied: Iterable[Pos], away: bool = False) -> Pos | None:
    """One greedy step toward (or away from) ``target`` without entering ``occupied`` or walls (WH-B13).

    Toward: the free neighbour with the smallest (Chebyshev, squared Euclidean) distance, if that beats
    standing still. Away: the largest Chebyshev distance, then the smallest Euclidean (straight back rather
    than diagonal), if the Chebyshev distance grows. ``None`` means blocked (WH-08). Ties keep the earlier
    direction of :data:`DIRECTIONS`, so results are deterministic.
    """
    taken = set(occupied)
    here = distance(start, target)
    best: tuple[tuple[int, int], Pos] | None = None
    for q in grid.neighbours(start):
        if q in taken or q == target:
            continue
        cheb, eu = distance(q, target), euclid2(q, target)
        key = (-cheb, eu) if away else (cheb, eu)
        if best is None or key < best[0]:
            best = (key, q)
    if best is None:
        return None
    if away:
        return best[1] if -best[0][0] > here else None
    return best[1] if best[0] < (here, euclid2(start, target)) else None
