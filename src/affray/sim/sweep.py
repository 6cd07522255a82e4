"""Parameter sweeps: vary one number of a scenario (or of its content) and watch the win rate move.

``--param PATH=LO..HI[:STEP]``. PATH is a dotted path into the scenario file (``sides[1].combatants[0].hp``,
``sides.1.combatants.0.stats.endurance``), may start with a combatant's id (``widow.stats.endurance``), or
with ``content.<section>.<id>`` to change a content item (``content.characters.bruxa.endurance``,
``content.cards.sword_swing.init``). Each point samples until its win-rate interval is narrower than the
requested precision or its fight budget is spent.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from affray.core.content import ContentLibrary

if TYPE_CHECKING:
    from affray.api import Scenario

_RANGE = re.compile(
    r"^\s*(?P<path>[^=]+?)\s*=\s*(?P<lo>-?\d+(?:\.\d+)?)\s*\.\.\s*(?P<hi>-?\d+(?:\.\d+)?)"
    r"(?:\s*:\s*(?P<step>\d+(?:\.\d+)?))?\s*$"
)
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


def set_path(data: object, path: list[str | int], value: object, shown: str) -> None:
    """Set ``value`` at ``path`` in nested dicts/lists; missing mapping keys are created, list items never."""
    node: object = data
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


def _one_type(annotation: object) -> object:
    """``X`` of ``X | None``; ``None`` (unknown) for a union of several types."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return kept[0] if len(kept) == 1 else None
    return annotation


def _names(model: type[BaseModel]) -> list[str]:
    return sorted({n for name, f in model.model_fields.items() for n in (name, f.alias) if n})


def _shown(base: str, path: Sequence[str | int]) -> str:
    text = base
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text or "the scenario"


def check_fields(
    model: type[BaseModel], path: Sequence[str | int], shown: str, first: Sequence[str] = (), base: str = ""
) -> None:
    """Follow ``path`` through ``model``'s fields and refuse a name that is no field where the model takes no
    others, suggesting the nearest one (``first``: more names the first segment may be, such as combatant ids;
    ``base``: what the path starts from, in the message). Where the type is not a model (free mappings, unions)
    nothing further is checked."""
    annotation: object = model
    for depth, key in enumerate(path):
        annotation = _one_type(annotation)
        origin = typing.get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = {n: f for name, f in annotation.model_fields.items() for n in (name, f.alias) if n}
            if isinstance(key, int) or key not in fields:
                if annotation.model_config.get("extra") != "forbid":
                    return
                known = [*_names(annotation), *(first if depth == 0 else ())]
                near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                where = _shown(base, path[:depth])
                hint = f"did you mean '{near[0]}'?" if near else f"one of {', '.join(known)}"
                raise SweepError(f"--param {shown}: '{key}' is not a field of {where}; {hint}")
            annotation = fields[str(key)].annotation
        elif origin in (list, tuple, Sequence) and isinstance(key, int):
            annotation = typing.get_args(annotation)[0]
        elif origin in (dict, Mapping):
            annotation = typing.get_args(annotation)[1]
        else:
            return


Patch = Callable[[ContentLibrary], None]


def apply(
    data: dict[str, Any],
    param_path: str,
    value: float | int,
    scenario_model: type[BaseModel] | None = None,
    options: Sequence[str] = (),
) -> tuple[dict[str, Any], Patch | None]:
    """A copy of the scenario ``data`` with the parameter set, and a content patch if it targets content. With
    ``scenario_model`` (the ruleset's scenario type) and ``options`` (its option names), a path naming no field
    or no option is refused with the nearest one."""
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
            check_fields(type(item), inner, param_path, base=f"content.{section}.{item_id}")
            dumped = item.model_dump()
            set_path(dumped, inner, value, param_path)
            try:
                library.sections[section][item_id] = type(item).model_validate(dumped)
            except ValidationError as exc:
                raise SweepError(f"--param {param_path}={value}: {exc.errors()[0]['msg']}") from None

        return copy.deepcopy(data), patch
    found = _find_combatant(data, str(path[0])) if isinstance(path[0], str) and path[0] not in data else None
    full = (found + path[1:]) if found else path
    if scenario_model is not None:
        ids = [
            str(c.get("id"))
            for side in data.get("sides", [])
            if isinstance(side, dict)
            for c in side.get("combatants", [])
            if isinstance(c, dict)
        ]
        check_fields(scenario_model, full, param_path, ids)
    if options and len(full) == 2 and full[0] == "options" and full[1] not in options:
        near = difflib.get_close_matches(str(full[1]), options, n=1, cutoff=0.6)
        raise SweepError(
            f"--param {param_path}: '{full[1]}' is not an option of this ruleset"
            + (f"; did you mean '{near[0]}'?" if near else f"; one of {', '.join(options)}")
        )
    patched = copy.deepcopy(data)
    set_path(patched, full, value, param_path)
    return patched, None


def scenario_with(data: dict[str, Any], source: str | Path, settings: Sequence[tuple[str, float | int]]) -> Scenario:
    """The checked scenario with each ``(param, value)`` of ``settings`` set, in order (errors name them)."""
    from affray.api import scenario_from_data
    from affray.core.content import ContentError
    from affray.core.plugin import get_ruleset

    try:
        ruleset = get_ruleset(str(data.get("ruleset")))
        model: type[BaseModel] | None = ruleset.scenario_type
        options = [f.name for f in dataclasses.fields(ruleset.options_type)]
    except (KeyError, TypeError):
        model, options = None, []  # scenario_from_data names an unknown ruleset; options not a dataclass: unchecked
    patches: list[Patch] = []
    for param, value in settings:
        data, patch = apply(data, param, value, model, options)
        if patch is not None:
            patches.append(patch)

    def patch_all(library: ContentLibrary) -> None:
        for each in patches:
            each(library)

    try:
        return scenario_from_data(data, source, patch=patch_all if patches else None)
    except ContentError as exc:
        shown = ", ".join(f"{param}={value}" for param, value in settings)
        raise SweepError(
            f"--param {shown} makes the scenario invalid: {exc.problems[0].field}: {exc.problems[0].expected}"
        ) from None


def field_label(param: str, names: Mapping[str, str] | None = None) -> str:
    """A parameter as a designer reads it, by its field and what it belongs to: ``hald.stats.endurance`` is
    "endurance of Watch Sergeant Hald" (``names``: combatant ids to names), ``content.cards.flare_up.below[0].attack``
    is "attack of flare_up.below[0]", ``options.round_limit`` is "option round limit"."""
    path = segments(param)
    fields = [str(p) for p in path if isinstance(p, str)]
    field = fields[-1].replace("_", " ") if fields else param
    if path[0] == "content" and len(path) >= 4:
        last = max(i for i, p in enumerate(path) if isinstance(p, str))
        owner = _shown(str(path[2]), [*path[3:last], *(p for p in path[last + 1 :] if isinstance(p, int))])
        return f"{field} of {owner}"
    if path[0] == "options":
        return f"option {field}"
    first = str(path[0])
    if names and first in names:
        return f"{field} of {names[first]}"
    return field if len(path) == 1 else f"{field} ({param})"
