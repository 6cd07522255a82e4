"""Scenario files: which ruleset, which mode and options, which sides and combatants.

The generic shape lives here; each ruleset subclasses :class:`CombatantBase` with its own fields
(inline stats, positions, range bands) and :class:`ScenarioBase` with ``sides: list[Side[ItsCombatant]]``,
so one validation pass checks the whole file and errors carry the full field path.

A combatant either references content (``use: <id>``), names a character sheet file (``sheet: <path>``,
relative to the scenario; read through :mod:`affray.core.sheets`) or gives its statistics inline; ``controller`` is
a policy name (``random``, ``heuristic``...) or ``human``; ``seat`` groups combatants under one player
(defaulting to the combatant's id; the seat ``gm`` is the game master, who also sees everything).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from affray.core.content import ContentError, Problem, read_yaml, validate

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"


class Strict(BaseModel):
    """Base of every schema: unknown fields are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class CombatantBase(Strict):
    id: str = Field(pattern=ID_PATTERN, description="unique id within the scenario, e.g. 'geralt'")
    name: str | None = Field(default=None, description="display name; defaults to the content's name or the id")
    use: str | None = Field(default=None, description="id of a character or monster in the content")
    sheet: str | None = Field(default=None, min_length=1,
                              description="a character sheet file, relative to the scenario (instead of 'use')")
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
    options: dict[str, Any] = Field(default_factory=dict)
    content: list[str] = Field(default_factory=list, description="extra content files or folders")
    gm: GmSeat = Field(default_factory=GmSeat, description="who plays the GM's decisions (default: a person)")
    sides: list[Any]
    _folder: Path = PrivateAttr(default_factory=Path)  # the scenario file's folder, set by validate_scenario

    @field_validator("sides", mode="before")
    @classmethod
    def _two_sides(cls, value: Any) -> Any:
        """A fight is between sides: at least two (every ruleset's scenario inherits this check)."""
        if isinstance(value, list) and len(value) < 2:
            raise ValueError(f"a scenario needs at least two sides (this one has {len(value)})")
        return value

    def sheet_path(self, sheet: str) -> Path:
        """Where a combatant's ``sheet`` file is: relative paths start at the scenario file's folder."""
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


def validate_scenario(model: type[S], data: dict[str, Any], path: str | Path) -> S:
    """Validate a scenario read from ``path``; it remembers its folder, for sheet paths."""
    scenario = validate(model, data, path)
    scenario._folder = Path(path).parent
    return scenario
