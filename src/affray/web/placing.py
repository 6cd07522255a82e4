"""How a ruleset's scenario places its combatants, for the Build-a-fight page (docs/table.md, "Building a fight"),
read from the ruleset's own scenario schema (its plug-in record's ``scenario_type``): the page names no ruleset.

``building(record)`` answers ``{"grid", "line", "bands", "modes", "mode", "terrain", "size"}``:

- ``grid``: the combatant field that holds a square ``[column, row]`` (a ``tuple[int, int]``), when there is one; the
  scenario's ``map`` then is an ASCII map whose ``terrain`` (``[[character, words]...]``) the map field's description
  lists (``'#' wall``), and ``size`` its default width and height;
- ``line``: the combatant field that holds a distance in metres along a line (a ``float`` called ``position``);
- ``bands``: the choices of a combatant's ``band`` field (a range band), when it has one;
- ``modes`` and ``mode``: the choices of the scenario's ``mode`` field and its default.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Literal

from pydantic import BaseModel

from affray.core.json import Json, JsonObject
from affray.core.plugin import AnyPlugin

#: A terrain in a map field's description: "'#' wall" or "'~' and '^' difficult" (up to the next comma).
TERRAIN = re.compile(r"'(.)'(?: and '(.)')? ([^,']+)")
DEFAULT_SIZE = (12, 10)


def _bare(annotation: object) -> list[object]:
    """The types an annotation allows, ``None`` left out (``X | None`` -> ``[X]``)."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return [a for a in typing.get_args(annotation) if a is not type(None)]
    return [annotation]


def _choices(annotation: object) -> list[Json]:
    for kind in _bare(annotation):
        if typing.get_origin(kind) is Literal:
            return [str(v) for v in typing.get_args(kind)]
    return []


def _combatant_model(scenario: type[BaseModel]) -> type[BaseModel] | None:
    sides = scenario.model_fields.get("sides")
    side = next(iter(typing.get_args(sides.annotation)), None) if sides is not None else None
    if not (isinstance(side, type) and issubclass(side, BaseModel)):
        return None
    combatants = side.model_fields.get("combatants")
    model = next(iter(typing.get_args(combatants.annotation)), None) if combatants is not None else None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _is_square(annotation: object) -> bool:
    return any(typing.get_origin(kind) is tuple and typing.get_args(kind) == (int, int) for kind in _bare(annotation))


def building(record: AnyPlugin) -> JsonObject:
    """How ``record``'s scenarios place combatants (see the module docstring)."""
    scenario: type[BaseModel] = record.ruleset().scenario_type
    combatant = _combatant_model(scenario)
    fields = combatant.model_fields if combatant is not None else {}
    grid = next((name for name, f in fields.items() if _is_square(f.annotation)), None)
    line = (
        "position" if grid is None and "position" in fields and float in _bare(fields["position"].annotation) else None
    )
    bands = _choices(fields["band"].annotation) if "band" in fields else []
    mode = scenario.model_fields.get("mode")
    map_field = scenario.model_fields.get("map")
    terrain: list[Json] = []
    for match in TERRAIN.finditer(map_field.description or "" if map_field is not None else ""):
        terrain += [[ch, match.group(3).strip()] for ch in match.groups()[:2] if ch]
    size = scenario.model_fields.get("size")
    default = size.default if size is not None and isinstance(size.default, tuple) else DEFAULT_SIZE
    return {
        "grid": grid,
        "line": line,
        "bands": bands,
        "modes": _choices(mode.annotation) if mode is not None else [],
        "mode": str(mode.default) if mode is not None and isinstance(mode.default, str) else None,
        "terrain": terrain if grid is not None else [],
        "size": [int(default[0]), int(default[1])],
    }
