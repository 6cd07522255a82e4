"""The shared square grid. Rules: X-3, SC-20, SC-23, SC-24, WH-B13."""

from __future__ import annotations

import pytest

from affray.core.grid import Grid, MapError, adjacent, distance, path_cost, reachable, shortest_path, step_toward

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


@pytest.mark.parametrize(("text", "fragment"), [("...\n..", "row 1 has 2 squares"), ("..x", "column 2: 'x'"),
                                                ("", "empty")])
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


def test_wh_b13_greedy_step_toward_and_away() -> None:
    """WH-B13: step to the free square closest by Chebyshev then Euclidean; stop when blocked."""
    grid = Grid.open(6, 6)
    assert step_toward(grid, (0, 0), (4, 0), []) == (1, 0)
    assert step_toward(grid, (0, 0), (4, 2), []) == (1, 1)
    assert step_toward(grid, (3, 3), (4, 3), []) is None  # already adjacent: no step improves
    assert step_toward(grid, (2, 2), (3, 2), [], away=True) == (1, 2)
    blocked = [(1, 0), (1, 1), (0, 1)]
    assert step_toward(grid, (0, 0), (4, 0), blocked) is None
