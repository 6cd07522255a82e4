"""Same seeds give the same fights (DESIGN.md contract 4): every example replays the golden fights recorded before
the refactor — the same heuristic choices, the same events (by hash), the same outcome and rounds. A golden is
re-recorded only when a rule change alters that fight, and the commit names the rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.record import GOLDEN, ROOT, SEEDS, examples, fight, key

RECORDED = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("path", examples(), ids=lambda p: str(p.relative_to(ROOT / "examples")))
@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_seed_gives_the_same_fight(path: Path, seed: int) -> None:
    golden = RECORDED.get(key(path, seed))
    assert golden is not None, f"no golden for {key(path, seed)}: run tests/golden/record.py {path}"
    again = fight(path, seed)
    assert again["actions"] == golden["actions"]
    assert (again["outcome"], again["rounds"]) == (golden["outcome"], golden["rounds"])
    assert again["events_sha256"] == golden["events_sha256"]
