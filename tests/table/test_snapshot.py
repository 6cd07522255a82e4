"""A snapshot of every example's match reads back as the match it was taken of (table/snapshot.py): the same view
and the same told log for every seat, the same legal actions and the same dice after it. A snapshot that is refused
costs a full replay only, so this is what keeps the snapshots of every ruleset in use."""

from __future__ import annotations

import json
import random

import pytest

from affray.core.engine import SPECTATOR, Accepted
from affray.core.match import Match
from affray.table.examples import catalogue
from affray.table.scenarios import resolve_scenario
from affray.table.snapshot import load, take

ACTIONS = 40  # random legal actions before the snapshot (fewer if the fight ends)
# The catalogue lists this balance file, which is not a scenario (no sides): no table can be opened from it.
NOT_A_SCENARIO = {"witchhammer/balance/elder_wight"}


def played(name: str) -> Match:
    scenario, _ = resolve_scenario(name)
    match = Match(scenario.plugin, scenario.setup, scenario.options, seed=bytes(range(32)), seats=scenario.seats)
    rng = random.Random(name)
    for _ in range(ACTIONS):
        window = match.pending()
        if window is None:
            break
        actor = window.actors[0]
        specs = match.legal(actor)
        if not specs:
            break
        match.act(actor, rng.choice(specs).action)
    return match


def told(match: Match, seat: str) -> str:
    return json.dumps([match.view_json(seat), match.events_since(0, seat, narrate=True)], sort_keys=True)


@pytest.mark.parametrize("name", sorted(set(catalogue()) - NOT_A_SCENARIO))
def test_every_examples_snapshot_reads_back_as_its_match(name: str) -> None:
    match = played(name)
    snapshot = take(match, "head")
    back = match.fresh()
    load(back, snapshot, [r.to_dict(events=False) for r in match.records], "head")
    assert back.version == match.version
    for seat in [*match.seat_names(), SPECTATOR]:
        assert told(back, seat) == told(match, seat)
    window = match.pending()
    if window is not None:  # the next action draws the same dice on both
        actor = window.actors[0]
        assert [s.to_dict() for s in back.legal(actor)] == [s.to_dict() for s in match.legal(actor)]
        action = match.legal(actor)[0].action
        first, second = match.act(actor, action), back.act(actor, action)
        assert isinstance(first, Accepted) and isinstance(second, Accepted)
        assert [e.to_dict() for e in first.events] == [e.to_dict() for e in second.events]
