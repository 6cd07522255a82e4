"""Record (or re-record) the golden fights: every example scenario, two seeds, heuristic policies on every seat.

    python tests/golden/record.py                      # every example
    python tests/golden/record.py examples/hud/X.yaml  # only these (after a rule change; say which in the commit)

Each golden keeps the actions, the outcome, the rounds and the SHA-256 of the events' canonical JSON, so
``test_golden.py`` can tell that the same seeds still give the same fights (same seeds, same fights).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import affray
from affray.core.rng import FastRNG

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "fights.json"
SEEDS = (1, 2)


def fight(path: Path, seed: int) -> dict[str, Any]:
    scenario = affray.load_scenario(path)
    match = scenario.start(seed)
    policies = scenario.policies(match, {a: "heuristic" for a in match.controllers})
    affray.play(match, policies, FastRNG(seed))
    events = json.dumps([e.to_dict() for e in match.events()], sort_keys=True, separators=(",", ":"))
    outcome = match.outcome()
    return {
        "actions": [[e.actor, e.action] for e in match.log],
        "outcome": None if outcome is None else [outcome.winner, outcome.reason],
        "rounds": match.rounds(),
        "events_sha256": hashlib.sha256(events.encode()).hexdigest(),
    }


def examples() -> list[Path]:
    from tests.conformance.common import example_scenarios

    return example_scenarios()


def key(path: Path, seed: int) -> str:
    return f"{path.resolve().relative_to(ROOT)}#{seed}"


def main(argv: list[str]) -> None:
    data = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    paths = [Path(a) for a in argv] or examples()
    for path in paths:
        for seed in SEEDS:
            data[key(path, seed)] = fight(path, seed)
            print("recorded", key(path, seed))
    GOLDEN.write_text(json.dumps(dict(sorted(data.items())), indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])
