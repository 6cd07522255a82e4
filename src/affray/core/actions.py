"""Actions with a schema (docs/architecture.md, 'The core contract').

Every action type of every ruleset is declared once as an :class:`ActionType`: its ``type`` key, the fields it
takes with their types and static ranges, and which fields are *free parameters* (a Spellchrome path, a WaRP
distance, a Free Form post's text, a HuD declaration plan): values a client may choose itself rather than pick
from a listed action. ``Ruleset.action_types()`` returns the declarations; every entry of ``legal()`` is an
instance of one of them (checked by the conformance suite with :func:`check_action`), and an
:class:`~affray.core.engine.ActionSpec` names in ``free`` the fields of its action that a client may change
(``step`` validates whatever comes back, as always).

:func:`actions_schema` gives the JSON Schema of a ruleset's actions (``affray schema actions RULESET``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

FieldKind = Literal["string", "integer", "number", "boolean", "actor", "square", "squares", "choice", "list",
                    "object"]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an action.

    ``kind``: ``actor`` (a combatant id), ``square`` (``[x, y]``), ``squares`` (a path: a list of squares),
    ``choice`` (one of ``choices``), ``list`` (a list of ``items``, each an object described by ``item``: the
    action types allowed inside, e.g. a HuD plan's items), or a JSON type. ``minimum``/``maximum`` bound numbers,
    lengths of strings and of lists. ``free``: a client may fill it in itself (see the module docstring).

    The same type declares the parameters of a single check (:mod:`affray.core.checks`) and of a sheet operation
    (:mod:`affray.characters.operations`): ``default`` is the value of a parameter that is not ``required`` and not
    given, and a ``positional`` one is given by its place on a command line rather than as a flag.
    """

    name: str
    kind: FieldKind
    description: str = ""
    required: bool = True
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str | int, ...] = ()
    item: tuple[ActionType, ...] = ()
    free: bool = False
    default: Any = None
    positional: bool = False


@dataclass(frozen=True, slots=True)
class ActionType:
    """One kind of action: ``{"type": type, <fields>}``. ``rules``: the rule IDs it carries out."""

    type: str
    label: str
    fields: tuple[Field, ...] = ()
    rules: tuple[str, ...] = ()
    description: str = ""

    @property
    def free(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.free)


def _field_schema(f: Field) -> dict[str, Any]:
    out: dict[str, Any]
    if f.kind == "actor":
        out = {"type": "string", "description": "a combatant id"}
    elif f.kind == "square":
        out = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
    elif f.kind == "squares":
        out = {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                                          "maxItems": 2}}
    elif f.kind == "choice":
        out = {"enum": list(f.choices)}
    elif f.kind == "list":
        out = {"type": "array", "items": {"oneOf": [_type_schema(t) for t in f.item]} if f.item else {}}
    else:
        out = {"type": f.kind}
    bounds = {"integer": ("minimum", "maximum"), "number": ("minimum", "maximum"),
              "string": ("minLength", "maxLength"), "list": ("minItems", "maxItems"),
              "squares": ("minItems", "maxItems")}.get(f.kind)
    if bounds is not None:
        if f.minimum is not None:
            out[bounds[0]] = f.minimum
        if f.maximum is not None:
            out[bounds[1]] = f.maximum
    if f.description:
        out["description"] = f.description
    if f.free:
        out["x-free"] = True
    return out


def _type_schema(t: ActionType) -> dict[str, Any]:
    props: dict[str, Any] = {"type": {"const": t.type}}
    props.update({f.name: _field_schema(f) for f in t.fields})
    out: dict[str, Any] = {"title": t.label, "type": "object", "properties": props,
                           "required": ["type", *(f.name for f in t.fields if f.required)],
                           "additionalProperties": False}
    if t.description or t.rules:
        out["description"] = " ".join(x for x in (t.description, f"Rules: {', '.join(t.rules)}." if t.rules else "")
                                      if x)
    return out


def actions_schema(ruleset: str, types: Sequence[ActionType]) -> dict[str, Any]:
    """The JSON Schema of every action ``ruleset`` accepts: one object schema per :class:`ActionType`."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"{ruleset} actions",
            "oneOf": [_type_schema(t) for t in types]}


def _check_value(f: Field, value: Any, where: str) -> list[str]:
    kinds: dict[str, type | tuple[type, ...]] = {"string": str, "actor": str, "integer": int, "number": (int, float),
                                                 "boolean": bool, "object": dict, "list": list, "squares": list,
                                                 "square": list}
    want = kinds.get(f.kind)
    if f.kind == "choice":
        return [] if value in f.choices else [f"{where} is {value!r}, not one of {list(f.choices)}"]
    if want is not None and (not isinstance(value, want) or (f.kind in ("integer", "number")
                                                              and isinstance(value, bool))):
        return [f"{where} is {value!r}, not a {f.kind}"]
    size = value if f.kind in ("integer", "number") else len(value) if isinstance(value, str | list) else None
    problems = []
    if size is not None and f.minimum is not None and size < f.minimum:
        problems.append(f"{where} is below its minimum {f.minimum}")
    if size is not None and f.maximum is not None and size > f.maximum:
        problems.append(f"{where} is above its maximum {f.maximum}")
    if f.kind == "list" and f.item:
        for i, entry in enumerate(value):
            problems += check_action(entry, f.item, f"{where}[{i}]")
    return problems


def check_action(action: Mapping[str, Any], types: Sequence[ActionType], where: str = "action") -> list[str]:
    """What keeps ``action`` from being an instance of one of ``types`` (empty when it is one)."""
    if not isinstance(action, Mapping):
        return [f"{where} is not an object"]
    match = next((t for t in types if t.type == action.get("type")), None)
    if match is None:
        return [f"{where} has type {action.get('type')!r}, which no action type declares"]
    known = {f.name: f for f in match.fields}
    problems = [f"{where}.{k} is not a field of '{match.type}'" for k in action if k != "type" and k not in known]
    for f in match.fields:
        if f.name not in action:
            if f.required:
                problems.append(f"{where}.{f.name} is missing")
            continue
        if action[f.name] is None and not f.required:
            continue
        problems += _check_value(f, action[f.name], f"{where}.{f.name}")
    return problems
