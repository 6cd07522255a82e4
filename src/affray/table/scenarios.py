"""Opening a table's scenario: an example by name or uploaded YAML text, checked as ``content check`` does.

An example is named as :mod:`affray.table.examples` lists it (``RULESET/NAME``: a file its ruleset's record
names). Uploaded text may not name files on the server (``content`` folders, ``sheet`` files): a table's creator must
not be able to read the server's disk through a scenario. A sheet written in the scenario itself (``sheet:`` a
mapping, as the Build-a-fight page writes a player's sheet) names no file and is welcome.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from affray.api import Scenario, scenario_from_data
from affray.core.content import ContentError, ContentLibrary, Problem
from affray.core.engine import GM
from affray.core.files import load_yaml
from affray.core.json import JsonObject
from affray.core.match import Match
from affray.core.plugin import plugin_names
from affray.core.scenario import load_scenario_data
from affray.table.errors import NOT_FOUND, UNPROCESSABLE, Refusal
from affray.table.examples import EXAMPLE_NAME, example_path, shown_path

UPLOAD_PATH = "scenario.yaml"  # the file name problems of uploaded text are reported against
MAX_SCENARIO_TEXT = 128 * 1024


#: Where a problem's field is: a combatant (``sides[1].combatants[2].use``), a side (``sides[1].name``), a line of the
#: text (``line 12``, YAML that does not parse), or a top-level field (``map``, ``options.x``).
COMBATANT_FIELD = re.compile(r"^sides\[(\d+)\](?:\.combatants(?:\[(\d+)\])?)?(?:\.(\w+))?")
LINE_FIELD = re.compile(r"^line (\d+)$")
TOP_FIELD = re.compile(r"^(\w+)")
EMPTY_SIDE = "List should have at least 1 item"


def where(field: str, expected: str) -> dict[str, str]:
    """A problem's place as a page addresses it, beside its ``field`` (docs/table.md, "Building a fight"): ``side``
    and ``combatant`` (indices, as text), ``part`` (the field's first name there or at the top), or ``line``; and
    ``expected`` in words where pydantic's are a list's ("at least 1 item": a side with nobody on it)."""
    out: dict[str, str] = {}
    if found := COMBATANT_FIELD.match(field):
        out["side"] = found[1]
        if found[2] is not None:
            out["combatant"] = found[2]
        elif field.endswith(".combatants") and expected.startswith(EMPTY_SIDE):
            out["expected"] = "at least one combatant; nobody is on this side yet"
        if found[3]:
            out["part"] = found[3]
    elif found := LINE_FIELD.match(field):
        out["line"] = found[1]
    elif found := TOP_FIELD.match(field):
        out["part"] = found[1]
    return out


def _problems(exc: ContentError, examples_dir: Path | None) -> Refusal:
    """The problems of a scenario, with example paths below their examples' folder (no server paths in answers), each
    with its place (:func:`where`)."""
    file = shown_path(exc.path, examples_dir)
    problems = [
        {"file": file, "field": p.field, "expected": p.expected, **where(p.field, p.expected)} for p in exc.problems
    ]
    first = f"{file}: {problems[0]['field']}: {problems[0]['expected']}" if problems else "The scenario is not valid."
    return Refusal("bad_scenario", first, UNPROCESSABLE, problems)


def resolve_scenario(
    spec: str, examples_dir: Path | None = None, content: Mapping[str, ContentLibrary] | None = None
) -> tuple[Scenario, str]:
    """The checked scenario for an example name (a ruleset's, or a file of the server's ``examples_dir``) or YAML
    text, and the label kept with the table. ``content``: each ruleset's content merged with the server's own folder
    (``affray serve --content``, :func:`affray.table.library.load_extra`), which uploaded text may name by id."""
    try:
        if "\n" not in spec and EXAMPLE_NAME.match(spec):
            path = example_path(spec, examples_dir)
            if path is None:
                raise Refusal(
                    "unknown_scenario",
                    f"There is no example called '{spec}' (GET /api/examples lists them by name: RULESET/NAME).",
                    NOT_FOUND,
                )
            return scenario_from_data(load_scenario_data(path), path), spec
        data = _uploaded(spec)
        return scenario_from_data(data, UPLOAD_PATH, patch=_with_server_content(content, data)), "(uploaded)"
    except ContentError as exc:
        raise _problems(exc, examples_dir) from None


def _with_server_content(
    content: Mapping[str, ContentLibrary] | None, data: JsonObject
) -> Callable[[ContentLibrary], None] | None:
    """What adds the server's content to the library an uploaded scenario is resolved against (None: nothing to
    add). The server's library already holds the ruleset's own content; its sections replace the copy's."""
    extra = (content or {}).get(str(data.get("ruleset")))
    if extra is None:
        return None

    def add(library: ContentLibrary) -> None:
        for section, items in extra.sections.items():
            library.sections[section] = {**library.sections.get(section, {}), **items}

    return add


def _uploaded(text: str) -> JsonObject:
    if len(text) > MAX_SCENARIO_TEXT:
        raise ContentError(UPLOAD_PATH, [Problem("(file)", f"at most {MAX_SCENARIO_TEXT} characters")])
    try:
        data = load_yaml(text)  # the CLI's limits: nesting, aliases, lone surrogates (core/files.py)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(file)"
        raise ContentError(
            UPLOAD_PATH, [Problem(where, f"valid YAML ({getattr(exc, 'problem', None) or exc})")]
        ) from None
    if not isinstance(data, dict):
        raise ContentError(UPLOAD_PATH, [Problem("(top level)", "a mapping with ruleset, sides, ...")])
    if not isinstance(data.get("ruleset"), str):
        raise ContentError(UPLOAD_PATH, [Problem("ruleset", f"the name of a ruleset ({', '.join(plugin_names())})")])
    if data.get("content"):
        raise ContentError(UPLOAD_PATH, [Problem("content", "no content files in uploaded text (use an example)")])
    sides = data.get("sides")
    for i, side in enumerate(sides if isinstance(sides, list) else []):
        combatants = side.get("combatants") if isinstance(side, dict) else None
        for j, combatant in enumerate(combatants if isinstance(combatants, list) else []):
            if isinstance(combatant, dict) and isinstance(combatant.get("sheet"), str):
                raise ContentError(
                    UPLOAD_PATH,
                    [
                        Problem(
                            f"sides[{i}].combatants[{j}].sheet",
                            "no sheet files in uploaded text (write the sheet itself here, or use 'use' or stats)",
                        )
                    ],
                )
    return data


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """A seat to create: its name, role, the actors it plays, and who plays them ("human" or a policy)."""

    name: str
    role: str
    actors: tuple[str, ...]
    controller: str


SEAT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
RESERVED_SEATS = ("spectator",)


def cast(
    scenario: Scenario, controllers: Mapping[str, str], seats: Mapping[str, str] | None = None
) -> tuple[dict[str, str], dict[str, str]]:
    """Who plays whom: the scenario's seats and controllers with the table creator's choices applied, checked.

    ``controllers`` maps an actor to ``"human"`` (a person at a player's seat), ``"gm"`` (the GM's seat plays it) or
    a policy name (the server plays it); ``seats`` maps a person-played actor to its player seat's name (several
    actors may share one; default: the scenario's seat for it). Returns ``(seats, controllers)`` for the match."""
    from affray.ai.base import policy_names

    known = {"human", GM, *policy_names(scenario.plugin)}
    out_seats, out_controllers = dict(scenario.seats), dict(scenario.controllers)
    for actor, controller in controllers.items():
        if actor == GM and controller != GM and controller in known:
            out_controllers[GM] = controller  # who takes the GM's own calls: the GM person or a policy
            continue
        if actor not in out_controllers or actor == GM:
            raise Refusal(
                "unknown_actor",
                f"The scenario has no combatant '{actor}' (it has "
                f"{', '.join(sorted(a for a in out_controllers if a != GM))}).",
                UNPROCESSABLE,
            )
        if controller not in known:
            raise Refusal(
                "unknown_policy",
                f"'{controller}' is not a controller here; choose one of {', '.join(sorted(known))}.",
                UNPROCESSABLE,
            )
        if controller == GM:
            out_seats[actor], out_controllers[actor] = GM, "human"
        else:
            out_controllers[actor] = controller
            if out_seats.get(actor) == GM and controller == "human" and actor not in (seats or {}):
                out_seats[actor] = actor  # a person, not the GM, plays it now: its own seat unless one is named
    for actor, seat in (seats or {}).items():
        if actor not in out_controllers or actor == GM:
            raise Refusal("unknown_actor", f"The scenario has no combatant '{actor}'.", UNPROCESSABLE)
        if seat != GM and (not SEAT_NAME.match(seat) or seat in RESERVED_SEATS):
            raise Refusal(
                "bad_seat",
                f"'{seat}' is not a seat name: use 1 to 32 lowercase letters, digits, '-' or '_' (not 'spectator').",
                UNPROCESSABLE,
            )
        out_seats[actor] = seat
        if seat == GM:
            out_controllers[actor] = "human"
    return out_seats, out_controllers


def plan_seats(match: Match, spectator: bool) -> list[SeatPlan]:
    """The GM seat, one seat per person-played seat group of the scenario (a seat whose actors are all played by
    policies gets no link), and the spectator seat unless it is turned off."""
    groups: dict[str, list[str]] = {}
    for actor, seat in match.seats.items():
        groups.setdefault(seat, []).append(actor)
    plans = []
    for seat, actors in sorted(groups.items()):
        controllers = {match.controllers.get(a, "human") for a in actors if a != GM}
        controller = "human" if seat == GM or "human" in controllers else sorted(controllers)[0]
        plans.append(SeatPlan(seat, "gm" if seat == GM else "player", tuple(sorted(actors)), controller))
    if spectator:
        plans.append(SeatPlan("spectator", "spectator", (), "human"))
    return plans
