"""Typed reads of an action's fields (an :data:`~affray.core.engine.Action` is plain JSON).

A ruleset's ``step`` checks an action's shape before it reads it (contract 2: a refusal names its own code); these
accessors then give each field its Python type, and raise :class:`FieldError` (a ``ValueError`` naming the field and
what it must be) when the field is missing or of another kind: after the checks, or for an action taken from the
listing (a trusted journal), that is a bug, never a player's mistake. Policies, hints and tests read the actions
``legal()`` listed with them, whose shape the action types declare (:func:`affray.core.actions.check_action`).
"""

from __future__ import annotations

from collections.abc import Mapping

from affray.core.json import Json, JsonObject


class FieldError(ValueError):
    """``field`` of an action is missing or is not ``wanted``."""

    def __init__(self, field: str, wanted: str, value: object) -> None:
        super().__init__(f"The action's '{field}' must be {wanted}, not {value!r}.")
        self.field = field


def _get(action: Mapping[str, Json], name: str, wanted: str) -> Json:
    if name not in action:
        raise FieldError(name, wanted, None)
    return action[name]


def text(action: Mapping[str, Json], name: str, default: str | None = None) -> str:
    """``action[name]`` as a string; ``default``, when one is given, if the field is absent."""
    if default is not None and name not in action:
        return default
    value = _get(action, name, "a string")
    if not isinstance(value, str):
        raise FieldError(name, "a string", value)
    return value


def maybe_text(action: Mapping[str, Json], name: str) -> str | None:
    """``action[name]`` as a string, ``None`` when absent or ``null``."""
    return None if action.get(name) is None else text(action, name)


def integer(action: Mapping[str, Json], name: str, default: int | None = None) -> int:
    """``action[name]`` as an integer (not a boolean); ``default``, when one is given, if the field is absent."""
    if default is not None and name not in action:
        return default
    value = _get(action, name, "an integer")
    if not isinstance(value, int) or isinstance(value, bool):
        raise FieldError(name, "an integer", value)
    return value


def flag(action: Mapping[str, Json], name: str, default: bool = False) -> bool:
    """``action[name]`` as a boolean, ``default`` when absent."""
    value = action.get(name, default)
    if not isinstance(value, bool):
        raise FieldError(name, "true or false", value)
    return value


def _square(value: Json, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise FieldError(name, "a square [x, y]", value)
    x, y = value  # each an int, not a bool (checked one by one, without a generator: every move's square asks)
    if not isinstance(x, int) or isinstance(x, bool) or not isinstance(y, int) or isinstance(y, bool):
        raise FieldError(name, "a square [x, y]", value)
    return x, y


def square(action: Mapping[str, Json], name: str) -> tuple[int, int]:
    """``action[name]`` as a square ``(x, y)`` (``[x, y]`` in JSON)."""
    return _square(_get(action, name, "a square [x, y]"), name)


def squares(action: Mapping[str, Json], name: str) -> list[tuple[int, int]]:
    """``action[name]`` as a path: a list of squares."""
    value = _get(action, name, "a list of squares")
    if not isinstance(value, list):
        raise FieldError(name, "a list of squares", value)
    return [_square(v, name) for v in value]


def texts(action: Mapping[str, Json], name: str) -> list[str]:
    """``action[name]`` as a list of strings."""
    value = _get(action, name, "a list of strings")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FieldError(name, "a list of strings", value)
    return [v for v in value if isinstance(v, str)]


def objects(action: Mapping[str, Json], name: str) -> list[JsonObject]:
    """``action[name]`` as a list of objects (a HuD plan's items)."""
    value = _get(action, name, "a list of objects")
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise FieldError(name, "a list of objects", value)
    return [v for v in value if isinstance(v, dict)]
