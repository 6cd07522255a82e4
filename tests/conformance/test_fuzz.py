"""Property-based fuzz: random legal and illegal actions thrown at every example of every ruleset.

Invariants: nothing crashes; a rejection changes nothing; the ruleset's own invariants (HP, action counts
in bounds) hold after every step; replaying the accepted actions reproduces every event. Short in
``make test``; ``make fuzz`` sets AFFRAY_FUZZ_EXAMPLES for a long run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import affray
from affray.core.engine import GM, Rejected
from tests.conformance.common import example_scenarios, invariants, scenario_id
from tests.sweep import sample

EXAMPLES = int(os.environ.get("AFFRAY_FUZZ_EXAMPLES", "12"))
JUNK = st.dictionaries(
    st.sampled_from(["type", "target", "plan", "die", "weapon", "card", "slot", "to", "text"]),
    st.one_of(st.none(), st.integers(-3, 30), st.text(max_size=8), st.lists(st.integers(0, 3), max_size=3)),
    max_size=4,
)
MOVES = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), st.integers(0, 10_000)),
        st.tuples(st.just("junk"), JUNK),
        st.tuples(st.just("wrong_actor"), st.integers(0, 10_000)),
    ),
    min_size=5,
    max_size=150,
)


@pytest.mark.parametrize("path", sample(example_scenarios()), ids=scenario_id)
def test_fuzz_invariants_hold(path: Path) -> None:
    scenario = affray.load_scenario(path)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(moves=MOVES, seed=st.integers(0, 2**16))
    def run(moves: list[tuple[str, object]], seed: int) -> None:
        match = scenario.start(seed)
        for kind, arg in moves:
            window = match.pending()
            if window is None:
                break
            actor = window.actors[0]
            before = json.dumps(match.ruleset.snapshot(match.state), sort_keys=True)
            draws = match.rng.index
            if kind == "legal":
                legal = match.legal(actor)
                assert legal, f"{actor} has no legal action in {window.phase}"
                result = match.act(actor, legal[int(arg) % len(legal)].action)  # type: ignore[call-overload]
                assert not isinstance(result, Rejected), result
            else:
                if kind == "junk":
                    who, action = actor, dict(arg)  # type: ignore[call-overload]
                else:
                    others = [a for a in match.seats if a not in window.actors and a != GM] or [actor]
                    who, action = others[int(arg) % len(others)], {"type": "???"}  # type: ignore[call-overload]
                result = match.act(who, action)
                if isinstance(result, Rejected):
                    assert json.dumps(match.ruleset.snapshot(match.state), sort_keys=True) == before
                    assert match.rng.index == draws
            assert invariants(match) == []
        replay = match.replayed()
        assert [e.to_dict() for e in replay.events()] == [e.to_dict() for e in match.events()]

    run()
