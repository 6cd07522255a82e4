"""Scenario files: which ruleset, which mode and options, which sides and combatants.

The generic shape lives here; each ruleset subclasses :class:`CombatantBase` with its own fields
(inline stats, positions, range bands) and :class:`ScenarioBase` with ``sides: list[Side[ItsCombatant]]``,
so one validation pass checks the whole file and errors carry the full field path.

A combatant either references content (``use: <id>``), names a character sheet file (``sheet: <path>``,
relative to the scenario; read through :mod:`affray.core.sheets`), holds a whole sheet (``sheet:`` a mapping, as
``affray character new`` writes one: a scenario that needs no other file, as the Build-a-fight page makes) or gives its
statistics inline; ``controller`` is
a policy name (``random``, ``heuristic``...) or ``human``; ``seat`` groups combatants under one player
(defaulting to the combatant's id; the seat ``gm`` is the game master, who also sees everything).
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from affray.core.content import ContentError, Problem, problems_of, read_yaml
from affray.core.sheets import inline_sheet

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"


class Strict(BaseModel):
    """Base of every schema: unknown fields are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class CombatantBase(Strict):
    id: str = Field(pattern=ID_PATTERN, description="unique id within the scenario, e.g. 'geralt'")
    name: str | None = Field(default=None, description="display name; defaults to the content's name or the id")
    use: str | None = Field(default=None, description="id of a character or monster in the content")
    sheet: str | dict[str, Any] | None = Field(
        default=None,
        min_length=1,
        description="a character sheet file, relative to the scenario, or the sheet itself (instead of 'use')",
    )
    controller: str = Field(default="heuristic", description="a policy name, or 'human'")
    seat: str | None = Field(default=None, description="the seat that plays this combatant; defaults to its id")

    @model_validator(mode="after")
    def _use_or_sheet(self) -> CombatantBase:
        if self.use is not None and self.sheet is not None:
            raise ValueError(f"combatant '{self.id}' names both 'use' and 'sheet'; give one of them")
        return self


C = TypeVar("C", bound=CombatantBase)


class Side(Strict, Generic[C]):
    name: str = Field(min_length=1)
    combatants: list[C] = Field(min_length=1)


class GmSeat(Strict):
    """Who makes the game master's calls when a ruleset asks for them (a policy name, or ``human``)."""

    controller: str = "human"


class ScenarioBase(Strict):
    ruleset: str
    name: str = ""
    description: str = ""
    mode: str | None = None
    options: dict[str, object] = Field(default_factory=dict)
    content: list[str] = Field(default_factory=list, description="extra content files or folders")
    gm: GmSeat = Field(default_factory=GmSeat, description="who plays the GM's decisions (default: a person)")
    sides: list[Any]
    _folder: Path = PrivateAttr(default_factory=Path)  # the scenario file's folder, set by validate_scenario

    @field_validator("sides", mode="before")
    @classmethod
    def _two_sides(cls, value: object) -> object:
        """A fight is between sides: at least two (every ruleset's scenario inherits this check)."""
        if isinstance(value, list) and len(value) < 2:
            raise ValueError(f"a scenario needs at least two sides (this one has {len(value)})")
        return value

    def sheet_path(self, sheet: str | Mapping[str, object]) -> Path:
        """Where a combatant's ``sheet`` file is: relative paths start at the scenario file's folder. A sheet written
        in the scenario gets the name the sheet reader finds it by (:func:`affray.core.sheets.inline_sheet`)."""
        if not isinstance(sheet, str):
            return inline_sheet(sheet)
        return self._folder / sheet

    @model_validator(mode="after")
    def _unique_names(self) -> ScenarioBase:
        seen: set[str] = set()
        sides: set[str] = set()
        for side in self.sides:
            if side.name in sides:
                raise ValueError(f"side names must be unique ('{side.name}' appears twice)")
            sides.add(side.name)
            for c in side.combatants:
                if c.id in seen or c.id in ("gm", "spectator"):
                    raise ValueError(f"combatant ids must be unique and not 'gm'/'spectator' ('{c.id}')")
                seen.add(c.id)
        return self

    def combatants(self) -> list[tuple[str, Any]]:
        """``(side name, combatant)`` for every combatant, in file order."""
        return [(side.name, c) for side in self.sides for c in side.combatants]


S = TypeVar("S", bound=ScenarioBase)


def load_scenario_data(path: str | Path) -> dict[str, Any]:
    """Read a scenario file as a mapping, checking only that it names a ruleset."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise ContentError(path, [Problem("(top level)", "a mapping with ruleset, sides, ...")])
    if not isinstance(data.get("ruleset"), str):
        raise ContentError(path, [Problem("ruleset", "the name of a ruleset (e.g. hud)")])
    return data


class NotAScenario(ContentError):
    """A file of another kind (a character sheet, a content file) given where a scenario is expected: one sentence
    naming what it is and where a scenario names such a file, instead of a dozen unknown fields."""

    def __init__(self, path: str | Path, kind: str, named_under: str, checked_by: str) -> None:
        super().__init__(
            path, [Problem("(file)", f"a scenario, not {kind} (a scenario names {kind} under `{named_under}:`)")]
        )
        self.sentence = (
            f"{path} is {kind}, not a scenario; a scenario names it under `{named_under}:` "
            f"(`{checked_by} {path}` checks it)"
        )

    def __str__(self) -> str:
        return self.sentence


def _other_kind(model: type[ScenarioBase], data: Mapping[str, object], path: str | Path) -> NotAScenario | None:
    """What ``data`` is when it is plainly no scenario (it has no ``sides``), told as ``affray content check``
    tells the kinds apart: a character sheet has a ``format`` line; a content file holds sections of items keyed
    by id (mappings under names no scenario has)."""
    if "sides" in data:
        return None
    if "format" in data:
        return NotAScenario(path, "a character sheet", "sheet", "affray character check")
    fields = _names(model)
    if any(key not in fields and isinstance(value, dict) for key, value in data.items()):
        return NotAScenario(path, "a content file", "content", "affray content check")
    return None


def _names(model: type[BaseModel]) -> list[str]:
    """The names a model's fields are written with (the name and any alias)."""
    return sorted({n for name, f in model.model_fields.items() for n in (name, f.alias) if n})


def _model_at(model: type[BaseModel], loc: Sequence[int | str]) -> type[BaseModel] | None:
    """The model that holds the field at ``loc`` (pydantic's location, the field itself last), following fields,
    list items and mapping values; ``None`` where the way is not one model (a union of several, a free value)."""
    annotation: object = model
    for key in loc[:-1]:
        annotation = _one_type(annotation)
        origin = typing.get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) and isinstance(key, str):
            fields = {n: f for name, f in annotation.model_fields.items() for n in (name, f.alias) if n}
            if key not in fields:
                return None
            annotation = fields[key].annotation
        elif origin in (list, tuple, Sequence) and isinstance(key, int):
            annotation = typing.get_args(annotation)[0]
        elif origin in (dict, Mapping) and isinstance(key, str):
            annotation = typing.get_args(annotation)[1]
        else:
            return None
    annotation = _one_type(annotation)
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _one_type(annotation: object) -> object:
    """``X`` of ``X | None``; ``None`` (no one type) for a union of several."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return kept[0] if len(kept) == 1 else None
    return annotation


EXTRA = "Extra inputs are not permitted"  # pydantic's words for a field the model does not have


def _did_you_mean(model: type[BaseModel], error: ErrorDetails, problem: Problem) -> Problem:
    """An unknown field's problem in a designer's words, with the nearest field of its place when one is near (a
    typo: ``contoler``, ``endurence``), else the fields that place has."""
    loc = [part for part in error["loc"] if not (isinstance(part, str) and part.startswith(("function-", "tagged-")))]
    holder = _model_at(model, loc) if error["type"] == "extra_forbidden" and loc and isinstance(loc[-1], str) else None
    if holder is None:
        return problem
    known = _names(holder)
    near = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    hint = f"did you mean '{near[0]}'?" if near else f"the fields here are {', '.join(known)}"
    return Problem(problem.field, f"{problem.expected.replace(EXTRA, 'an unknown field', 1)}; {hint}")


def validate_scenario(model: type[S], data: Mapping[str, object], path: str | Path) -> S:
    """Validate a scenario read from ``path``; it remembers its folder, for sheet paths. A character sheet or a
    content file is refused as such (:class:`NotAScenario`); an unknown field's problem names the nearest one."""
    if not isinstance(data, dict):
        raise ContentError(path, [Problem("(top level)", "a mapping of fields (key: value)")])
    other = _other_kind(model, data, path)
    if other is not None:
        raise other
    try:
        scenario = model.model_validate(data)
    except ValidationError as exc:
        problems = [
            _did_you_mean(model, error, problem) for error, problem in zip(exc.errors(), problems_of(exc), strict=True)
        ]
        raise ContentError(path, problems) from None
    scenario._folder = Path(path).parent
    return scenario
