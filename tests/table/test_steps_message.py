"""A seat's message carries its due actors' choices as step trees (docs/table.md, "Steps"): the same actions as its
``legal`` lists, for the actors it has a move for and no other, holding no secret of another seat (another's
face-down card or hand)."""

from __future__ import annotations

import json
import random

import pytest

from affray.core.json import Json, as_object
from affray.core.match import Match
from affray.table import TableService, messages
from tests.table.people import all_people, random_move

FIGHTS = [
    "hud/nerdified_duel",
    "warp/knight_duel",
    "spellchrome/ford_duel",
    "witchhammer/mill_gate_duel",
    "witchhammer/mill_ambush",
]


def tree_leaves(step: Json) -> list[Json]:
    out: list[Json] = []
    for choice in as_object(step)["choices"] or []:  # type: ignore[union-attr]
        choice = as_object(choice)
        out += [choice["action"]] if "action" in choice else tree_leaves(choice["step"])
    return out


def canonical(actions: list[Json]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def hidden_in(match: Match, seat: str, text: str) -> list[str]:
    """The secrets of others (face-down cards and hands, GM-level sheets) that ``text`` holds for ``seat``, as the
    conformance suite's leak check finds them in a view."""
    viewer = match.viewer(seat)
    hidden = [(owner, secret, True) for owner, secret in match.ruleset.secrets(match.state)]
    hidden += [(owner, secret, False) for owner, secret in match.ruleset.gm_secrets(match.state)]
    return [
        f"{owner}: {secret!r}"
        for owner, secret, sealed in hidden
        if not (viewer.may_open(owner) if sealed else viewer.may_see(owner))
        and json.dumps(secret, sort_keys=True) in text
    ]


@pytest.mark.parametrize("scenario", FIGHTS)
def test_each_seat_s_steps_hold_exactly_its_legal_actions(service: TableService, scenario: str) -> None:
    table = all_people(service, scenario, seed=3)
    rng = random.Random(5)
    due_seen = 0
    for _ in range(25):
        with table.lock:
            for seat in table.seats.values():
                message = messages.seat_message(table, seat)
                legal, steps = as_object(message["legal"]), as_object(message["steps"])
                assert sorted(steps) == sorted(legal), (scenario, seat.name)  # a tree per due actor, none other
                for actor, specs in legal.items():
                    assert isinstance(specs, list)
                    wanted = canonical([as_object(s)["action"] for s in specs])
                    assert canonical(tree_leaves(steps[actor])) == wanted, (scenario, seat.name, actor)
                    due_seen += 1
                with table.shared.one_pass():  # a push's message holds the same trees
                    assert messages.seat_message(table, seat)["steps"] == steps
                assert not hidden_in(table.match, table.match_seat(seat), json.dumps(steps)), (scenario, seat.name)
        if not random_move(service, table, rng):
            break
    assert due_seen >= 10
