"""Match logs as versioned JSON: export, import (by replay) and verification.

The file holds the record (ruleset, setup, options, seats, seed commitment, the actions) and, for audit
and narration, the derived events; a table's log also its free rolls (chat dice from the seed's own free stream, a
whispered one's from its pair's key) and its hash chain (:mod:`affray.core.chain`). ``verify`` checks the seed
against the commitment, re-derives every logged die (free rolls included) from the seed and its draw index, replays
every action and compares the events, checks the chain, and says exactly which roll or action differs, and which
rolls it could not check (a whisper between seats whose key the log does not hold: ``VerifyReport.unchecked``).

Format 4 (a table's, with a salt secret of its own: :mod:`affray.core.rng`) reveals at the end, beside the seed, the
seal key its seals' salts come from (``seal_key``) and the chain key of its records' salts (``chain_key``, a table's
log); formats 1-3 are read and verified as they were written.

Every log records the version of its ruleset's rules (``rules_version``; a log without one counts as "1"). A log made
under another version than this affray runs is never replayed: ``import_log`` (``affray replay``, ``fight --resume``)
refuses it with a sentence naming both versions, and ``verify`` still checks its seed, dice and chain (they do not
depend on the rules) but reports the versions as a problem instead of replaying its actions (:func:`rules_refusal`).
Rule: X-1 (log every roll); DESIGN.md contracts 4 and 5.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from affray.core.engine import Accepted, StepResult
from affray.core.files import MAX_JSON_BYTES, FileProblem, load_json, write_text
from affray.core.json import Json, JsonMapping, JsonObject, as_int, as_list, as_names, as_object, as_str
from affray.core.logcheck import FORMAT, READS, VERSION, LogFormatError, check_die, check_log
from affray.core.match import Match
from affray.core.plugin import UNRECORDED_RULES_VERSION, AnyPlugin, plugin, rules_changed
from affray.core.records import ReplayError
from affray.core.rng import (
    FREE_STREAM,
    LEGACY_SALTS,
    OWN_SALTS,
    SECRET_SALTS,
    WHISPER_STREAM,
    commitment_of,
    derive_die,
)
from affray.core.seatlog import redact_event

#: The format a match exports, by where its seal salts come from: a salt secret's seal key (4), the seed (3, a
#: library match or a table stored before format 4), the dice stream (2, a table stored before format 3).
VERSION_OF_SALTS = {SECRET_SALTS: 4, OWN_SALTS: 3, LEGACY_SALTS: 2}

__all__ = [
    "FORMAT",
    "READS",
    "VERSION",
    "LogFormatError",
    "VerifyReport",
    "check_rules",
    "export_log",
    "import_log",
    "read_log",
    "records_of",
    "rules_refusal",
    "verify",
    "write_log",
]
PRIVATE = (
    "This file holds the match's secret seed and every seat's face-down cards: it is the GM's file "
    "(written owner-only). Give players the log of their own seat."
)
# Replaying untrusted data through rules code: a setup or action of the wrong shape fails inside the ruleset.
_REPLAY_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def export_log(match: Match, *, reveal_seed: bool | None = None, seat: str | None = None) -> JsonObject:
    """The match as a JSON-ready dict. The seed is included once the match is over (or if asked).

    ``seat``: the log as that seat may see it (contract 6) while the match is not over: others' unrevealed
    commits and private events redacted, no seed. After the end every log is whole: nothing is secret then.
    """
    outcome = match.outcome()
    if seat is not None and outcome is None:
        viewer = match.viewer(seat)
        data = export_log(match, reveal_seed=False)
        data.update(
            redacted_for=seat,
            records=[*match.redacted_log(seat)],
            setup_events=[redact_event(e, viewer) for e in match.setup_events],
        )
        return data
    reveal = outcome is not None if reveal_seed is None else reveal_seed
    return {
        "format": FORMAT,
        "version": VERSION_OF_SALTS[match.salts],
        "affray_version": affray_version(),
        "rules_version": match.plugin.rules_version,
        "ruleset": match.ruleset.name,
        "setup": match.setup_data,
        "options": match.options_dict,
        "seats": {**match.seats},
        "controllers": {**match.controllers},
        "commitment": match.commitment,
        "seed": match.seed.hex() if reveal and match.seed is not None else None,
        **({} if match.seal_key is None else {"seal_key": match.seal_key.hex() if reveal else None}),
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
    """Where the log's seal salts came from: a seal key (format 4), the seed's salt stream (format 3), the dice
    stream (formats 1 and 2)."""
    version = as_int(data.get("version", VERSION))
    return SECRET_SALTS if version >= 4 else OWN_SALTS if version == 3 else LEGACY_SALTS


def _key(data: JsonMapping, name: str, what: str) -> bytes | None:
    """The key ``name`` a format-4 log reveals at the end (None for an older format); a LogFormatError when it is
    not revealed yet or not hexadecimal."""
    if salts_of(data) != SECRET_SALTS:
        return None
    value = data.get(name)
    if not value:
        raise LogFormatError(f"the log does not reveal its {name} yet, so {what}")
    try:
        return bytes.fromhex(as_str(value))
    except (ValueError, TypeError):
        raise LogFormatError(f"the log's {name} is not hexadecimal") from None


def _seal_key(data: JsonMapping) -> bytes | None:
    return _key(data, "seal_key", "its seals cannot be replayed or verified")


def _seed(data: JsonMapping) -> bytes:
    if not data.get("seed"):
        raise LogFormatError("the log does not reveal its seed yet, so it cannot be replayed or verified")
    try:
        return bytes.fromhex(as_str(data["seed"]))
    except (ValueError, TypeError):
        raise LogFormatError("the log's seed is not hexadecimal") from None


def _record(data: JsonMapping) -> AnyPlugin:
    """The plug-in record of the ruleset the log names (a name from outside: the look-up by name is here)."""
    try:
        return plugin(as_str(data["ruleset"]))
    except KeyError as exc:
        raise LogFormatError(f"ruleset: {exc.args[0]}") from None


def _rebuild(data: JsonMapping, seed: bytes) -> Match:
    """A fresh match from the log's ruleset, setup, options and seats; a mismatch is a :class:`LogFormatError`."""
    record = _record(data)
    try:
        return Match(
            record,
            as_object(data["setup"]),
            as_object(data["options"]),
            seed=seed,
            seats=as_names(data.get("seats")),
            controllers=as_names(data.get("controllers")),
            salts=salts_of(data),
            seal_key=_seal_key(data),
        )
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(
            f"setup/options: not a {record.name} match this affray can start ({type(exc).__name__}: {exc})"
        ) from None


def _replay(match: Match, entry: JsonObject) -> StepResult:
    try:
        return match.apply_record(entry)
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(
            f"{_describe(entry)} cannot be replayed: it is not a record of this ruleset ({type(exc).__name__}: {exc})"
        ) from None


def rules_refusal(data: JsonMapping) -> str | None:
    """Why the log cannot be replayed here: it was made under another version of its ruleset's rules than this affray
    runs (the sentence names both; see :func:`affray.core.plugin.rules_changed`). None when the versions match."""
    _record(data)  # an unknown ruleset is refused with its own sentence
    recorded = data.get("rules_version")
    return rules_changed(as_str(data["ruleset"]), None if recorded is None else as_str(recorded), "log")


def check_rules(data: JsonMapping) -> None:
    """A :class:`LogFormatError` with :func:`rules_refusal`'s sentence when the log was made under other rules."""
    refusal = rules_refusal(data)
    if refusal is not None:
        raise LogFormatError(f"{refusal}: it is not replayed ({_replays_it(data)})")


def _replays_it(data: JsonMapping) -> str:
    made = data.get("rules_version") or UNRECORDED_RULES_VERSION
    return f"an affray that runs {data['ruleset']} rules version {made} replays it"


def import_log(data: JsonMapping) -> Match:
    """Rebuild a match from a log by replaying its records on its setup and seed; a log made under other rules is
    refused (:func:`check_rules`)."""
    seed = _seed(data)
    record = _record(data)
    check_rules(data)
    _rebuild(data, seed)  # a setup of the wrong shape is refused with its field
    try:
        return Match.restore(
            record,
            as_object(data["setup"]),
            as_object(data["options"]),
            seed=seed,
            records=records_of(data),
            seats=as_names(data.get("seats")),
            controllers=as_names(data.get("controllers")),
            salts=salts_of(data),
            seal_key=_seal_key(data),
        )
    except ReplayError as exc:
        raise LogFormatError(str(exc)) from None
    except _REPLAY_ERRORS as exc:
        raise LogFormatError(
            f"a record cannot be replayed: it is not a record of this ruleset ({type(exc).__name__}: {exc})"
        ) from None


@dataclass(slots=True)
class VerifyReport:
    """The result of :func:`verify`: ``ok`` and the list of problems found (first ones first)."""

    rolls_checked: int = 0
    actions_checked: int = 0
    free_rolls_checked: int = 0  # a table's free rolls (chat), their dice counted in rolls_checked
    problems: list[str] = field(default_factory=list)
    #: The rolls the log holds but gives no way to check, one sentence each (a whisper whose pair's key it lacks):
    #: not problems, but not checked either.
    unchecked: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _check_free_rolls(seed: bytes, rolls: Json, report: VerifyReport, whispers: bool) -> None:
    """A table's free rolls (chat), each die re-derived from the seed's free stream (``free:i:attempt``) or, a
    whispered one of a format-4 log (``whispers``), from its pair's key (``whisper:i:attempt``), which must hash to
    the commitment its line carried. A whisper whose key the log does not hold is listed as unchecked."""
    if rolls is None:
        return
    if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
        report.problems.append("free_rolls: a list of free rolls ({n, seat, notation, roll})")
        return
    for entry in map(as_object, rolls):
        where = f"free roll #{entry.get('n')}"
        event: JsonObject = {
            "type": "rolled",
            "actor": entry.get("seat"),
            "purpose": f"free roll {entry.get('notation')}",
            "roll": entry.get("roll"),
        }
        if not whispers or entry.get("to") is None:
            _check_rolls(seed, [event], where, report, FREE_STREAM)
        else:
            key = _whisper_key(entry, where, report)
            if key is None:
                continue
            _check_rolls(key, [event], where, report, WHISPER_STREAM)
        report.free_rolls_checked += 1


def _whisper_key(entry: JsonMapping, where: str, report: VerifyReport) -> bytes | None:
    """The pair's key of a whispered free roll, checked against its commitment; None (listed as unchecked, or a
    problem) when the log does not hold it or it does not match."""
    told = f"{where} ({entry.get('seat')} to {entry.get('to')}: {entry.get('notation')})"
    value = entry.get("key")
    if value is None:
        report.unchecked.append(f"{told} is a whisper this log holds no key for: its dice are not checked")
        return None
    try:
        key = bytes.fromhex(as_str(value))
    except (ValueError, TypeError):
        report.problems.append(f"{told}: its key is not hexadecimal")
        return None
    if commitment_of(key) != entry.get("commitment"):
        report.problems.append(f"{told}: its key does not match the commitment its line carried")
        return None
    return key


def _check_rolls(seed: bytes, events: Json, where: str, report: VerifyReport, stream: str = "") -> None:
    """``events``: a list of event objects (check_log admitted them)."""
    for index, event in enumerate(map(as_object, as_list(events))):
        if event.get("type") != "rolled":
            continue
        roll = event.get("roll")
        dice = roll.get("dice") if isinstance(roll, dict) else None
        checked = [d for d in dice if check_die(d)] if isinstance(dice, list) else []
        if not isinstance(dice, list) or len(checked) != len(dice):
            report.problems.append(
                f"{where}, event {index}: a 'rolled' event holds roll.dice, a list of "
                "{draw, sides, value} whole numbers"
            )
            continue
        for die in checked:
            report.rolls_checked += 1
            derived = derive_die(seed, die["draw"], die["sides"], stream)
            if derived != die["value"]:
                report.problems.append(
                    f"{where}, event {index} ({event.get('actor')}'s {event.get('purpose')} roll): draw "
                    f"{die['draw']} on a d{die['sides']} is recorded as {die['value']} but the seed gives {derived}"
                )


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
    """The hash chain of :mod:`affray.core.chain`, where the log carries one (or a head is given): format 4's under
    the chain key it reveals at the end."""
    from affray.core.chain import chain_problems

    if head is not None or data.get("chain") is not None:
        key = _key(data, "chain_key", "its hash chain cannot be checked")
        report.problems.extend(chain_problems(data, records_of(data), head, key))


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
    _check_free_rolls(seed, data.get("free_rolls"), report, salts_of(data) == SECRET_SALTS)
    for entry in records:
        _check_rolls(seed, entry.get("events", []), _describe(entry), report)
    refusal = rules_refusal(data)
    if refusal is not None:  # other rules: the dice, seed and chain are checked, the actions not replayed
        checked = (
            f"its seed matches its commitment and its {report.rolls_checked} dice re-derive from it, but "
            if not report.problems
            else ""
        )
        report.problems.append(f"{refusal}: {checked}its actions are not replayed ({_replays_it(data)})")
        return report
    match = _rebuild(data, seed)
    diff = _first_difference(as_list(data.get("setup_events", [])), [e.to_dict() for e in match.setup_events])
    if diff:
        report.problems.append(f"setup: {diff}")
    for entry in records:
        try:
            result = _replay(match, entry)
        except ReplayError as exc:
            report.problems.append(f"{_describe(entry)} is illegal on replay: {exc}")
            return report
        report.actions_checked += entry.get("kind", "action") == "action"
        events = result.events if isinstance(result, Accepted) else []
        diff = _first_difference(as_list(entry.get("events", [])), [e.to_dict() for e in events])
        if diff:
            report.problems.append(f"{_describe(entry)}: {diff}")
            return report
    outcome = match.outcome()
    logged = data.get("outcome")
    derived = None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}
    if logged != derived:
        report.problems.append(f"the outcome is recorded as {logged} but replay gives {derived}")
    return report
