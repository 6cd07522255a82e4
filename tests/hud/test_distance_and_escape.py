"""Escapes in the simulation's reports. Rules: WL-B14, WL-22."""

from __future__ import annotations

from affray.core.engine import Outcome
from affray.sim.stats import Tally, summary


def test_wl_b14_escapes_are_counted_apart_from_wins_and_draws() -> None:
    """WL-B14: a fight that ends as *escaped* is neither a win nor a draw in the simulation's tally."""
    tally = Tally()
    tally.add(Outcome(None, "escaped", {"escaped": ["a"], "held_the_field": "B", "down": []}), 3, {})
    tally.add(Outcome("B", "every foe is down"), 4, {})
    tally.add(Outcome(None, "round limit of 200 reached"), 200, {})
    other = Tally()
    other.add(Outcome(None, "escaped"), 2, {})
    tally.merge(other)
    report = summary(tally, ["A", "B"], {})
    assert (tally.escapes, tally.draws, tally.wins) == (2, 1, {"B": 1})
    assert report["escapes"]["count"] == 2 and report["escapes"]["rate"] == 0.5
    assert report["draws"]["count"] == 1 and report["sides"]["B"]["wins"] == 1
