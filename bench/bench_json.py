"""The views' JSON (docs/performance.md, "The views' JSON"): ``to_jsonable`` with its generated per-class converters
against the generic walker it replaced (a loop over each dataclass's field names with ``getattr``, kept here as the
baseline), on the same views in the same run, in CPU seconds (``time.process_time``: the machine is shared).

Every seat's view (the GM's and a spectator's included) is taken after each of up to STEPS random legal actions of
one fight per scenario; both ways must give the same JSON (checked before timing).

Run: ``.venv/bin/python bench/bench_json.py [STEPS]`` (default 150). Prints figures; asserts only that the two agree.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import affray
from affray.core.engine import GM, SPECTATOR
from affray.core.events import to_jsonable
from affray.core.rng import FastRNG
from affray.core.view import View

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the conformance suite's random step, for the same fights
from tests.conformance.common import random_step  # noqa: E402

SCENARIOS = ("witchhammer/witch_hut", "spellchrome/crossroads_2v2", "warp/melee_brawl", "hud/nerdified_night_widow")
_ATOMS = frozenset({type(None), bool, int, float, str})
_NAMES: dict[type, tuple[str, ...]] = {}


def walker(value: object) -> Any:
    """The baseline: to_jsonable as it was (field names cached per class, each read by ``getattr`` in a loop)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    names = _NAMES.get(kind)
    if names is not None:
        return {name: walker(getattr(value, name)) for name in names}
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
        return {name: walker(getattr(value, name)) for name in names}
    if isinstance(value, Mapping):
        return {str(k): walker(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(walker(v) for v in value)
    if isinstance(value, list | tuple):
        return [walker(v) for v in value]
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def views_of(example: str, steps: int) -> list[View[Any, Any]]:
    match = affray.load_scenario(ROOT / "examples" / f"{example}.yaml").start(5)
    rng = FastRNG(5)
    seats = sorted({*match.seat_names(), SPECTATOR, GM})
    views: list[View[Any, Any]] = []
    for _ in range(steps):
        views += [match.view(seat) for seat in seats]
        if not random_step(match, rng):
            break
    return views


def timed(convert: Any, views: list[View[Any, Any]]) -> float:
    start = time.process_time()
    for view in views:
        convert(view)
    return time.process_time() - start


def best_of(views: list[View[Any, Any]], runs: int = 9) -> tuple[float, float]:
    """The least CPU time of each way over ``runs`` rounds, the two alternating within every round (the machine's
    speed moves from one second to the next: alternating lets both see the same machine)."""
    old: list[float] = []
    new: list[float] = []
    for k in range(runs):
        for convert, into in ((walker, old), (to_jsonable, new)) if k % 2 == 0 else ((to_jsonable, new), (walker, old)):
            into.append(timed(convert, views))
    return min(old), min(new)


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    print(f"{'scenario':32} {'views':>6} {'walker us':>10} {'to_jsonable us':>15} {'ratio':>6}")
    for example in SCENARIOS:
        views = views_of(example, steps)
        for view in views:
            assert json.dumps(walker(view), sort_keys=True) == json.dumps(to_jsonable(view), sort_keys=True), example
        old, new = best_of(views)
        print(
            f"{example:32} {len(views):6d} {old / len(views) * 1e6:10.0f} {new / len(views) * 1e6:15.0f}"
            f" {old / new:5.2f}x"
        )


if __name__ == "__main__":
    main()
