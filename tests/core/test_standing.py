"""A move chosen at an earlier version still stands in a simultaneous window behind other actors' moves, and only
there (core/standing.py): the rule that keeps two players who click at once from bouncing."""

from __future__ import annotations

from pathlib import Path

import affray
from affray.core.engine import GM, Accepted, Rejected
from affray.core.match import Match
from affray.core.rng import seed_from_int
from tests.core.toy import PLUGIN

EXAMPLES = Path(__file__).parents[2] / "examples"


def toy() -> Match:
    return Match(PLUGIN, {}, seed=seed_from_int(4))


def refused(result: object, reason: str) -> bool:
    return isinstance(result, Rejected) and result.code == "stale_version" and result.reason == reason


def test_two_bids_chosen_at_version_0_are_both_taken_and_the_second_says_so() -> None:
    m = toy()
    assert isinstance(m.act("a", {"type": "bid", "value": 2}, version=0), Accepted)
    assert isinstance(m.act("b", {"type": "bid", "value": 1}, version=0), Accepted)
    assert [(r.seq, r.chosen_at) for r in m.records] == [(0, None), (1, 0)]
    assert [e.get("chosen_at") for e in m.events_since(0, "a")] == [None, 0]
    assert m.outcome() is not None


def test_the_same_actor_twice_a_take_back_or_a_ruling_since_is_still_stale() -> None:
    m = toy()
    m.act("a", {"type": "bid", "value": 2}, version=0)
    # the same actor again at version 0 (a second tab): refused before the rules see it
    assert refused(m.act("a", {"type": "bid", "value": 3}, version=0), "acted_since")
    m.take_back("a", version=1)
    assert refused(m.act("b", {"type": "bid", "value": 1}, version=0), "taken_back")
    assert refused(m.act("b", {"type": "bid", "value": 1}, version=1), "taken_back")
    assert isinstance(m.act("b", {"type": "bid", "value": 1}, version=2), Accepted)
    m2 = toy()
    m2.rule(GM, {"type": "ruling", "reason": "", "changes": [{"combatant": "a", "bar": "Luck", "value": 4}]}, version=0)
    assert refused(m2.act("b", {"type": "bid", "value": 1}, version=0), "taken_back")
    assert refused(m2.act("b", {"type": "bid", "value": 1}, version=5), "moved_on")


def test_planning_moves_stand_behind_each_other_and_not_once_the_phase_moved_on() -> None:
    """Rules: WH-03 (every combatant places its two cards at once), WH-01 (then Violence)."""
    scenario = affray.load_scenario(EXAMPLES / "witchhammer" / "yard_duel.yaml")
    m = scenario.start(5)
    window = m.pending()
    assert window is not None and window.phase == "planning" and window.simultaneous == "v1.planning"
    bruna, tomas = sorted(a for a in window.actors if a != GM)
    place = {a: next(s.action for s in m.legal(a) if s.action["type"] == "place") for a in (bruna, tomas)}
    assert isinstance(m.act(bruna, place[bruna], version=0), Accepted)
    assert isinstance(m.act(tomas, place[tomas], version=0), Accepted)  # chosen before bruna's place arrived
    assert isinstance(m.act(bruna, {"type": "ready"}, version=1), Accepted)  # chosen at 1: tomas's place between
    assert m.records[-1].chosen_at == 1
    assert refused(m.act(bruna, {"type": "ready"}, version=2), "acted_since")
    assert isinstance(m.act(tomas, {"type": "ready"}, version=3), Accepted)
    # Violence had no choices to make, so the next vignette's Planning is open: another opening of the window
    after = m.pending()
    assert after is not None and after.simultaneous == "v2.planning"
    # a move chosen in the first vignette's Planning, arriving now, does not stand
    assert refused(m.act(bruna, place[bruna], version=3), "moved_on")


def test_a_turn_based_window_never_lets_an_earlier_version_stand() -> None:
    """Rule: SC-16 (combatants act one at a time, in initiative order)."""
    scenario = affray.load_scenario(EXAMPLES / "spellchrome" / "ford_duel.yaml")
    m = scenario.start(2)
    window = m.pending()
    assert window is not None and window.simultaneous == ""
    first = window.actors[0]
    while (now := m.pending()) is not None and now.actors[0] == first:
        end = next(s.action for s in m.legal(first) if s.action["type"] == "end_turn")
        assert isinstance(m.act(first, end, version=m.version), Accepted)
    assert now is not None
    second = now.actors[0]
    assert refused(m.act(second, m.legal(second)[0].action, version=0), "moved_on")
