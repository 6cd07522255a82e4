"""The map: an immutable ASCII grid, its legend, and the neighbour links searches walk.

Legend (rules X-3, SC-20)::

    .  open ground                                   #  wall (impassable, blocks lines of fire)
    ~  difficult terrain: half speed (costs 2)       ^  very difficult terrain: a third of speed (costs 3)
    %  "5 ft per move action" (SC-20): entering it takes a whole move

What a whole move is belongs to the ruleset (a Spellchrome move action's squares, a WitchHammer card's
move), so :meth:`Grid.cost` takes it as ``whole``. ``(x, y)`` is (column, row) from the top left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from affray.core.grid.geometry import DIRECTIONS, Pos

#: Squares of movement it costs to enter each legend character; 0 marks the whole-move square ``%``.
TERRAIN_COST = {".": 1, "~": 2, "^": 3, "%": 0}
WALL = "#"
WHOLE_MOVE = "%"
#: What ``%`` costs when the caller does not say what a whole move is: more than any budget.
BEYOND = 1 << 30
_LEGEND = "'.', '#', '~' (half speed), '^' (third speed) or '%' (5 ft per move action)"


class MapError(ValueError):
    """An ASCII map that cannot be read; the message names the row and column."""


MAX_SIDE = 200
MAX_SQUARES = 10_000


def check_size(width: int, height: int) -> None:
    """Refuse a map of fewer than one or more than :data:`MAX_SIDE` squares a side, or more than
    :data:`MAX_SQUARES` in all (path searches visit every square; documented in docs/grid.md)."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height > MAX_SQUARES:
        raise MapError(
            f"a map of {width} x {height} squares; expected 1 to {MAX_SIDE} squares a side and at "
            f"most {MAX_SQUARES:,} in all"
        )


@dataclass(frozen=True, slots=True)
class Grid:
    """An immutable map. Build one with :meth:`parse`."""

    width: int
    height: int
    rows: tuple[str, ...]
    # The hash of the three fields, computed once: maps key the caches of links, weights, searches and lines of
    # sight (``lru_cache``), which hash the map at every call.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.width, self.height, self.rows)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Grid], tuple[int, int, tuple[str, ...]]]:
        # rebuilt from its fields, so the hash is computed again: a str hashes differently in another process
        return Grid, (self.width, self.height, self.rows)

    @classmethod
    def parse(cls, text: str) -> Grid:
        if len(text) > 2 * MAX_SQUARES:  # refuse before splitting a huge text into lines
            raise MapError(f"the map is too large: at most {MAX_SIDE} squares a side and {MAX_SQUARES:,} in all")
        lines = [line.strip() for line in text.strip("\n").splitlines() if line.strip()]
        if not lines:
            raise MapError("the map is empty; expected rows of '.', '#', '~', '^' and '%'")
        check_size(len(lines[0]), len(lines))
        width = len(lines[0])
        for y, line in enumerate(lines):
            if len(line) != width:
                raise MapError(f"row {y} has {len(line)} squares but row 0 has {width}; rows must be equally long")
            for x, ch in enumerate(line):
                if ch != WALL and ch not in TERRAIN_COST:
                    raise MapError(f"row {y}, column {x}: '{ch}' is not a map square; expected {_LEGEND}")
        return cls(width, len(lines), tuple(lines))

    @classmethod
    def open(cls, width: int, height: int) -> Grid:
        """An open map of ``width`` by ``height`` squares (:class:`MapError` outside :func:`check_size`)."""
        check_size(width, height)
        return cls(width, height, tuple("." * width for _ in range(height)))

    def in_bounds(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def passable(self, p: Pos) -> bool:
        return self.in_bounds(p) and self.rows[p[1]][p[0]] != WALL

    def cost(self, p: Pos, whole: int = BEYOND) -> int:
        """Squares of movement it costs to enter ``p``: 1, 2 or 3 (SC-20), or ``whole`` for a ``%`` square,
        which takes a whole move (by default more than any budget, so it is never entered by accident)."""
        return TERRAIN_COST[self.rows[p[1]][p[0]]] or whole

    def neighbours(self, p: Pos) -> list[Pos]:
        """The open squares around ``p``, in :data:`DIRECTIONS` order."""
        if self.in_bounds(p):
            net = links(self, DIRECTIONS)
            pos = net.pos
            return [pos[j] for j in net.nbrs[p[0] * self.height + p[1]]]
        return [q for q in ((p[0] + dx, p[1] + dy) for dx, dy in DIRECTIONS) if self.passable(q)]

    def render(self, marks: dict[Pos, str] | None = None) -> str:
        """The map as text with ``marks`` (a character per square) drawn over it."""
        marks = marks or {}
        return "\n".join("".join(marks.get((x, y), ch) for x, ch in enumerate(row)) for y, row in enumerate(self.rows))


@dataclass(frozen=True, slots=True)
class Links:
    """A map compiled for searching in the directions ``dirs``, built once per map (:func:`links`).

    A square is an index ``x * height + y``, so index order is (x, y) order and a search that pops the
    cheapest index first visits squares in the same order as one keyed by ``(cost, (x, y))``.
    ``terrain[i]`` is the legend cost (0: wall or ``%``), ``open[i]`` whether ``i`` is passable, and
    ``nbrs[i]`` the open neighbours of ``i`` in ``dirs`` order (walls have theirs too: a search may start
    anywhere on the map).
    """

    height: int
    size: int
    pos: tuple[Pos, ...]
    terrain: tuple[int, ...]
    open: tuple[bool, ...]
    nbrs: tuple[tuple[int, ...], ...]

    def index(self, p: Pos) -> int:
        return p[0] * self.height + p[1]


@lru_cache(maxsize=256)
def links(grid: Grid, dirs: tuple[Pos, ...] = DIRECTIONS) -> Links:
    """The neighbour links of ``grid`` in ``dirs``, cached per map (equal maps share them)."""
    w, h = grid.width, grid.height
    pos = tuple((i // h, i % h) for i in range(w * h))
    open_ = tuple(grid.rows[y][x] != WALL for x, y in pos)
    terrain = tuple(TERRAIN_COST[grid.rows[y][x]] if o else 0 for (x, y), o in zip(pos, open_, strict=True))
    nbrs = []
    for x, y in pos:
        near = ((x + dx, y + dy) for dx, dy in dirs)
        nbrs.append(tuple(qx * h + qy for qx, qy in near if 0 <= qx < w and 0 <= qy < h and open_[qx * h + qy]))
    return Links(h, w * h, pos, terrain, open_, tuple(nbrs))


@lru_cache(maxsize=256)
def weights(grid: Grid, mult: int, whole: int) -> tuple[int, ...]:
    """What entering each square costs a mover: ``mult`` × its terrain cost, ``whole`` standing for ``%``."""
    net = links(grid)
    return tuple(mult * (t or whole) for t in net.terrain)


@lru_cache(maxsize=256)
def open_squares(grid: Grid) -> dict[Pos, int]:
    """Every passable square of ``grid`` and its legend cost (0 for ``%``: a whole move), cached per map:
    treat it as read-only. Rule: SC-20."""
    net = links(grid)
    return {p: t for p, t, o in zip(net.pos, net.terrain, net.open, strict=True) if o}
