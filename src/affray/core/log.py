"""Match logs as versioned JSON: export, import (by replay) and verification.

The file holds the record (ruleset, setup, options, seats, seed commitment, the actions) and, for audit
and narration, the derived events. ``verify`` checks the seed against the commitment, re-derives every
logged die from the seed and its draw index, replays every action and compares the events, and says
exactly which roll or action differs. Rule: X-1 (log every roll); DESIGN.md contracts 4 and 5.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from affray.core.engine import Accepted, get_ruleset
from affray.core.match import Match, ReplayError
from affray.core.rng import commitment_of, derive_die

FORMAT = "affray-match"
VERSION = 2  # 2: records (actions and undo records), the affray and rules versions; 1: actions only
READS = (1, 2)


class LogFormatError(ValueError):
    """A file that is not an affray match log of a version this program reads."""


def export_log(match: Match, *, reveal_seed: bool | None = None) -> dict[str, Any]:
    """The match as a JSON-ready dict. The seed is included once the match is over (or if asked)."""
    from affray.core.plugin import plugin

    reveal = match.outcome() is not None if reveal_seed is None else reveal_seed
    outcome = match.outcome()
    return {
        "format": FORMAT,
        "version": VERSION,
        "affray_version": affray_version(),
        "rules_version": plugin(match.ruleset.name).rules_version,
        "ruleset": match.ruleset.name,
        "setup": match.setup_data,
        "options": match.options_dict,
        "seats": match.seats,
        "controllers": match.controllers,
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


def write_log(match: Match, path: str | Path) -> None:
    Path(path).write_text(json.dumps(export_log(match), indent=1) + "\n", encoding="utf-8")


def read_log(path: str | Path) -> dict[str, Any]:
    """Read and shape-check a log file; raise :class:`LogFormatError` with one sentence otherwise."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise LogFormatError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"{path} is not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LogFormatError(f"{path} is not an affray match log (expected \"format\": \"{FORMAT}\")")
    if data.get("version") not in READS:
        raise LogFormatError(f"{path} is log version {data.get('version')!r}; this affray reads versions "
                             f"{', '.join(map(str, READS))}")
    for key in ("ruleset", "setup", "options", "commitment", "records" if data["version"] >= 2 else "actions"):
        if key not in data:
            raise LogFormatError(f"{path} has no '{key}' field")
    return data


def records_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The log of record of a log of any version this affray reads (version 1 logs hold actions only)."""
    if "records" in data:
        return list(data["records"])
    return [{**entry, "kind": "action"} for entry in data["actions"]]


def _seed(data: dict[str, Any]) -> bytes:
    if not data.get("seed"):
        raise LogFormatError("the log does not reveal its seed yet, so it cannot be replayed or verified")
    try:
        return bytes.fromhex(data["seed"])
    except ValueError:
        raise LogFormatError("the log's seed is not hexadecimal") from None


def import_log(data: dict[str, Any]) -> Match:
    """Rebuild a match from a log by replaying its actions on its setup and seed."""
    seed = _seed(data)
    try:
        return Match.restore(get_ruleset(data["ruleset"]), data["setup"], data["options"], seed=seed,
                             records=records_of(data), seats=data.get("seats"), controllers=data.get("controllers"))
    except ReplayError as exc:
        raise LogFormatError(f"{exc}{_rules_note(data)}") from None


def _rules_note(data: dict[str, Any]) -> str:
    """Why an older log may replay differently: it was recorded under other rules."""
    from affray.core.plugin import plugin

    logged, now = data.get("rules_version"), plugin(data["ruleset"]).rules_version
    if logged is None or logged == now:
        return ""
    return f" (the log was recorded under {data['ruleset']} rules version {logged}; this affray runs {now})"


@dataclass(slots=True)
class VerifyReport:
    """The result of :func:`verify`: ``ok`` and the list of problems found (first ones first)."""

    rolls_checked: int = 0
    actions_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _check_rolls(seed: bytes, events: list[dict[str, Any]], where: str, report: VerifyReport) -> None:
    for index, event in enumerate(events):
        if event.get("type") != "rolled":
            continue
        for die in event["roll"]["dice"]:
            report.rolls_checked += 1
            derived = derive_die(seed, die["draw"], die["sides"])
            if derived != die["value"]:
                report.problems.append(
                    f"{where}, event {index} ({event.get('actor')}'s {event.get('purpose')} roll): draw "
                    f"{die['draw']} on a d{die['sides']} is recorded as {die['value']} but the seed gives {derived}")


def _describe(entry: dict[str, Any]) -> str:
    return f"action #{entry['seq']} ({entry['seat']}: {json.dumps(entry['action'], sort_keys=True)})"


def _first_difference(recorded: list[dict[str, Any]], replayed: list[dict[str, Any]]) -> str | None:
    for i, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
        if a != b:
            return f"event {i} is recorded as {json.dumps(a)} but replay gives {json.dumps(b)}"
    if len(recorded) != len(replayed):
        return f"{len(recorded)} events are recorded but replay gives {len(replayed)}"
    return None


def verify(data: dict[str, Any]) -> VerifyReport:
    """Check a log against its own seed: commitment, every roll, every action. See the module docstring."""
    report = VerifyReport()
    seed = _seed(data)
    if commitment_of(seed) != data["commitment"]:
        report.problems.append("the seed does not match the commitment published at the start of the match")
        return report
    records = records_of(data)
    _check_rolls(seed, data.get("setup_events", []), "setup", report)
    for entry in records:
        _check_rolls(seed, entry.get("events", []), _describe(entry), report)
    match = Match(get_ruleset(data["ruleset"]), data["setup"], data["options"], seed=seed,
                  seats=data.get("seats"), controllers=data.get("controllers"))
    diff = _first_difference(data.get("setup_events", []), [e.to_dict() for e in match.setup_events])
    if diff:
        report.problems.append(f"setup: {diff}{_rules_note(data)}")
    for entry in records:
        try:
            result = match.apply_record(entry)
        except ReplayError as exc:
            report.problems.append(f"{_describe(entry)} is illegal on replay: {exc}{_rules_note(data)}")
            return report
        report.actions_checked += entry.get("kind", "action") == "action"
        events = result.events if isinstance(result, Accepted) else []
        diff = _first_difference(entry.get("events", []), [e.to_dict() for e in events])
        if diff:
            report.problems.append(f"{_describe(entry)}: {diff}{_rules_note(data)}")
            return report
    outcome = match.outcome()
    logged = data.get("outcome")
    derived = None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason}
    if logged != derived:
        report.problems.append(f"the outcome is recorded as {logged} but replay gives {derived}")
    return report
