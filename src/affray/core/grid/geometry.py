"""Squares as coordinates: distance, adjacency, directions, facing and flanking on the shared grid.

Rules: X-3 and SC-23 (Chebyshev distance: a diagonal counts as one 5-ft square, 8 neighbours), WH-B13 (the
squared Euclidean tie-break), WH-B14 (facing, the 3 squares at the back), WH-B15 (the N/E/S/W sides of
an adjacent square, for flanking). Pure functions of positions; nothing here reads a map.
"""

from __future__ import annotations

Pos = tuple[int, int]

#: The 8 neighbour offsets in reading order (rows top to bottom). Searches try them in this order.
DIRECTIONS: tuple[Pos, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
#: The same 8 offsets in ring order, clockwise from north, for "the 3 squares at the back" (WH-B14).
RING: tuple[Pos, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_RING_INDEX = {d: i for i, d in enumerate(RING)}


def distance(a: Pos, b: Pos) -> int:
    """Squares between ``a`` and ``b`` with diagonals counting as one (Chebyshev). Rules: X-3, SC-23, WH-B13."""
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
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)  # sign(), inline: every blow faces its target


def behind(attacker: Pos, target: Pos, facing: Pos) -> bool:
    """Whether ``attacker`` stands in one of the 3 squares at the back of a target at ``target`` facing
    ``facing`` (a unit step). Rules: WH-25, WH-B14."""
    offset = (attacker[0] - target[0], attacker[1] - target[1])
    if offset not in _RING_INDEX or facing not in _RING_INDEX:
        return False
    back = (_RING_INDEX[facing] + 4) % 8
    return (_RING_INDEX[offset] - back) % 8 in (0, 1, 7)


def sides_of(offset: Pos) -> frozenset[str]:
    """The N/E/S/W sides an adjacent offset lies on (a diagonal is on two). Rule: WH-B15."""
    found = _SIDES.get(offset)
    return found if found is not None else _sides_of(offset)


def _sides_of(offset: Pos) -> frozenset[str]:
    out = set()
    if offset[0] > 0:
        out.add("e")
    elif offset[0] < 0:
        out.add("w")
    if offset[1] > 0:
        out.add("s")
    elif offset[1] < 0:
        out.add("n")
    return frozenset(out)


#: :func:`sides_of` of the offsets around a square (and of no offset), the only ones flanking asks about: made once.
_SIDES: dict[Pos, frozenset[str]] = {(dx, dy): _sides_of((dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def flanks(a: Pos, b: Pos, target: Pos, mode: str = "sides") -> bool:
    """Whether attackers at ``a`` and ``b``, both adjacent to ``target``, flank it. Rules: WH-26, WH-B15.

    ``sides``: their N/E/S/W side sets relative to the target are disjoint; ``opposite``: their offsets point
    apart (a negative dot product).
    """
    oa = (a[0] - target[0], a[1] - target[1])
    ob = (b[0] - target[0], b[1] - target[1])
    if mode == "opposite":
        return oa[0] * ob[0] + oa[1] * ob[1] < 0
    return not (sides_of(oa) & sides_of(ob))
