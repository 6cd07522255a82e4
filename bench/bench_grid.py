"""The grid's search against a plain Dijkstra, in one run (docs/grid.md, "How the search is made fast").

On the 12×12 map of ``spellchrome/crossroads_2v2``, the searches a Spellchrome move asks (budgets 6 and 12 squares,
every direction, up to four squares blocked by foes and six a mover may not leave, a tumble's double cost now and
then; seeded, the same cases every run) and a search of the whole map (budget 10,000, as a refusal's explanation
asks). Each is timed as ``affray.core.grid.paths._search`` runs it (its memo bypassed) and as the plain Dijkstra
keyed by ``(cost, (x, y))`` of ``tests/core/test_grid.py`` (the reference it is tested against) runs it: microseconds
per search, the best of several passes, and their ratio. Both give the same costs and paths (the test checks it).

Run: ``.venv/bin/python bench/bench_grid.py [--passes N]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the reference search lives in the tests
from tests.core.test_grid import _reference

import affray
from affray.core.grid import DIRECTIONS, Grid
from affray.core.grid.paths import _search

ROOT = Path(__file__).resolve().parents[1]

Case = tuple[Grid, tuple[int, int], int, frozenset[tuple[int, int]], frozenset[tuple[int, int]], int]


def cases(grid: Grid, n: int) -> list[Case]:
    """``n`` move searches as a Spellchrome turn asks them, from open squares (seeded)."""
    rng = random.Random(1)
    open_ = [(x, y) for x in range(grid.width) for y in range(grid.height) if grid.passable((x, y))]
    out = []
    for _ in range(n):
        start = rng.choice(open_)
        blocked = frozenset(rng.sample(open_, rng.randint(0, 4))) - {start}
        out.append(
            (
                grid,
                start,
                rng.choice((6, 12)),
                blocked,
                frozenset(rng.sample(open_, rng.randint(0, 6))),
                2 if rng.random() < 0.2 else 1,
            )
        )
    return out


def best_us(search: Callable[[Case], Any], work: list[Case], passes: int) -> float:
    """The fastest of ``passes`` passes over ``work``, in microseconds per search (wall clock, this process)."""
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for case in work:
            search(case)
        best = min(best, (time.perf_counter() - start) / len(work) * 1e6)
    return best


def main(passes: int) -> None:
    scenario = affray.load_scenario(ROOT / "examples/spellchrome/crossroads_2v2.yaml")
    grid = Grid.parse("\n".join(scenario.setup["map"]))
    moves = cases(grid, 800)
    whole: list[Case] = [(grid, (0, 0), 10_000, frozenset(), frozenset(), 1)] * 50
    search = _search.__wrapped__  # the search itself, not its memo

    def ours(c: Case) -> object:
        return search(*c, DIRECTIONS, None)

    def plain(c: Case) -> object:
        return _reference(*c, DIRECTIONS)

    print(f"the grid's search against a plain (cost, (x, y)) Dijkstra, best of {passes} passes, µs per search")
    for title, work in (
        ("a move's search (budget 6 or 12, 800 cases)", moves),
        ("the whole map (budget 10,000)", whole),
    ):
        a, b = best_us(ours, work, passes), best_us(plain, work, passes)
        print(f"  {title}: {a:.1f} against {b:.1f}: {b / a:.2f}x as fast")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=7)
    main(parser.parse_args().passes)
