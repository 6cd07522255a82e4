"""The shape of a match log, checked before anything reads it (``verify``, ``replay``, ``fight --resume``).

A log is untrusted input: it may have been edited by hand or by an opponent. :func:`check_log` names the first
field that is not what a log of this version holds and what was expected there, as a :class:`LogFormatError`.
What the shape cannot show (a setup that is not the ruleset's, an action the rules refuse) is found on replay
by :mod:`affray.core.log`, which words it the same way. Rule: X-1; DESIGN.md contract 4.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypedDict, TypeGuard

from affray.core.json import JsonObject
from affray.core.records import ACTION, RULING, UNDO

FORMAT = "affray-match"
# 4: a table's salt secret of its own: seal salts from its seal key and the hash chain over public forms with salted
# digests (core/chain.py), both keys revealed at the end (seal_key, chain_key), whispered free rolls from their pair's
# key; 3: seal salts from their own stream (so a quiet fight draws the same dice); 2: records (actions and undo
# records), the affray and rules versions, salts drawn from the dice stream; 1: actions only
VERSION = 4
READS = (1, 2, 3, 4)
MAX_SIDES = 1_000_000  # the notation's limit; a larger die would make re-deriving it slow
_HEX = re.compile(r"^[0-9a-f]+$")


class LogFormatError(ValueError):
    """A file that is not an affray match log of a version this program reads."""


Check = Callable[[object], bool]


def _text(v: object) -> TypeGuard[str]:
    return isinstance(v, str)


def _hex(v: object) -> TypeGuard[str]:
    return isinstance(v, str) and len(v) % 2 == 0 and bool(_HEX.match(v))


def _int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(v: object) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())


def _events(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in v)


_TOP: dict[str, tuple[Check, str, bool]] = {
    # field: (check, what is expected, required)
    "ruleset": (_text, "the name of a ruleset", True),
    "setup": (lambda v: isinstance(v, dict) and bool(v), "the match setup (a non-empty object)", True),
    "options": (lambda v: isinstance(v, dict), "the rule options (an object)", True),
    "commitment": (lambda v: _hex(v) and len(v) == 64, "the seed's SHA-256 (64 hexadecimal digits)", True),
    "seed": (lambda v: v is None or (_hex(v) and len(v) > 0), "null or the seed in hexadecimal", False),
    "seats": (_names, "an object of combatant -> seat names", False),
    "controllers": (_names, "an object of combatant -> controller names", False),
    "setup_events": (_events, "a list of events (objects with a 'type')", False),
    "outcome": (lambda v: v is None or isinstance(v, dict), "null or an object {winner, reason}", False),
    "seal_key": (
        lambda v: v is None or (_hex(v) and len(v) == 64),
        "null or the seal key (64 hexadecimal digits)",
        False,
    ),
    "chain_key": (
        lambda v: v is None or (_hex(v) and len(v) == 64),
        "null or the chain key (64 hexadecimal digits)",
        False,
    ),
    # absent from a version 1 log: made before rules versions were recorded, it counts as "1" (core/plugin.py)
    "rules_version": (_text, "the version of the ruleset's rules the log was made under (text)", False),
}
#: The kinds of record a log holds (core/records.py): the kinds a table's store keeps too (store/rows.py,
#: RECORD_KINDS); a version 1 log's entries carry no kind (all actions).
KINDS = (ACTION, UNDO, RULING)
_ENTRY: dict[str, tuple[Check, str]] = {
    "seq": (_int, "its index, a whole number"),
    "seat": (_text, "the seat that acted (text)"),
    "actor": (_text, "the combatant that acted (text)"),
    "action": (lambda v: isinstance(v, dict) and isinstance(v.get("type"), str), "an object with a 'type'"),
    "kind": (
        lambda v: v is None or v in KINDS,
        f"the kind of record, {', '.join(repr(k) for k in KINDS[:-1])} or {KINDS[-1]!r} (a GM ruling)",
    ),
}


def check_log(data: object, source: str) -> JsonObject:
    """``data`` if it has the shape of a log of this version, else a :class:`LogFormatError` naming ``source``,
    the field and what was expected."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LogFormatError(f'{source} is not an affray match log (expected "format": "{FORMAT}")')
    if data.get("version") not in READS:
        raise LogFormatError(
            f"{source}: version: one of {', '.join(map(str, READS))}, the versions this affray "
            f"reads (got {_short(data.get('version'))})"
        )
    for key, (ok, expected, required) in _TOP.items():
        if key not in data:
            if required:
                raise LogFormatError(f"{source}: {key}: {expected} (the field is missing)")
            continue
        if not ok(data[key]):
            raise LogFormatError(f"{source}: {key}: {expected} (got {_short(data[key])})")
    key = "records" if data["version"] >= 2 else "actions"
    entries = data.get(key)
    if not isinstance(entries, list):
        raise LogFormatError(
            f"{source}: {key}: a list of {key} (got {_short(entries)}{'' if key in data else ': the field is missing'})"
        )
    for i, entry in enumerate(entries):
        _check_entry(entry, i, source, key)
    return data


def _check_entry(entry: object, i: int, source: str, key: str) -> None:
    if not isinstance(entry, Mapping):
        raise LogFormatError(f"{source}: {key}[{i}]: an object {{seq, seat, actor, action}} (got {_short(entry)})")
    for name, (ok, expected) in _ENTRY.items():
        if not ok(entry.get(name)):
            raise LogFormatError(f"{source}: {key}[{i}].{name}: {expected} (got {_short(entry.get(name))})")
    if entry.get("kind") == "undo" and not _int(entry["action"].get("to")):
        raise LogFormatError(f"{source}: {key}[{i}].action.to: the version an undo goes back to, a whole number")
    if "events" in entry and not _events(entry["events"]):
        raise LogFormatError(f"{source}: {key}[{i}].events: a list of events (objects with a 'type')")


class Die(TypedDict):
    """A logged die (``Roll.to_dict``'s ``dice``), as :func:`check_die` admits it."""

    draw: int
    sides: int
    value: int


def check_die(die: object) -> TypeGuard[Die]:
    """A logged die: ``{draw, sides, value}`` whole numbers, ``sides`` at least 1."""
    return (
        isinstance(die, dict)
        and all(_int(die.get(k)) for k in ("draw", "sides", "value"))
        and 1 <= die["sides"] <= MAX_SIDES
        and die["draw"] >= 0
    )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
