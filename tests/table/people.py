"""A table where people play every combatant, moved on by random legal actions (the table service's tests)."""

from __future__ import annotations

import random

from affray.core.json import as_object
from affray.table import Table, TableService


def all_people(service: TableService, scenario: str, seed: int) -> Table:
    """A new table of ``scenario`` with every combatant played by a person (a seat of its own)."""
    probe = service.table(service.create(scenario, seed=seed)["table"])
    created = service.create(scenario, seed=seed, controllers=dict.fromkeys(probe.match.controllers, "human"))
    return service.table(created["table"])


def random_move(service: TableService, table: Table, rng: random.Random) -> bool:
    """One random legal action of a seat that is due; False when nobody is (or the fight is over)."""
    seats = list(table.seats.values())
    mover = next(((s, legal) for s in seats if (legal := table.legal_for(s))), None)
    if mover is None or table.over:
        return False
    seat, legal = mover
    actor, specs = rng.choice(sorted(legal.items()))
    service.submit(table, seat, actor, as_object(rng.choice(specs)["action"]), table.version)
    return True
