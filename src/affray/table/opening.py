"""Opening a table: the scenario checked, who plays whom, the seed, the match, its seats and tokens, all stored in
one transaction before anyone may act. The tokens are in the answer only (the store keeps their hashes), shown
once; the GM page keeps them in its browser."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from affray.ai.runner import policies_for
from affray.core.content import ContentLibrary
from affray.core.json import JsonObject
from affray.core.match import Match
from affray.core.options import OptionError, options_to_dict, parse_options
from affray.core.rng import new_salt_secret, new_secret_seed, seal_key, seed_from_int
from affray.store import NewTable, new_table_id
from affray.store import Seat as StoredSeat
from affray.table import budget
from affray.table.errors import UNPROCESSABLE, Refusal
from affray.table.ledger import Ledger
from affray.table.registry import SetupStores
from affray.table.scenarios import cast, plan_seats, resolve_scenario
from affray.table.seats import SeatInfo
from affray.table.state import Table
from affray.table.tokens import new_token, token_hash

MAX_SEED = 2**63 - 1


def link_for(table_id: str, token: str) -> str:
    """A seat's invite link: the token rides in the fragment, which browsers never send to a server."""
    return f"/t/{table_id}#{token}"


class Link(TypedDict):
    """A seat's token and the page address that carries it."""

    token: str
    link: str


class SeatLink(Link):
    """A player's seat: its link, the actors it plays and its role."""

    actors: list[str]
    role: str


class Created(TypedDict):
    """The answer to a table's creator: the table, and every person's seat with its token and link."""

    table: str
    title: str
    ruleset: str
    commitment: str
    gm: Link
    seats: dict[str, SeatLink]


def open_table(
    ledger: Ledger,
    setups: SetupStores,
    examples_dir: Path | None,
    scenario: str,
    options: Mapping[str, object] | None,
    controllers: Mapping[str, str] | None,
    seed: int | None,
    spectator: bool,
    seats: Mapping[str, str] | None,
    *,
    content: Mapping[str, ContentLibrary] | None = None,
) -> tuple[Table, Created]:
    """A new table and the answer to its creator: every seat's token and link, stored through the ``ledger``.
    ``scenario``: a file, or an example's name (``examples_dir``: a folder of examples beside the rulesets' own);
    ``controllers`` and ``seats``: who plays whom (:func:`affray.table.scenarios.cast`); ``seed``: a public seed, or
    None for a secret one. Its match shares the setup-only store ``setups`` gives its scenario; ``content``: the
    server's content, which an uploaded scenario's ids may name (:func:`affray.table.scenarios.resolve_scenario`)."""
    checked, label = resolve_scenario(scenario, examples_dir, content=content)
    seating, chosen = cast(checked, controllers or {}, seats)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise Refusal("bad_seed", f"A public seed is an integer from 0 to {MAX_SEED}.", UNPROCESSABLE)
    raw = seed_from_int(seed) if seed is not None else new_secret_seed()
    # A secret of its own beside the seed, public or not: the seals' salts, the chain's record salts and the
    # whispers' dice come from it, never from the seed (core/rng.py, log format 4).
    salt = new_salt_secret()
    try:
        # The options as the store keeps them, so that this table and its later rebuilds share one setup-only store
        # with every table of the same scenario (SetupStores.static_for).
        given = options_to_dict(parse_options(checked.ruleset.options_type, {**checked.options, **(options or {})}))
        static = setups.static_for(checked.ruleset.name, checked.setup, given)
        match = Match(
            checked.plugin,
            checked.setup,
            given,
            seed=raw,
            seats=seating,
            controllers=chosen,
            shared=static,
            seal_key=seal_key(salt),
        )
    except OptionError as exc:
        raise Refusal("bad_options", str(exc), UNPROCESSABLE) from None
    plans = plan_seats(match, spectator)
    tokens = {p.name: new_token() for p in plans if p.controller == "human"}
    table_id = new_table_id()
    budget.admit(match)  # 429 while its opener's CPU budget is spent, if the server plays in it (table/budget.py)
    # "salts": where seal salts come from: a table stored before the seal-salt stream existed drew them from the
    # dice stream, and is restored that way (table/restore.py).
    config: JsonObject = {
        "seats": {**match.seats},
        "controllers": {**match.controllers},
        "paused": False,
        "timer": None,
        "salts": match.salts,
    }
    stored = [
        StoredSeat(
            p.name,
            token_hash(tokens[p.name]) if p.name in tokens else None,
            p.actors,
            p.controller,
            p.role,  # type: ignore[arg-type]
        )
        for p in plans
    ]
    ledger.guard(
        lambda: ledger.store.create_table(
            NewTable(
                id=table_id,
                ruleset=match.ruleset.name,
                title=checked.model.name,
                scenario=label,
                setup=match.setup_data,
                options=match.options_dict,
                seed_hex=raw.hex(),
                commitment=match.commitment,
                rules_version=match.plugin.rules_version,
                config=config,
                salt_hex=salt.hex(),
            ),
            stored,
        )
    )
    table = Table(
        id=table_id,
        title=checked.model.name,
        scenario=label,
        match=match,
        seed_hex=raw.hex(),
        seats={s.seat: SeatInfo(s.seat, s.role, s.actors, s.controller, s.token_hash) for s in stored},
        policies=policies_for(match),
        config=config,
        salt_hex=salt.hex(),
    )
    budget.meter(table)  # its policies' moves charged to whoever opened it
    links = {
        p.name: SeatLink(
            token=tokens[p.name], link=link_for(table_id, tokens[p.name]), actors=list(p.actors), role=p.role
        )
        for p in plans
        if p.name in tokens and p.role != "gm"
    }
    return table, Created(
        table=table_id,
        title=table.title,
        ruleset=match.ruleset.name,
        commitment=match.commitment,
        gm=Link(token=tokens["gm"], link=link_for(table_id, tokens["gm"])),
        seats=links,
    )
