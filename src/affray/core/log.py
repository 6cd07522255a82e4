"""Match logs as versioned JSON: export, import (by replay) and verification.

The file holds the record (ruleset, setup, options, seats, seed commitment, the actions) and, for audit
and narration, the derived events; a table's log also its free rolls (chat dice from the seed's own free stream).
``verify`` checks the seed against the commitment, re-derives every logged die (free rolls included) from the seed
and its draw index, replays every action and compares the events, and says exactly which roll or action differs.
Rule: X-1 (log every roll); DESIGN.md contracts 4 and 5.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from affray.core.engine import Accepted, AnyRuleset, StepResult, get_ruleset
from affray.core.files import MAX_JSON_BYTES, FileProblem, load_json, write_text
from affray.core.json import Json, JsonMapping, JsonObject, as_int, as_list, as_names, as_object, as_str
from affray.core.logcheck import FORMAT, READS, VERSION, LogFormatError, check_die, check_log
from affray.core.match import Match
from affray.core.records import ReplayError
from affray.core.rng import FREE_STREAM, LEGACY_SALTS, OWN_SALTS, commitment_of, derive_die
from affray.core.seatlog import redact_event

LEGACY_VERSION = 2  # what a match whose salts come from the dice stream exports (a table stored before format 3)

__all__ = ["FORMAT", "READS", "VERSION", "LogFormatError", "VerifyReport", "export_log", "import_log", "read_log",
           "records_of", "verify", "write_log"]
PRIVATE = ("This file holds the match's secret seed and every seat's face-down cards: it is the GM's file "
           "(written owner-only). Give players the log of their own seat.")
# Replaying untrusted data through rules code: a setup or action of the wrong shape fails inside the ruleset.
_REPLAY_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def export_log(match: Match, *, reveal_seed: bool | None = None, seat: str | None = None) -> JsonObject:
    """The match as a JSON-ready dict. The seed is included once the match is over (or if asked).

    ``seat``: the log as that seat may see it (contract 6) while the match is not over: others' unrevealed
    commits and private events redacted, no seed. After the end every log is whole: nothing is secret then.
    """
    from affray.core.plugin import plugin

    outcome = match.outcome()
    if seat is not None and outcome is None:
        viewer = match.viewer(seat)
        data = export_log(match, reveal_seed=False)
        data.update(redacted_for=seat, records=[*match.redacted_log(seat)],
                    setup_events=[redact_event(e, viewer) for e in match.setup_events])
        return data
    reveal = outcome is not None if reveal_seed is None else reveal_seed
    return {
        "format": FORMAT,
        "version": VERSION if match.salts == OWN_SALTS else LEGACY_VERSION,
        "affray_version": affray_version(),
        "rules_version": plugin(match.ruleset.name).rules_version,
        "ruleset": match.ruleset.name,
        "setup": match.setup_data,
        "options": match.options_dict,
        "seats": {**match.seats},
        "controllers": {**match.controllers},
        "commitment": match.commitment,
        "seed": match.seed.hex() if reveal and match.seed is not None else None,
        "setup_events": [e.to_dict() for e in match.setup_events],
        "records": [r.to_dict() for r in match.records],
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason},
        "rounds": match.rounds(),
    }


def affray_version() -> str:
    """The installed affray's version (recorded in every log)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("affray")
    except PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


def write_log(match: Match, path: str | Path, *, seat: str | None = None, save: bool = False) -> None:
    """Write the log to ``path``. ``save``: the whole match with its seed, owner-only, to resume later;
    ``seat``: that seat's redacted log while the match is not over (see :func:`export_log`)."""
    data = export_log(match, reveal_seed=True) if save else export_log(match, seat=seat)
    private = data["seed"] is not None and match.outcome() is None
    if private:
        data["private"] = PRIVATE
    write_text(path, json.dumps(data, indent=1) + "\n", private=private)


def read_log(path: str | Path) -> JsonObject:
    """Read and shape-check a log file; raise :class:`LogFormatError` naming the file and field otherwise."""
    try:
        data = load_json(path, MAX_JSON_BYTES)
    except FileProblem as exc:
        raise LogFormatError(str(exc)) from None
    return check_log(data, str(path))


def records_of(data: JsonMapping) -> list[JsonObject]:
    """The log of record of a log of any version this affray reads (version 1 logs hold actions only)."""
    if "records" in data:
        return [as_object(entry) for entry in as_list(data["records"])]
    return [{**as_object(entry), "kind": "action"} for entry in as_list(data["actions"])]


def salts_of(data: Mapping[str, object]) -> str:
    """Where the log's seal salts came from: their own stream from format 3 on, the dice stream before."""
    return OWN_SALTS if as_int(data.get("version", VERSION)) >= VERSION else LEGACY_SALTS


def _seed(data: JsonMapping) -> bytes:
    if not data.get("seed"):
        raise LogFormatError("the log does not reveal its seed yet, so it cannot be replayed or verified")
    try:
        return bytes.fromhex(as_str(data["seed"]))
    except (ValueError, TypeError):
        raise LogFormatError("the log's seed is not hexadecimal") from None


def _ruleset(data: JsonMapping) -> AnyRuleset:
    try:
        return get_ruleset(as_str(data["ruleset"]))
    except KeyError as exc:
        raise LogFormatError(f"ruleset: {exc.args[0]}") from None


def _rebuild(data: JsonMapping, seed: bytes) -> Match:
    """A fresh match from the log's ruleset, setup, options and seats; a mismatch is a :class:`LogFormatError`."""
    ruleset = _ruleset(data)
    try:
        return Match(ruleset, as_object(data["setup"]), as_object(data["options"]), seed=seed,
                     seats=as_names(data.get("seats")), controllers=as_names(data.get("controllers")),
                     salts=salts_of(data))
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(f"setup/options: not a {ruleset.name} match this affray can start "
                             f"({type(exc).__name__}: {exc})") from None


def _replay(match: Match, entry: JsonObject) -> StepResult:
    try:
        return match.apply_record(entry)
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(f"{_describe(entry)} cannot be replayed: it is not a record of this ruleset "
                             f"({type(exc).__name__}: {exc})") from None


def import_log(data: JsonMapping) -> Match:
    """Rebuild a match from a log by replaying its records on its setup and seed."""
    seed = _seed(data)
    ruleset = _ruleset(data)
    _rebuild(data, seed)  # a setup of the wrong shape is refused with its field
    try:
        return Match.restore(ruleset, as_object(data["setup"]), as_object(data["options"]), seed=seed,
                             records=records_of(data), seats=as_names(data.get("seats")),
                             controllers=as_names(data.get("controllers")), salts=salts_of(data))
    except ReplayError as exc:
        raise LogFormatError(f"{exc}{_rules_note(data)}") from None
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(f"a record cannot be replayed: it is not a record of this ruleset "
                             f"({type(exc).__name__}: {exc})") from None


def _rules_note(data: JsonMapping) -> str:
    """Why an older log may replay differently: it was recorded under other rules."""
    from affray.core.plugin import plugin

    logged, now = data.get("rules_version"), plugin(as_str(data["ruleset"])).rules_version
    if logged is None or logged == now:
        return ""
    return f" (the log was recorded under {data['ruleset']} rules version {logged}; this affray runs {now})"


@dataclass(slots=True)
class VerifyReport:
    """The result of :func:`verify`: ``ok`` and the list of problems found (first ones first)."""

    rolls_checked: int = 0
    actions_checked: int = 0
    free_rolls_checked: int = 0  # a table's free rolls (chat), their dice counted in rolls_checked
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _check_free_rolls(seed: bytes, rolls: Json, report: VerifyReport) -> None:
    """A table's free rolls (chat), each die re-derived from the seed's free stream (``free:i:attempt``)."""
    if rolls is None:
        return
    if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
        report.problems.append("free_rolls: a list of free rolls ({n, seat, notation, roll})")
        return
    for entry in map(as_object, rolls):
        event: JsonObject = {"type": "rolled", "actor": entry.get("seat"),
                             "purpose": f"free roll {entry.get('notation')}", "roll": entry.get("roll")}
        _check_rolls(seed, [event], f"free roll #{entry.get('n')}", report, FREE_STREAM)
        report.free_rolls_checked += 1


def _check_rolls(seed: bytes, events: Json, where: str, report: VerifyReport, stream: str = "") -> None:
    """``events``: a list of event objects (check_log admitted them)."""
    for index, event in enumerate(map(as_object, as_list(events))):
        if event.get("type") != "rolled":
            continue
        roll = event.get("roll")
        dice = roll.get("dice") if isinstance(roll, dict) else None
        checked = [d for d in dice if check_die(d)] if isinstance(dice, list) else []
        if not isinstance(dice, list) or len(checked) != len(dice):
            report.problems.append(f"{where}, event {index}: a 'rolled' event holds roll.dice, a list of "
                                   "{draw, sides, value} whole numbers")
            continue
        for die in checked:
            report.rolls_checked += 1
            derived = derive_die(seed, die["draw"], die["sides"], stream)
            if derived != die["value"]:
                report.problems.append(
                    f"{where}, event {index} ({event.get('actor')}'s {event.get('purpose')} roll): draw "
                    f"{die['draw']} on a d{die['sides']} is recorded as {die['value']} but the seed gives {derived}")


def _describe(entry: JsonMapping) -> str:
    return f"action #{entry['seq']} ({entry['seat']}: {json.dumps(entry['action'], sort_keys=True)})"


def _first_difference(recorded: Sequence[Json], replayed: Sequence[Json]) -> str | None:
    for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
        if a != b:
            return f"event {i} is recorded as {json.dumps(a)} but replay gives {json.dumps(b)}"
    if len(recorded) != len(replayed):
        return f"{len(recorded)} events are recorded but replay gives {len(replayed)}"
    return None


def _check_chain(data: JsonMapping, head: str | None, report: VerifyReport) -> None:
    """The hash chain of :mod:`affray.core.chain`, where the log carries one (or a head is given)."""
    from affray.core.chain import chain_problems

    if head is not None or data.get("chain") is not None:
        report.problems.extend(chain_problems(data, records_of(data), head))


def verify(data: JsonMapping, head: str | None = None) -> VerifyReport:
    """Check a log against its own seed: commitment, every roll, every action, and its hash chain (a table
    server's log; ``head``: a chain head a seat kept, which the log must pass through). See the module docstring."""
    report = VerifyReport()
    _check_chain(data, head, report)
    seed = _seed(data)
    if commitment_of(seed) != data["commitment"]:
        report.problems.append("the seed does not match the commitment published at the start of the match")
        return report
    records = records_of(data)
    _check_rolls(seed, data.get("setup_events", []), "setup", report)
    _check_free_rolls(seed, data.get("free_rolls"), report)
    for entry in records:
        _check_rolls(seed, entry.get("events", []), _describe(entry), report)
    match = _rebuild(data, seed)
    diff = _first_difference(as_list(data.get("setup_events", [])), [e.to_dict() for e in match.setup_events])
    if diff:
        report.problems.append(f"setup: {diff}{_rules_note(data)}")
    for entry in records:
        try:
            result = _replay(match, entry)
        except ReplayError as exc:
            report.problems.append(f"{_describe(entry)} is illegal on replay: {exc}{_rules_note(data)}")
            return report
        report.actions_checked += entry.get("kind", "action") == "action"
        events = result.events if isinstance(result, Accepted) else []
        diff = _first_difference(as_list(entry.get("events", [])), [e.to_dict() for e in events])
        if diff:
            report.problems.append(f"{_describe(entry)}: {diff}{_rules_note(data)}")
            return report
    outcome = match.outcome()
    logged = data.get("outcome")
    derived = None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}
    if logged != derived:
        report.problems.append(f"the outcome is recorded as {logged} but replay gives {derived}")
    return report
