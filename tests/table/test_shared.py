"""The shared parts of seat messages (table/parts.py): built once and given to every seat that may see them alike,
they never carry one seat's secret to another. Over a WitchHammer fight with face-down cards (WH-10: each fighter's
cards are placed face down and turned later), at every version every seat's message (the whole state, and the part
since the previous version, built in changing orders so that each seat in turn meets what another seat's build left
in the cache) equals the uncached build: the view, legal actions and told log built from the match directly."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import orjson
import pytest

from affray.core.json import JsonObject, as_object
from affray.store import Store
from affray.table import TableService
from affray.table.errors import Refusal
from affray.table.messages import seat_message
from affray.table.parts import SharedParts, legal_text
from affray.table.seats import SeatInfo
from affray.table.state import Table
from tests.table.people import all_people, random_move

SCENARIO = "witchhammer/mill_ambush"
MOVES = 60


def uncached(table: Table, seat: SeatInfo, since: int) -> JsonObject:
    """The message as it was built before the cache: every part from the match itself."""
    match, name = table.match, table.match_seat(seat)
    kept, table.shared = table.shared, SharedParts()  # a cache that holds nothing: every part built afresh
    try:
        message = seat_message(table, seat, since)
    finally:
        table.shared = kept
    assert message["view"] == match.view_json(name)
    assert message["legal"] == table.legal_for(seat)
    assert message["log"] == match.events_since(since, name, narrate=True)
    return message


def as_sent(message: JsonObject) -> str:
    return json.dumps(message, sort_keys=True)


def hidden_from(table: Table, seat: SeatInfo) -> list[str]:
    """The secrets of the moment that ``seat`` may not open (``Ruleset.secrets``), as JSON text to search for."""
    match = table.match
    viewer = match.viewer(table.match_seat(seat))
    return [
        json.dumps(value, sort_keys=True)
        for owner, value in match.ruleset.secrets(match.state)
        if not viewer.may_open(owner)
    ]


def test_every_seat_s_cached_message_equals_its_uncached_build_and_holds_no_other_seat_s_secret(
    service: TableService,
) -> None:
    table = all_people(service, SCENARIO, seed=5)
    rng = random.Random(2024)
    seats = list(table.seats.values())
    told_apart = shared = 0
    for move in range(MOVES):
        with table.lock:
            version = table.version
            order = seats[move % len(seats) :] + seats[: move % len(seats)]
            for since in (max(0, version - 1), 0):
                # The parts since the last version in one pass over the seats (as pushes are built), then each
                # seat's whole state alone (as a GET), in the other order.
                with table.shared.one_pass() if since else contextlib.nullcontext():
                    for seat in order if since else reversed(order):
                        message = seat_message(table, seat, since)
                        assert as_sent(message) == as_sent(uncached(table, seat, since)), (seat.name, version, since)
                        text = as_sent(message)
                        for secret in hidden_from(table, seat):
                            assert secret not in text, f"{seat.name} got a secret it may not open at v{version}"
        # Seats that see an entry alike share one telling of it; a face-down card is told apart.
        with table.lock:
            for _record, tellings in table.shared._entries.values():
                shared += len(tellings) == 1
                told_apart += len(tellings) > 1
        if not random_move(service, table, rng):
            break
    assert table.version >= 20
    assert shared > 0 and told_apart > 0  # the fight had both: public entries and face-down ones


def test_a_lost_race_s_reloaded_table_gives_no_part_built_before(service: TableService, tmp_path: Path) -> None:
    """Another process appends first; this one's stale submission loses the race and its table is rebuilt from the
    store (a new match object): every seat's message is then built from the new match, as uncached."""
    probe = service.table(service.create(SCENARIO, seed=7)["table"])
    created = service.create(SCENARIO, seed=7, controllers=dict.fromkeys(probe.match.controllers, "human"))
    first = service.table(created["table"])
    with Store(f"sqlite:///{tmp_path / 'affray.db'}") as store:
        other = TableService(store, policy_pause=0)
        try:
            second = other.table(created["table"])
            with second.lock:
                for seat in second.seats.values():  # every part of version 0 kept in the second process
                    seat_message(second, seat, 0)
            before = second.match
            seat, legal = next((s, legal) for s in first.seats.values() if (legal := first.legal_for(s)))
            actor, specs = sorted(legal.items())[0]
            won = service.submit(first, seat, actor, as_object(specs[0]["action"]), 0)
            with contextlib.suppress(Refusal):  # stale: refused, or taken again on the table as it now is
                other.submit(second, second.seats[seat.name], actor, as_object(specs[-1]["action"]), 0)
            with second.lock:
                assert second.match is not before  # the lost race rebuilt the table from the store
                assert second.match.records[0].action == specs[0]["action"] and won["seq"] == 0
                for each in second.seats.values():
                    for since in (0, second.version - 1):
                        built = seat_message(second, each, since)
                        assert as_sent(built) == as_sent(uncached(second, each, since)), (each.name, since)
        finally:
            other.close()


@pytest.mark.parametrize(
    "scenario", ["witchhammer/mill_ambush", "hud/nerdified_duel", "warp/melee_brawl", "spellchrome/crossroads_2v2"]
)
def test_legal_lists_written_from_the_specs_kept_text_are_byte_for_byte_orjson_s(
    service: TableService, scenario: str
) -> None:
    """``legal_text`` writes each spec's JSON once and keeps it with the spec (the ruleset hands the same specs out
    again): at every version of a fight of each ruleset, every seat's legal lists are exactly what orjson writes of
    ``Table.legal_for``, and the table's kept text is that text."""
    table = all_people(service, scenario, seed=7)
    rng = random.Random(11)
    specs_seen = kept_again = 0
    for _ in range(40):
        with table.lock:
            for seat in table.seats.values():
                due = table.due_specs(seat)
                assert legal_text(due) == orjson.dumps(table.legal_for(seat)), (scenario, seat.name, table.version)
                assert table.shared.legal_cut(table, seat).units["/legal"] == orjson.dumps(table.legal_for(seat))
                for _actor, specs, _hints in due:
                    specs_seen += len(specs)
                    # written once: asked again, a spec gives its kept text without writing anything
                    kept_again += sum(spec.written(never) == orjson.dumps(spec.to_dict())[:-1] for spec in specs)
        if not random_move(service, table, rng):
            break
    assert table.version >= 5
    assert specs_seen > 0 and kept_again == specs_seen


def never(value: object) -> bytes:
    raise AssertionError(f"written again: {value}")
