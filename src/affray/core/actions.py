"""Actions with a schema (docs/architecture.md, 'The core contract').

Every action type of every ruleset is declared once as an :class:`ActionType`: its ``type`` key, the fields it
takes with their types and static ranges, and which fields are *free parameters* (a Spellchrome path, a WaRP
distance, a Free Form post's text, a HuD declaration plan): values a client may choose itself rather than pick
from a listed action. ``Ruleset.action_types()`` returns the declarations; every entry of ``legal()`` is an
instance of one of them (checked by the conformance suite with :func:`check_action`), and an
:class:`~affray.core.engine.ActionSpec` names in ``free`` the fields of its action that a client may change
(``step`` validates whatever comes back, as always).

:func:`actions_schema` gives the JSON Schema of a ruleset's actions (``affray schema actions RULESET``), with the
codes of the warnings a listed action may carry (:data:`WARNING_CODES`).

:func:`refusal` is what :meth:`affray.core.match.Match.submit` asks of every action before the ruleset's ``step``
sees it (DESIGN.md contract 2, "validate completely"): no field its declared type does not list, and at most
:data:`MAX_ACTION_BYTES` of JSON, the bound of what one record of the log of record holds. The ruleset's ``step``
then checks the type and every value against the state, with its own codes, as always.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from affray.core.json import Json, JsonObject

#: The most an action may hold, as compact UTF-8 JSON: the bound of one record of the log of record (its input; the
#: database adds its seq, seat, actor, chain and submission id, under 300 bytes). The largest action a ruleset
#: declares fits with room: a HuD plan of 12 complex manoeuvres of 500 characters, 4 bytes each at most, is under
#: 25 KB; a Free Form post of 4,000 characters under 17 KB.
MAX_ACTION_BYTES = 32 * 1024

#: The code of a listed action's warning (:attr:`affray.core.engine.ActionSpec.warnings`): what a client decides on
#: (the page marks a square or a button, a policy avoids a provoking blow), never the sentence, which is the ruleset's
#: wording for people and may change.
WarningCode = Literal["provokes", "check", "penalty"]
#: Every :data:`WarningCode` with what it means (``affray schema actions`` prints them under ``x-warnings``).
WARNING_CODES: dict[WarningCode, str] = {
    "provokes": "taking it gives a foe an attack of opportunity (Spellchrome SC-27, SC-28: a move, run, blow or cast "
    "in a threatened square)",
    "check": "it needs a roll that may fail, named with its DC (Spellchrome SC-24: tumbling through an opponent)",
    "penalty": "it costs a penalty on later rolls (HuD: an additional or emergency action, -2 to all rolls)",
}

FieldKind = Literal["string", "integer", "number", "boolean", "actor", "square", "squares", "choice", "list", "object"]


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
    default: Json = None
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


def _field_schema(f: Field) -> JsonObject:
    out: JsonObject
    if f.kind == "actor":
        out = {"type": "string", "description": "a combatant id"}
    elif f.kind == "square":
        out = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
    elif f.kind == "squares":
        out = {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}}
    elif f.kind == "choice":
        out = {"enum": list(f.choices)}
    elif f.kind == "list":
        out = {"type": "array", "items": {"oneOf": [_type_schema(t) for t in f.item]} if f.item else {}}
    else:
        out = {"type": f.kind}
    bounds = {
        "integer": ("minimum", "maximum"),
        "number": ("minimum", "maximum"),
        "string": ("minLength", "maxLength"),
        "list": ("minItems", "maxItems"),
        "squares": ("minItems", "maxItems"),
    }.get(f.kind)
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


def _type_schema(t: ActionType) -> JsonObject:
    props: JsonObject = {"type": {"const": t.type}}
    props.update({f.name: _field_schema(f) for f in t.fields})
    out: JsonObject = {
        "title": t.label,
        "type": "object",
        "properties": props,
        "required": ["type", *(f.name for f in t.fields if f.required)],
        "additionalProperties": False,
    }
    if t.description or t.rules:
        out["description"] = " ".join(
            x for x in (t.description, f"Rules: {', '.join(t.rules)}." if t.rules else "") if x
        )
    return out


def actions_schema(ruleset: str, types: Sequence[ActionType]) -> JsonObject:
    """The JSON Schema of every action ``ruleset`` accepts: one object schema per :class:`ActionType`, and under
    ``x-warnings`` the codes a listed action's warnings carry (:data:`WARNING_CODES`)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{ruleset} actions",
        "oneOf": [_type_schema(t) for t in types],
        "x-warnings": {code: meaning for code, meaning in WARNING_CODES.items()},
    }


def _check_value(f: Field, value: object, where: str) -> list[str]:
    kinds: dict[str, type | tuple[type, ...]] = {
        "string": str,
        "actor": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
        "object": dict,
        "list": list,
        "squares": list,
        "square": list,
    }
    want = kinds.get(f.kind)
    if f.kind == "choice":
        return [] if value in f.choices else [f"{where} is {value!r}, not one of {list(f.choices)}"]
    if want is not None and (
        not isinstance(value, want) or (f.kind in ("integer", "number") and isinstance(value, bool))
    ):
        return [f"{where} is {value!r}, not a {f.kind}"]
    size: float | None = None  # a number's value, a text's or a list's length
    if f.kind in ("integer", "number") and isinstance(value, int | float):
        size = value
    elif f.kind not in ("integer", "number") and isinstance(value, str | list):
        size = len(value)
    problems = []
    if size is not None and f.minimum is not None and size < f.minimum:
        problems.append(f"{where} is below its minimum {f.minimum}")
    if size is not None and f.maximum is not None and size > f.maximum:
        problems.append(f"{where} is above its maximum {f.maximum}")
    if f.kind == "list" and f.item and isinstance(value, list):
        for i, entry in enumerate(value):
            problems += check_action(entry, f.item, f"{where}[{i}]")
    return problems


def check_action(
    action: object, types: Sequence[ActionType] | Mapping[str, ActionType], where: str = "action"
) -> list[str]:
    """What keeps ``action`` from being an instance of one of ``types`` (empty when it is one). ``types`` may be
    given by type (:func:`by_type`), which spares a search per action."""
    if not isinstance(action, Mapping):
        return [f"{where} is not an object"]
    kind = action.get("type")
    if isinstance(types, Mapping):
        match = types.get(kind) if isinstance(kind, str) else None
    else:
        match = next((t for t in types if t.type == kind), None)
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


def by_type(types: Sequence[ActionType]) -> dict[str, ActionType]:
    """``types`` by their ``type`` key, for :func:`check_action` and :func:`refusal`."""
    return {t.type: t for t in types}


def action_bytes(action: object) -> int:
    """The size of ``action`` as compact UTF-8 JSON (how the store and the hash chain hold it, give or take key
    order). A value JSON cannot hold is refused by ``TypeError``/``ValueError``."""
    text = json.dumps(action, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return len(text.encode("utf-8", "surrogatepass"))


def unknown_fields(
    action: Mapping[str, object], types: Mapping[str, ActionType], where: str = "action"
) -> list[tuple[str, ActionType]]:
    """Every field of ``action`` (and of the actions in its declared lists, a HuD plan's items) that its declared
    type does not list, as ``(path, type)``; nothing for a type ``types`` does not declare."""
    kind = action.get("type")
    declared = types.get(kind) if isinstance(kind, str) else None
    if declared is None:
        return []
    known = {f.name: f for f in declared.fields}
    out = [(f"{where}.{name}", declared) for name in action if name != "type" and name not in known]
    for f in declared.fields:
        value = action.get(f.name)
        if f.kind == "list" and f.item and isinstance(value, list):
            inner = by_type(f.item)
            for i, entry in enumerate(value):
                if isinstance(entry, Mapping):
                    out += unknown_fields(entry, inner, f"{where}.{f.name}[{i}]")
    return out


def refusal(action: Mapping[str, object], types: Mapping[str, ActionType]) -> tuple[str, str] | None:
    """What keeps ``action`` from the ruleset's ``step`` (a code and a sentence), or None: a field its declared type
    does not list (``bad_field``, naming it), a value JSON cannot hold (``bad_action``), or more than
    :data:`MAX_ACTION_BYTES` of JSON (``action_too_large``).

    Everything else is the step's to refuse, with the ruleset's own codes (an unknown type, a value of the wrong
    kind or out of range, a card not in hand: ``unknown_action``, ``bad_count``, ``card_not_in_hand``...), as it
    checks every value against the state anyway; what it never looked at was a field no rule reads, which went into
    the log of record as it came."""
    unknown = unknown_fields(action, types)
    if unknown:
        (where, declared), more = unknown[0], len(unknown) - 1
        takes = ", ".join(f.name for f in declared.fields) or "no field but its type"
        others = f" (and {more} more unknown field{'s' if more > 1 else ''})" if more else ""
        return "bad_field", (
            f"A '{declared.type}' action has no field '{where.rpartition('.')[2]}' ({where}; it takes {takes}){others}."
        )
    return size_refusal(action, "An action", "bad_action")


def size_refusal(value: object, what: str, bad_code: str) -> tuple[str, str] | None:
    """``bad_code`` for a value JSON cannot hold, ``action_too_large`` past :data:`MAX_ACTION_BYTES` of JSON, or
    None: the one bound of what a record keeps, for an action and a GM ruling alike (``what`` names it)."""
    try:
        size = action_bytes(value)
    except (TypeError, ValueError):
        return bad_code, f"{what} is JSON: objects, lists, text, finite numbers, true, false and null."
    if size > MAX_ACTION_BYTES:
        return "action_too_large", (
            f"{what} may hold at most {MAX_ACTION_BYTES:,} bytes of JSON; this one holds {size:,}."
        )
    return None


def ruling_refusal(ruling: object) -> tuple[str, str] | None:
    """The bound of a GM ruling's record (:data:`MAX_ACTION_BYTES`, as an action's), or None within it. Its shape is
    :func:`affray.core.adjust.parse`'s, and every value the ruleset's adjuster's; this holds whatever they let
    through (a position is the ruleset's JSON) to the same size."""
    return size_refusal(ruling, "A ruling", "bad_change")
