"""Parameter sweeps: vary one number of a scenario (or of its content) and watch the win rate move.

``--param PATH=LO..HI[:STEP]``. PATH is a dotted path into the scenario file (``sides[1].combatants[0].hp``,
``sides.1.combatants.0.stats.endurance``), may start with a combatant's id (``widow.stats.endurance``), or
with ``content.<section>.<id>`` to change a content item (``content.characters.bruxa.endurance``,
``content.cards.sword_swing.init``). Each point samples until its win-rate interval is narrower than the
requested precision or its fight budget is spent.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from affray.core.content import ContentLibrary

_RANGE = re.compile(r"^\s*(?P<path>[^=]+?)\s*=\s*(?P<lo>-?\d+(?:\.\d+)?)\s*\.\.\s*(?P<hi>-?\d+(?:\.\d+)?)"
                    r"(?:\s*:\s*(?P<step>\d+(?:\.\d+)?))?\s*$")
_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class SweepError(ValueError):
    """A malformed ``--param`` or a path that does not lead to a number; the message says which."""


@dataclass(frozen=True, slots=True)
class Param:
    path: str
    values: tuple[float | int, ...]


def parse_param(text: str) -> Param:
    """``PATH=LO..HI[:STEP]`` into a path and its values (whole numbers unless a bound has a decimal point)."""
    m = _RANGE.match(text)
    if m is None:
        raise SweepError(f"--param expects PATH=LO..HI or PATH=LO..HI:STEP with numbers, got '{text}'")
    integral = not any("." in (m[g] or "") for g in ("lo", "hi", "step"))
    conv: Callable[[str], float | int] = int if integral else float
    lo, hi, step = conv(m["lo"]), conv(m["hi"]), conv(m["step"] or "1")
    if hi < lo:
        raise SweepError(f"--param range {lo}..{hi} runs backwards; write LO..HI with LO <= HI")
    if step <= 0:
        raise SweepError("--param step must be positive")
    values: list[float | int] = []
    k = 0
    while lo + k * step <= hi + 1e-9:
        values.append(lo + k * step if integral else round(lo + k * step, 10))
        k += 1
        if k > 1000:
            raise SweepError("--param gives more than 1000 points; use a larger step")
    return Param(m["path"].strip(), tuple(values))


def segments(path: str) -> list[str | int]:
    out: list[str | int] = []
    for part in path.split("."):
        for m in _SEGMENT.finditer(part):
            if m[1] is not None:
                out.append(int(m[1]) if m[1].isdigit() else m[1])
            else:
                out.append(int(m[2]))
    if not out:
        raise SweepError(f"empty --param path '{path}'")
    return out


def _find_combatant(data: dict[str, Any], cid: str) -> list[str | int] | None:
    for i, side in enumerate(data.get("sides", [])):
        for j, c in enumerate(side.get("combatants", [])):
            if isinstance(c, dict) and c.get("id") == cid:
                return ["sides", i, "combatants", j]
    return None


def set_path(data: Any, path: list[str | int], value: Any, shown: str) -> None:
    """Set ``value`` at ``path`` in nested dicts/lists; missing mapping keys are created, list items never."""
    node = data
    for depth, key in enumerate(path):
        last = depth == len(path) - 1
        where = shown if depth == 0 else ".".join(str(p) for p in path[:depth])
        if isinstance(node, list):
            if not isinstance(key, int) or not 0 <= key < len(node):
                raise SweepError(f"--param {shown}: {where} is a list of {len(node)}; '{key}' is not an index in it")
            if last:
                node[key] = value
            node = node[key]
        elif isinstance(node, dict):
            name = str(key)
            if last:
                if isinstance(node.get(name), dict | list):
                    raise SweepError(f"--param {shown}: '{name}' holds a group of fields, not a number")
                node[name] = value
            else:
                node = node.setdefault(name, {})
        else:
            raise SweepError(f"--param {shown}: cannot go into '{key}' below a plain value")


Patch = Callable[[ContentLibrary], None]


def apply(data: dict[str, Any], param_path: str, value: float | int) -> tuple[dict[str, Any], Patch | None]:
    """A copy of the scenario ``data`` with the parameter set, and a content patch if it targets content."""
    path = segments(param_path)
    if path[0] == "content":
        if len(path) < 4:
            raise SweepError(f"--param {param_path}: a content path is content.<section>.<id>.<field>")
        section, item_id, inner = str(path[1]), str(path[2]), path[3:]

        def patch(library: ContentLibrary) -> None:
            try:
                item = library.get(section, item_id)
            except KeyError as exc:
                raise SweepError(f"--param {param_path}: {exc.args[0]}") from None
            dumped = item.model_dump()
            set_path(dumped, inner, value, param_path)
            try:
                library.sections[section][item_id] = type(item).model_validate(dumped)
            except ValidationError as exc:
                raise SweepError(f"--param {param_path}={value}: {exc.errors()[0]['msg']}") from None

        return copy.deepcopy(data), patch
    found = _find_combatant(data, str(path[0])) if isinstance(path[0], str) and path[0] not in data else None
    full = (found + path[1:]) if found else path
    patched = copy.deepcopy(data)
    set_path(patched, full, value, param_path)
    return patched, None


def scenario_at(data: dict[str, Any], source: str | Path, param: str, value: float | int) -> Any:
    """The checked scenario with the parameter at ``value`` (errors name the parameter)."""
    from affray.api import scenario_from_data
    from affray.core.content import ContentError

    patched, patch = apply(data, param, value)
    try:
        return scenario_from_data(patched, source, patch=patch)
    except ContentError as exc:
        raise SweepError(f"--param {param}={value} makes the scenario invalid: {exc.problems[0].field}: "
                         f"{exc.problems[0].expected}") from None
