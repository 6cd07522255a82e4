"""The WebSocket's protocol 2 (table/patch.py): after its first message, a seat is pushed a JSON Patch of the message
before it. Over whole fights of all four rulesets (every combatant played by a person, random legal actions, and the
GM pausing, resuming, whispering to a seat, and the GM's count of connections changing on the way), at every push
pass, applying each protocol-2 follower's patch to the message it had gives exactly the message a protocol-1 follower
of the same seat is sent in the same pass; a seat to which nothing changed is sent nothing; and the patches are
smaller."""

from __future__ import annotations

import gc
import json
import random
from typing import Any

import pytest

from affray.core.json import Json
from affray.table import TableService, chat, feed, gm
from affray.table.feed import Follower, Push
from affray.table.patch import apply, between, cut, dumps, fingerprint, whole
from tests.table.people import all_people, random_move

FIGHTS = ["spellchrome/crossroads_2v2", "witchhammer/mill_ambush", "warp/melee_brawl", "hud/nerdified_night_widow"]


def decoded(push: Push) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(push.text)
    return data


@pytest.mark.parametrize("scenario", FIGHTS)
def test_each_patch_turns_the_message_before_it_into_exactly_the_whole_message(
    service: TableService, scenario: str
) -> None:
    table = all_people(service, scenario, seed=5)
    rng = random.Random(11)
    seats = list(table.seats.values())
    wholes = [Follower(s, s.token_hash or "", lambda _push: None) for s in seats]
    patched = [Follower(s, s.token_hash or "", lambda _push: None, patches=True) for s in seats]
    with table.lock:
        had: dict[str, Json] = {f.seat.name: decoded(feed.first_push(table, f)) for f in patched}
        for f in wholes:
            assert decoded(feed.first_push(table, f)) == had[f.seat.name]
    whole_bytes = patch_bytes = passes = quiet = 0
    for move in range(40):
        if move in (6, 7):
            gm.set_paused(service.ledger, table, table.seats["gm"], move == 6)
        elif move == 8:  # a whisper: only its sender's and its addressee's messages change
            player = next(s.name for s in seats if s.role == "player")
            chat.post(service.ledger, table, table.seats["gm"], player, text="Watch the left flank.")
        elif move == 9:
            table.connected["gm"] = table.connected.get("gm", 0) + 1  # what the GM's message shows changes alone
        else:
            if not random_move(service, table, rng):
                break
        with table.lock:  # one pass for both protocols, in turns, as a table's connections are
            both = feed.pushes(table, wholes + patched if move % 2 else patched + wholes)
        sent = {f.seat.name: decoded(p) for f, p in both if not f.patches}
        pushed = {f.seat.name: p for f, p in both if f.patches}
        passes += 1
        for name, message in sent.items():
            if name not in pushed:  # nothing it may see changed: nothing is sent
                quiet += 1
                assert message == had[name]
                continue
            operations = decoded(pushed[name])["patch"]
            had[name] = apply(had[name], operations)
            assert had[name] == message, (scenario, name, table.version)
            # The step trees are the legal lists again in another shape (docs/table.md, "Steps"), replaced whole at
            # each move as they are: counted apart, so that the ratio measures the cut, not how many choices there are.
            whole_bytes += len(json.dumps({k: v for k, v in message.items() if k != "steps"}))
            patch_bytes += len(pushed[name].text) - sum(
                len(dumps(op)) + 1 for op in operations if op["path"] == "/steps"
            )
    assert passes >= 20 and table.version >= 15
    assert quiet > 0  # the GM's connection count: a change only the GM's message holds
    assert patch_bytes * 2 < whole_bytes  # each push is less than half of the whole message


def test_a_patch_replaces_only_what_changed_and_a_part_whose_shape_changed_whole() -> None:
    before: Any = {
        "version": 3,
        "view": {"round": 1, "combatants": [{"id": "a", "hp": 5}, {"id": "b", "hp": 4}]},
        "log": [],
        "odd/key~": 1,
    }
    _, units = whole(cut(before))
    after = {
        "version": 4,
        "view": {"round": 1, "combatants": [{"id": "a", "hp": 5}, {"id": "b", "hp": 1}]},
        "log": [{"seq": 3}],
        "odd/key~": 2,
    }
    text, _ = between(units, cut(after))
    assert text is not None
    assert json.loads(text) == {
        "patch": [
            {"op": "replace", "path": "/version", "value": 4},
            {"op": "replace", "path": "/view/combatants/1", "value": {"id": "b", "hp": 1}},
            {"op": "replace", "path": "/log", "value": [{"seq": 3}]},
            {"op": "replace", "path": "/odd~1key~0", "value": 2},
        ]
    }
    assert apply(before, json.loads(text)["patch"]) == after
    fewer = {**after, "view": {"round": 2, "combatants": [{"id": "a", "hp": 5}]}}  # a list of another length
    text, _ = between(units, cut(fewer))
    assert text is not None
    assert {"op": "replace", "path": "/view/combatants", "value": [{"id": "a", "hp": 5}]} in json.loads(text)["patch"]
    assert apply(before, json.loads(text)["patch"]) == fewer
    other = {**after, "view": {"round": 1, "winner": "a"}}  # other fields: the view is sent whole
    text, _ = between(units, cut(other))
    assert text is not None
    assert {"op": "replace", "path": "/view", "value": {"round": 1, "winner": "a"}} in json.loads(text)["patch"]
    assert apply(before, json.loads(text)["patch"]) == other
    assert between(units, cut(before))[0] is None  # nothing changed: no push


def test_units_written_for_one_seat_are_given_to_another_holding_the_same_object() -> None:
    """``cut(..., written=)``: a part two seats' messages hold as the same object (a view's parts, converted once for
    every seat) is written once, and both get the very same text (hashed once for their fingerprints); a part equal
    but not the same object is written again; every unit is the text ``cut`` alone gives."""
    shared: Any = {"id": "a", "hp": 5, "bars": [1, 2]}
    mine: Any = {"round": 1, "combatants": [shared, {"id": "b", "hp": 4}], "map": [[0, 1]]}
    theirs: Any = {"round": 1, "combatants": [shared, {"id": "b", "hp": 4}], "map": mine["map"]}
    written: dict[int, tuple[object, bytes]] = {}
    first = cut({"view": mine}, written=written)
    second = cut({"view": theirs}, written=written)
    assert first == cut({"view": mine}) and second == cut({"view": theirs})
    assert second["/view/combatants/0"] is first["/view/combatants/0"]
    assert second["/view/map"] is first["/view/map"]
    assert second["/view/combatants/1"] is not first["/view/combatants/1"]  # equal, but another object
    assert first["/view/combatants/0"] == b'{"id":"a","hp":5,"bars":[1,2]}'


def test_what_a_connection_keeps_between_pushes_is_nothing_the_cyclic_collector_walks(service: TableService) -> None:
    """A connection keeps its message's fingerprints from one change of its table to the next (seconds, minutes):
    integers and strings only, in a dict that CPython therefore never tracks, so a busy server's collections do not
    walk six of them an action (docs/performance.md, "Garbage collection and pings"). Distinct units keep distinct
    fingerprints: a leaf, a split object's field names and a split list's length never compare equal."""
    from affray.table.messages import seat_units

    table = all_people(service, FIGHTS[0], seed=3)
    seat = next(iter(table.seats.values()))
    rng = random.Random(4)
    with table.lock:
        _text, units = whole(seat_units(table, seat))
    assert random_move(service, table, rng)
    with table.lock:
        _patch, after = between(units, seat_units(table, seat, 0))
    for kept in (units, after):
        assert not gc.is_tracked(kept)
        assert {type(mark) for mark in kept.values()} == {int, str}
    assert fingerprint(b"3") != fingerprint(3) and fingerprint(()) != fingerprint(b'""') != fingerprint(0)
