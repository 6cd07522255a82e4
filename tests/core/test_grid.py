"""The shared square grid. Rules: X-3, SC-18, SC-20, SC-23, SC-24, WH-B13, WH-B14, WH-B15, ruling SC-R10."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from affray.core.grid import (
    DIRECTIONS,
    Grid,
    MapError,
    Pos,
    adjacent,
    behind,
    clear_line,
    distance,
    flanks,
    links,
    open_squares,
    path_cost,
    reachable,
    shortest_path,
    sides_of,
    step_toward,
)

MAP = """
.....
.##..
.~^..
.....
"""


def test_sc23_diagonal_counts_as_one_square() -> None:
    """SC-23 / X-3: Chebyshev distance; the 8 surrounding squares are adjacent."""
    assert distance((0, 0), (3, 3)) == 3
    assert distance((0, 0), (3, 1)) == 3
    assert adjacent((2, 2), (3, 3)) and adjacent((2, 2), (2, 1))
    assert not adjacent((2, 2), (2, 2)) and not adjacent((2, 2), (4, 2))


def test_parse_reads_walls_and_terrain_costs_sc20() -> None:
    """SC-20: difficult terrain at half speed costs 2 per square, at a third 3."""
    grid = Grid.parse(MAP)
    assert (grid.width, grid.height) == (5, 4)
    assert not grid.passable((1, 1)) and not grid.passable((5, 0)) and grid.passable((0, 0))
    assert grid.cost((1, 2)) == 2 and grid.cost((2, 2)) == 3 and grid.cost((0, 0)) == 1


def test_sc20_a_whole_move_square_costs_what_the_mover_says() -> None:
    """SC-20 "5 ft per move action": '%' costs a whole move, which the caller names; unnamed, no budget covers it."""
    grid = Grid.parse("..%..")
    assert grid.cost((2, 0), 6) == 6 and grid.cost((2, 0)) > 10_000
    assert path_cost(grid, [(1, 0), (2, 0)], whole=6) == 7
    assert open_squares(grid)[(2, 0)] == 0  # the legend's mark for "a whole move"


def test_sc20_a_whole_move_square_is_entered_first_and_ends_the_move() -> None:
    """SC-20: by default a '%' square costs the whole budget: a move enters it only as its first square."""
    grid = Grid.parse("..%..\n.....")
    assert reachable(grid, (1, 0), 6).cost[(2, 0)] == 6
    assert (2, 0) not in reachable(grid, (0, 0), 6, blocked=[(1, 1)]).cost  # one square spent already
    assert reachable(grid, (0, 0), 12, whole=6).cost[(2, 0)] == 7  # a run's two moves: one goes on it


@pytest.mark.parametrize(
    ("text", "fragment"), [("...\n..", "row 1 has 2 squares"), ("..x", "column 2: 'x'"), ("", "empty")]
)
def test_bad_maps_name_the_square(text: str, fragment: str) -> None:
    with pytest.raises(MapError, match=fragment):
        Grid.parse(text)


def test_shortest_path_goes_around_walls_and_prices_terrain() -> None:
    grid = Grid.parse(MAP)
    path = shortest_path(grid, (0, 1), (3, 1))
    assert path is not None and path[-1] == (3, 1)
    assert path_cost(grid, path) == 3  # over the top of the wall, diagonals counting one
    through_mud = shortest_path(grid, (0, 2), (3, 2), blocked=[(0, 1), (1, 3), (0, 3), (2, 3)])
    assert through_mud == [(1, 2), (2, 2), (3, 2)]
    assert path_cost(grid, through_mud) == 6


def test_reachable_respects_budget_and_blocked_squares_sc24() -> None:
    """SC-24: opponents' squares cannot be entered; the budget is the speed in squares."""
    grid = Grid.open(7, 1)
    reach = reachable(grid, (0, 0), 6, blocked=[(3, 0)])
    assert sorted(reach.cost) == [(0, 0), (1, 0), (2, 0)]
    open_reach = reachable(grid, (0, 0), 4)
    assert max(open_reach.cost.values()) == 4 and (5, 0) not in open_reach.cost


def test_sc24_stop_at_squares_are_entered_but_never_left() -> None:
    """SC-24/SC-27: a square one may enter but not leave (leaving it would provoke) ends every path through it;
    the start itself may always be left."""
    grid = Grid.open(5, 1)
    reach = reachable(grid, (0, 0), 6, stop_at=[(0, 0), (2, 0)])
    assert sorted(reach.cost) == [(0, 0), (1, 0), (2, 0)]
    around = reachable(Grid.open(5, 3), (0, 1), 6, stop_at=[(2, 0), (2, 1), (2, 2), (9, 9)])
    assert (3, 1) not in around.cost and around.cost[(2, 1)] == 2


def test_sc20_mult_and_sc18_dirs_price_tumbling_and_straighten_runs() -> None:
    """A tumble costs double (SC-24's half speed); a run steps only in the directions it is given (SC-18)."""
    grid = Grid.open(6, 6)
    assert reachable(grid, (0, 0), 6, mult=2).cost[(3, 3)] == 6
    run = reachable(grid, (0, 0), 10, dirs=((1, 0), (1, 1)))
    assert set(run.cost) == {(x, y) for x in range(6) for y in range(6) if y <= x}
    assert run.path_to((3, 1)) == [(1, 0), (2, 0), (3, 1)]  # ties settle in (x, y) order: deterministic

    with pytest.raises(ValueError, match="cost multiplier is 1 or more, not 0"):
        reachable(grid, (0, 0), 6, mult=0)  # a free step would let a cost level grow while it is settled


def test_neighbour_links_are_built_once_per_map() -> None:
    """Equal maps share one compiled set of links; walls and the edge are left out."""
    grid = Grid.parse(MAP)
    assert links(grid) is links(Grid.parse(MAP))
    assert grid.neighbours((0, 0)) == [(1, 0), (0, 1)]


def test_sc_r10_clear_line_stops_at_walls_but_not_at_its_ends() -> None:
    """Ruling SC-R10: a ranged attack needs a Bresenham line with no wall between the squares."""
    grid = Grid.parse("#.....\n..#...\n......")
    assert not clear_line(grid, (0, 1), (4, 1))
    assert clear_line(grid, (0, 0), (5, 0))  # the wall at (0, 0) is an end, so it does not count
    assert clear_line(grid, (1, 0), (5, 0)) and clear_line(grid, (0, 2), (5, 2))
    assert clear_line(grid, (3, 1), (3, 1))


def test_wh_b14_behind_is_the_three_squares_at_the_back() -> None:
    """WH-25/WH-B14: facing north, the back is the three squares to the south."""
    back = {(x, y) for x in range(4, 7) for y in range(4, 7) if behind((x, y), (5, 5), (0, -1))}
    assert back == {(4, 6), (5, 6), (6, 6)}
    assert not behind((5, 6), (5, 5), (0, 0))  # no facing, no back


def test_wh_b15_sides_and_flanks() -> None:
    """WH-B15: a diagonal lies on two sides; flankers on disjoint sides ('sides') or opposite ('opposite')."""
    assert sides_of((1, -1)) == {"e", "n"} and sides_of((0, 1)) == {"s"}
    assert flanks((4, 5), (5, 4), (5, 5)) and not flanks((4, 5), (5, 4), (5, 5), "opposite")
    assert not flanks((4, 4), (6, 4), (5, 5))


def test_wh_b13_greedy_step_toward_and_away() -> None:
    """WH-B13: step to the free square closest by Chebyshev then Euclidean; stop when blocked."""
    grid = Grid.open(6, 6)
    assert step_toward(grid, (0, 0), (4, 0), []) == (1, 0)
    assert step_toward(grid, (0, 0), (4, 2), []) == (1, 1)
    assert step_toward(grid, (3, 3), (4, 3), []) is None  # already adjacent: no step improves
    assert step_toward(grid, (2, 2), (3, 2), [], away=True) == (1, 2)
    blocked = [(1, 0), (1, 1), (0, 1)]
    assert step_toward(grid, (0, 0), (4, 0), blocked) is None


def _reference(
    grid: Grid,
    start: Pos,
    budget: int,
    blocked: Iterable[Pos],
    stop_at: Iterable[Pos],
    mult: int,
    dirs: tuple[Pos, ...],
) -> tuple[list[tuple[Pos, int]], list[tuple[Pos, Pos]]]:
    """The plain Dijkstra the indexed search replaced: a heap of (cost, (x, y)), tuples for squares."""
    stop, halt = set(blocked), set(stop_at)
    cost, previous, heap = {start: 0}, {}, [(0, start)]
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost[p] or (p in halt and p != start):
            continue
        for dx, dy in dirs:
            q = (p[0] + dx, p[1] + dy)
            if not grid.passable(q) or q in stop:
                continue
            nc = c + mult * grid.cost(q, max(1, budget))
            if nc <= budget and nc < cost.get(q, budget + 1):
                cost[q], previous[q] = nc, p
                heapq.heappush(heap, (nc, q))
    return list(cost.items()), list(previous.items())


squares = st.tuples(st.integers(-1, 8), st.integers(-1, 8))


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.text(".~^%#", min_size=8, max_size=8), min_size=8, max_size=8),
    start=st.tuples(st.integers(0, 7), st.integers(0, 7)),
    budget=st.integers(0, 14),
    blocked=st.lists(squares, max_size=6),
    stop_at=st.lists(squares, max_size=8),
    mult=st.sampled_from([1, 2]),
    dirs=st.sampled_from([DIRECTIONS, ((1, 0), (1, 1)), ((0, -1),)]),
)
def test_x3_search_matches_a_plain_dijkstra(
    rows: list[str], start: Pos, budget: int, blocked: list[Pos], stop_at: list[Pos], mult: int, dirs: tuple[Pos, ...]
) -> None:
    """The indexed search gives the same costs and the same previous squares, in the same order, as a plain
    Dijkstra keyed by (cost, (x, y)): paths, and so replays, do not depend on how the search is written."""
    grid = Grid.parse("\n".join(rows))
    reach = reachable(grid, start, budget, blocked, stop_at, mult, dirs)
    assert (list(reach.cost.items()), list(reach.previous.items())) == _reference(
        grid, start, budget, blocked, stop_at, mult, dirs
    )
