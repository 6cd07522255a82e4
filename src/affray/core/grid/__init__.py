"""A square battle grid shared by WitchHammer and Spellchrome (Rules: X-3, SC-20, SC-23, SC-24, WH-B13..WH-B15).

Maps are ASCII, one character a square, rows top to bottom; ``(x, y)`` is (column, row) from the top
left. Legend: ``.`` open, ``#`` wall, ``~`` half speed (costs 2), ``^`` a third of speed (costs 3), ``%``
5 ft per move action (a whole move to enter). Distance is Chebyshev (a diagonal counts as one 5-ft
square), adjacency is the 8 squares around. Paths are found by Dijkstra over terrain costs with a small
heap (no library: the graphs here have a few hundred squares, and the occupancy rules — squares one may
pass but not stop in, squares one may enter but not leave — are easier to state directly than to bend a
general library to; see docs/grid.md).

Modules: :mod:`~affray.core.grid.geometry` (distance, directions, facing, flanking),
:mod:`~affray.core.grid.board` (the map, its legend, cached neighbour links) and
:mod:`~affray.core.grid.paths` (searches, greedy steps, lines of fire). Everything is importable from here.
"""

from affray.core.grid.board import (
    BEYOND,
    TERRAIN_COST,
    WALL,
    WHOLE_MOVE,
    Grid,
    Links,
    MapError,
    links,
    open_squares,
    weights,
)
from affray.core.grid.geometry import (
    DIRECTIONS,
    RING,
    Pos,
    adjacent,
    behind,
    direction,
    distance,
    euclid2,
    flanks,
    sides_of,
    sign,
)
from affray.core.grid.paths import Reach, clear_line, path_cost, reachable, shortest_path, step_toward

__all__ = [
    "BEYOND",
    "DIRECTIONS",
    "RING",
    "TERRAIN_COST",
    "WALL",
    "WHOLE_MOVE",
    "Grid",
    "Links",
    "MapError",
    "Pos",
    "Reach",
    "adjacent",
    "behind",
    "clear_line",
    "direction",
    "distance",
    "euclid2",
    "flanks",
    "links",
    "open_squares",
    "path_cost",
    "reachable",
    "shortest_path",
    "sides_of",
    "sign",
    "step_toward",
    "weights",
]
