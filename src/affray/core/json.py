"""The JSON types: what really is JSON in the engine (wire messages, stored records, logs, setups as stored).

``Json`` is any JSON value, ``JsonObject`` a JSON object. They are the types of data that crosses a boundary as JSON
(``json.dumps`` and back gives an equal value), not of values that are merely loosely typed: a value whose type the
code does not know is an ``object``, narrowed where it is read.

The narrowing helpers (:func:`as_object`, :func:`as_list`, :func:`as_str`, :func:`as_int`) state what a reader
expects of a JSON value and fail with a ``TypeError`` naming what it got, for data the engine wrote itself (a
log it exported, a row it stored). Input from a person goes through the pydantic models and the loaders that
name the file and the field instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias, TypeVar, cast

#: Any JSON value.
Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None
#: A JSON object.
JsonObject: TypeAlias = dict[str, Json]
#: A JSON object only read (a ``dict[str, int]`` is one: ``Mapping`` is covariant in its values).
JsonMapping: TypeAlias = Mapping[str, Json]


def _wrong(what: str, value: object) -> TypeError:
    return TypeError(f"expected {what} in JSON, got {type(value).__name__}")


def as_object(value: object) -> JsonObject:
    """``value`` as a JSON object (a ``dict`` with string keys)."""
    if not isinstance(value, dict):
        raise _wrong("an object", value)
    return value


def as_list(value: object) -> list[Json]:
    """``value`` as a JSON array."""
    if not isinstance(value, list):
        raise _wrong("an array", value)
    return value


def as_str(value: object) -> str:
    """``value`` as a JSON string."""
    if not isinstance(value, str):
        raise _wrong("a string", value)
    return value


def as_number(value: object) -> float:
    """``value`` as a JSON number (an integer or a float, not a boolean), as a float."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _wrong("a number", value)
    return float(value)


def as_names(value: object) -> dict[str, str] | None:
    """``value`` as an object of text values (seats, controllers), or ``None``."""
    if value is None:
        return None
    return {key: as_str(name) for key, name in as_object(value).items()}


def as_int(value: object) -> int:
    """``value`` as a JSON integer (not a boolean)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong("an integer", value)
    return value


_Shape = TypeVar("_Shape")


def as_shape(shape: type[_Shape], data: object) -> _Shape:
    """``data`` taken as the ``TypedDict`` ``shape`` that lists its keys, unchecked: for JSON this program made
    itself (a setup ``prepare`` built and a log kept, a content model's ``model_dump()``), whose maker guarantees
    the shape. ``shape`` is there for the type only."""
    del shape
    return cast(_Shape, data)
