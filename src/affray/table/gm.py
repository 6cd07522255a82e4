"""The GM's tools: rulings on the fight (a bar, a status, a position, out of the fight: :mod:`affray.core.adjust`,
records of the log itself), take back to any earlier version (after a confirmation), pause and resume, the
countdown a ruleset's record declares (:class:`~affray.core.plugin.Countdown`: a server-side clock that submits the
GM's call when it runs out), replace a seat's token, end the fight, export the log. Every other intervention goes
into the store's audit trail beside the log of record.

Each tool takes the ledger (:class:`~affray.table.ledger.Ledger`: its commits, its guarded store, its notices); the
countdown takes the worker too, whose thread runs it out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import cast

import yaml

from affray.core.adjust import Joiner
from affray.core.engine import GM, Rejected
from affray.core.json import Json, JsonObject, as_list, as_number, as_object
from affray.core.log import export_log
from affray.table.chat import free_rolls
from affray.table.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, UNPROCESSABLE, Refusal, refused_step
from affray.table.ledger import Ledger
from affray.table.messages import Answer
from affray.table.opening import link_for
from affray.table.seats import SeatInfo
from affray.table.state import Table, countdown_of
from affray.table.tokens import new_token, token_hash
from affray.table.worker import Worker


def require_gm(seat: SeatInfo) -> None:
    if seat.role != "gm":
        raise Refusal("gm_only", "Only the GM's seat can use the GM's tools.", FORBIDDEN)


def take_back(ledger: Ledger, table: Table, seat: SeatInfo, to: int, version: int, confirm: bool) -> JsonObject:
    """Take the fight back to version ``to`` (an undo record is appended; nothing is cut from the log)."""
    require_gm(seat)
    if not confirm:
        raise Refusal(
            "confirm_required",
            f'Taking the fight back to version {to} undoes every action since; send "confirm": true to do it.',
            BAD_REQUEST,
        )
    with table.lock:
        if table.ended is not None:
            raise Refusal("table_ended", "The GM has ended this fight.", CONFLICT)
        result = table.match.rewind(to, GM, version=version)
        if isinstance(result, Rejected):
            raise refused_step(result.code, result.message)
        if not ledger.commit(table, None):
            raise Refusal("stale_version", "Another action was taken first.", CONFLICT)
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "undo", {"to": to, "from": version}))
        return {"version": table.version}


def adjust(
    ledger: Ledger,
    table: Table,
    seat: SeatInfo,
    version: int,
    submission_id: str | None,
    reason: str,
    changes: Sequence[Json],
) -> Answer:
    """A GM ruling (:mod:`affray.core.adjust`): ``changes`` checked by the ruleset, then a ``gm`` record in the log
    of record and the chain, heard by every seat as a ruling line. A refused change: 422 with the ruleset's code,
    nothing changed. A retried ``submission_id`` returns the first answer. An ``add`` change (reinforcements) names
    the combatant as a scenario writes it; the record holds its resolved entry (:func:`resolve_addition`)."""
    require_gm(seat)
    key = f"{seat.name}/{submission_id}" if submission_id else None
    with table.lock:
        if key is not None and key in table.by_submission:
            return ledger.answer(table, seat, table.by_submission[key])
        ledger.check_open(table)
        resolved = [resolve_addition(table, c) for c in changes]
        result = table.match.rule(GM, {"type": "ruling", "reason": reason, "changes": resolved}, version=version)
        if isinstance(result, Rejected):
            raise refused_step(result.code, result.message, result.reason)
        if not ledger.commit(table, key):
            raise Refusal("stale_version", "Another action was taken first; look again.", CONFLICT, reason="moved_on")
        return ledger.answer(table, seat, table.version - 1)


#: The id the resolving scenario's stand-in foe takes (a scenario needs two sides).
_PROBE = "probe_for_the_gm"


def _joiner(table: Table) -> Joiner[object] | None:
    """The ruleset's side of reinforcements, if it takes them."""
    adjuster = table.match.plugin.adjuster
    joiner = None if adjuster is None else adjuster()
    return joiner if isinstance(joiner, Joiner) else None


#: The most text a combatant written in place may take (one combatant's fields: a few hundred bytes in practice).
MAX_WRITTEN = 8 * 1024


def written_in_place(text: str) -> Json:
    """A combatant written in place as the GM types it: YAML (or JSON) of one combatant's fields, as a scenario
    writes one (``id``, ``name``, ``use`` or ``stats``...), read safely within the YAML limits
    (:func:`affray.core.files.load_yaml`). 422 ``bad_combatant`` with a sentence when it is not one mapping."""
    from affray.core.files import load_yaml

    if len(text.encode()) > MAX_WRITTEN:
        raise Refusal(
            "bad_combatant", f"add: a combatant written in place is at most {MAX_WRITTEN} bytes.", UNPROCESSABLE
        )
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        raise Refusal("bad_combatant", f"add: not readable as YAML ({exc}).", UNPROCESSABLE) from None
    if not isinstance(data, dict):
        raise Refusal(
            "bad_combatant",
            "add: one combatant's fields, as a scenario writes one (id, name, use or stats...).",
            UNPROCESSABLE,
        )
    return cast(Json, data)


def resolve_addition(table: Table, change: Json) -> Json:
    """An ``add`` change (reinforcements, :mod:`affray.core.adjust`) with its combatant resolved: the combatant as
    a scenario writes it (``use`` of the library, inline ``stats``, a ``sheet``) put through the table's ruleset as
    :func:`affray.api.scenario_from_data` does, in the fight's own scenario fields (its map, its mode: the ruleset's
    :meth:`~affray.core.adjust.Joiner.scenario_fields`), with ``place`` as its position; the setup entry the
    ruleset built replaces it, so the record replays without the content. Any other change as it is. A broken
    combatant: 422 ``bad_combatant`` naming the field as scenario checks do (``add.use``)."""
    text = change.get("add") if isinstance(change, dict) else None
    if isinstance(change, dict) and isinstance(text, str):
        change = {**change, "add": written_in_place(text)}
    if not isinstance(change, dict) or not isinstance(change.get("add"), dict):
        return change
    combatant, side = dict(as_object(change["add"])), change.get("side")
    joiner = _joiner(table)
    if joiner is None:
        raise Refusal("no_reinforcements", "This ruleset takes no reinforcements yet.", UNPROCESSABLE)
    if not isinstance(side, str) or not isinstance(combatant.get("id"), str):
        return change  # the ruling's own checks name what is missing
    if combatant.pop("hidden", False):
        raise Refusal("bad_combatant", "add.hidden: a combatant added mid-fight joins in sight.", UNPROCESSABLE)
    place = change.get("place")
    named = getattr(joiner, "place_field", "position")  # the scenario's field for it: its own ("at"), or none
    if place is not None and isinstance(named, str):
        combatant[named] = place
    setup = table.match.setup_data
    # the stand-in's own fields, from the fight's setup where the joiner reads them there (its own square)
    placed = getattr(joiner, "stand_in_for", None)
    stand_in: JsonObject = placed(setup) if callable(placed) else joiner.stand_in()
    probe: JsonObject = {**combatant, "id": _PROBE, "name": _PROBE, **stand_in}
    data: JsonObject = {
        "ruleset": table.match.plugin.name,
        **joiner.scenario_fields(setup),
        "sides": [{"name": side, "combatants": [combatant]}, {"name": _PROBE, "combatants": [probe]}],
    }
    from affray.api import scenario_from_data
    from affray.core.content import ContentError

    try:
        built = scenario_from_data(data)
    except ContentError as exc:
        problem = exc.problems[0]
        field = problem.field.replace("sides[0].combatants[0]", "add").replace("sides[0].name", "side")
        raise Refusal("bad_combatant", f"{field}: {problem.expected}.", UNPROCESSABLE) from None
    entry = next(c for c in as_list(built.setup["combatants"]) if as_object(c)["id"] == combatant["id"])
    return {"add": entry, "side": side, "place": place}


def adjustable(table: Table, seat: SeatInfo) -> JsonObject:
    """What the GM may change now, per combatant (the ruleset's :meth:`~affray.core.adjust.Adjuster.forms`): bars
    with their bounds, statuses, the kind of position, whether it is out; ``hidden``, the combatants still hidden
    from the other seats (:mod:`affray.core.hidden`), which a ruling's ``reveal`` change shows; and ``joins``, the
    kind of place a reinforcement takes (``"square"``, ``"line"``; ``null``: the ruleset takes none)."""
    require_gm(seat)
    record = table.match.plugin
    with table.lock:
        hidden: list[Json] = [*sorted(table.match.hidden)]
        joiner = _joiner(table)
        joins: Json = None if joiner is None else joiner.joins
        if record.adjuster is None:
            return {"combatants": {}, "hidden": hidden, "joins": joins}
        return {"combatants": {**record.adjuster().forms(table.match.state)}, "hidden": hidden, "joins": joins}


def set_paused(ledger: Ledger, table: Table, seat: SeatInfo, paused: bool) -> JsonObject:
    require_gm(seat)
    with table.lock:
        config = ledger.guard(lambda: ledger.store.set_config(table.id, {"paused": paused}))
        table.config = dict(config or table.config)
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "pause" if paused else "resume", {}))
    ledger.announce(table)
    return {"paused": paused, "version": table.version}


def start_timer(ledger: Ledger, worker: Worker, table: Table, seat: SeatInfo, seconds: float | None) -> JsonObject:
    """Start (or with ``None`` stop) the ruleset's countdown (its record's :class:`~affray.core.plugin.Countdown`);
    when it runs out the server submits the GM's call the record names."""
    require_gm(seat)
    with table.lock:
        countdown = countdown_of(table.match)
        if countdown is None:
            raise Refusal("no_timer", _no_countdown(table), UNPROCESSABLE)
        if seconds is not None and not 0 < seconds <= 3600:
            raise Refusal("bad_seconds", f"The {countdown.name} runs from 1 second to an hour.", UNPROCESSABLE)
        timer: JsonObject | None = (
            None if seconds is None else {"ends_at": round(time.time() + seconds, 3), "seconds": seconds}
        )
        config = ledger.guard(lambda: ledger.store.set_config(table.id, {"timer": timer}))
        table.config = dict(config or table.config)
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "timer", {"seconds": seconds}))
    if timer is not None:
        _schedule(ledger, worker, table, timer)
    ledger.announce(table)
    return {"timer": timer, "version": table.version}


def _no_countdown(table: Table) -> str:
    declared = table.match.plugin.countdown
    if declared is None:
        return "This ruleset has no countdown for the GM to start."
    return f"The {declared.name} is off in this match (the rule option {declared.option}, {declared.rule})."


def resume_timer(ledger: Ledger, worker: Worker, table: Table) -> None:
    """After a restart, count down whatever is left of a running timer."""
    timer = table.config.get("timer")
    if isinstance(timer, dict):
        _schedule(ledger, worker, table, timer)


def _schedule(ledger: Ledger, worker: Worker, table: Table, timer: JsonObject) -> None:
    worker.schedule(max(0.0, as_number(timer["ends_at"]) - time.time()), lambda: _fire(ledger, table, timer))


def _fire(ledger: Ledger, table: Table, timer: JsonObject) -> None:
    with table.lock:
        if table.config.get("timer") != timer:
            return  # stopped or restarted meanwhile
        config = ledger.guard(lambda: ledger.store.set_config(table.id, {"timer": None}))
        table.config = dict(config or table.config)
        window = None if table.over or table.paused else table.match.pending()
        countdown, fired = countdown_of(table.match), False
        if window is not None and GM in window.actors and countdown is not None:
            result = table.match.submit(GM, GM, {"type": countdown.action}, version=table.version)
            fired = not isinstance(result, Rejected) and ledger.commit(table, None)
        ledger.guard(lambda: ledger.store.audit(table.id, None, "timer", {"ran_out": True, "called": fired}))
    ledger.announce(table)


def replace_token(ledger: Ledger, table: Table, seat: SeatInfo, target: str) -> JsonObject:
    """A new token for seat ``target``; the old one stops working at once (its connections are closed)."""
    require_gm(seat)
    with table.lock:
        victim = table.seat(target)
        if victim.token_hash is None:
            raise Refusal("policy_seat", f"Seat '{target}' is played by the server; it has no link.", UNPROCESSABLE)
        token = new_token()
        ledger.guard(lambda: ledger.store.replace_token(table.id, target, token_hash(token)))
        victim.token_hash = token_hash(token)
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "replace_token", {"seat": target}))
    ledger.announce(table)
    return {"seat": target, "token": token, "link": link_for(table.id, token)}


def seat_list(table: Table, seat: SeatInfo) -> list[JsonObject]:
    """Every seat of the table for the GM's page, in any browser: its name, role, actors, controller and whether it
    has a link (a person's seat; a policy plays the others). Never a token: the server keeps only their hashes, so a
    GM who lost a link makes a new one (:func:`replace_token`)."""
    require_gm(seat)
    with table.lock:
        return [
            {
                "seat": s.name,
                "role": s.role,
                "actors": list(s.actors),
                "controller": s.controller,
                "link": s.token_hash is not None,
            }
            for s in table.seats.values()
        ]


def end(ledger: Ledger, table: Table, seat: SeatInfo) -> JsonObject:
    """End the fight now; the seed is revealed to every seat."""
    require_gm(seat)
    with table.lock:
        if table.over:
            raise Refusal("match_over", "The fight is already over.", CONFLICT)
        outcome: JsonObject = {"winner": None, "reason": "ended by the GM"}
        ledger.guard(lambda: ledger.store.end_table(table.id, outcome))
        table.ended, table.stored_end = outcome, True
        ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "end", {"version": table.version}))
    ledger.announce(table)
    return {"outcome": outcome, "seed": table.seed_hex}


def audit_trail(ledger: Ledger, table: Table, seat: SeatInfo) -> list[JsonObject]:
    require_gm(seat)
    return [
        {"n": a.n, "at": a.at, "who": a.who, "kind": a.kind, "detail": a.detail}
        for a in ledger.guard(lambda: ledger.store.audit_trail(table.id))
    ]


def exported(table: Table, seat: SeatInfo) -> JsonObject:
    """After the end: the full log in the format ``affray verify`` reads, with every record's chain value, the head
    and (log format 4) the chain key its record salts come from. Before the end: the caller's redacted log (no seat
    sees more than its own view allows, the GM included)."""
    with table.lock:
        if table.over:
            data = export_log(table.match, reveal_seed=True)
            for record, chain in zip(as_list(data["records"]), table.chains, strict=True):
                as_object(record)["chain"] = chain
            data["chain"] = table.head
            if table.chain_key is not None:
                data["chain_key"] = table.chain_key.hex()
            data["table"] = table.id
            if table.ended is not None:
                data["ended"] = table.ended
            data["free_rolls"] = list[Json](free_rolls(table, seat))
            return data
        return {
            "table": table.id,
            "version": table.version,
            "commitment": table.match.commitment,
            "chain": table.head,
            "seed": None,
            "log": list[Json](table.match.redacted_log(table.match_seat(seat))),
        }


def export(ledger: Ledger, table: Table, seat: SeatInfo) -> JsonObject:
    require_gm(seat)
    ledger.guard(lambda: ledger.store.audit(table.id, seat.name, "export", {"version": table.version}))
    return exported(table, seat)
