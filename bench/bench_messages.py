"""Building seat messages in process (docs/performance.md, "Cheaper appends and pushes"): what the table server does
for every change, with the shared parts (table/parts.py) against the uncached build, in the same run.

One table of each scenario with every combatant played by a person plays ACTIONS random legal actions; after each,
every seat's push (its message since the previous version) is built, then one seat's whole state (a GET after a
reconnect; the seats take turns). The same table is built both ways at every version (in turn first), in CPU seconds
(``time.process_time``: the machine is shared), each message encoded to JSON as the server sends it:

- *uncached*: every part from the match (the view, the legal actions with their odds hints, the whole log told in
  sentences), as ``seat_message`` built them before the cache;
- *shared*: ``seat_message`` as it is, the pushes first (as the server builds them: in one pass,
  ``SharedParts.one_pass``), then the GET.

Run: ``.venv/bin/python bench/bench_messages.py [ACTIONS]`` (default 40). Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from affray.core.json import JsonObject, as_object
from affray.store import Store
from affray.table import TableService
from affray.table.feed import encode
from affray.table.messages import seat_message
from affray.table.parts import SharedParts
from affray.table.seats import SeatInfo
from affray.table.state import Table

SCENARIOS = ("spellchrome/crossroads_2v2", "witchhammer/mill_ambush", "warp/melee_brawl", "hud/simplified_ambush")


def uncached(table: Table, seat: SeatInfo, since: int) -> JsonObject:
    kept, table.shared = table.shared, SharedParts()
    try:
        return seat_message(table, seat, since)
    finally:
        table.shared = kept


def play(service: TableService, scenario: str, actions: int) -> tuple[int, float, float, float, float]:
    probe = service.table(service.create(scenario, seed=3)["table"])
    created = service.create(scenario, seed=3, controllers=dict.fromkeys(probe.match.controllers, "human"))
    table = service.table(created["table"])
    rng = random.Random(1)
    seats = list(table.seats.values())
    push = [0.0, 0.0]
    whole = [0.0, 0.0]
    done = 0
    while done < actions and not table.over:
        mover = next(((s, legal) for s in seats if (legal := table.legal_for(s))), None)
        if mover is None:
            break
        seat, legal = mover
        actor, specs = next(iter(legal.items()))
        service.submit(table, seat, actor, as_object(rng.choice(specs)["action"]), table.version)
        done += 1
        asker = seats[done % len(seats)]
        with table.lock:
            since = table.version - 1
            # Whichever goes second finds the match's memo warm (its legal listings): the order alternates.
            ways = [(0, uncached), (1, seat_message)]
            for way, build in ways if done % 2 else ways[::-1]:
                started = time.process_time()
                with table.shared.one_pass():  # as the server's pass of pushes (table/feed.py)
                    for each in seats:
                        encode(build(table, each, since))
                push[way] += time.process_time() - started
                started = time.process_time()
                encode(build(table, asker, 0))
                whole[way] += time.process_time() - started
    per_push = len(seats) * max(1, done)
    return done, push[0] / per_push, push[1] / per_push, whole[0] / max(1, done), whole[1] / max(1, done)


def main(actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder, Store(f"sqlite:///{Path(folder) / 'bench.db'}") as store:
        service = TableService(store, policy_pause=0)
        try:
            for scenario in SCENARIOS:
                done, push_before, push_after, whole_before, whole_after = play(service, scenario, actions)
                print(
                    f"{scenario}, {done} actions: a seat's push {push_before * 1000:.3f} -> {push_after * 1000:.3f} "
                    f"ms CPU ({push_before / push_after:.1f}x); a seat's whole state {whole_before * 1000:.3f} -> "
                    f"{whole_after * 1000:.3f} ms CPU ({whole_before / whole_after:.1f}x), uncached -> shared"
                )
        finally:
            service.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
