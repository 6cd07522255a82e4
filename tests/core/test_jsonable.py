"""``to_jsonable`` and ``to_jsonable_shared`` (core/events.py): the JSON form of views, events and state parts, made
by a converter generated once per dataclass type; the exact output for every kind of value they take."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import cast

import pytest

from affray.core.events import to_jsonable, to_jsonable_shared


class Grade(enum.IntEnum):
    LOW = 1


@dataclass(frozen=True, slots=True)
class Square:
    x: int
    y: int


@dataclass(frozen=True)
class Empty:
    pass


class Rolled:
    def to_dict(self) -> dict[str, object]:
        return {"die": 20, "value": 13}


@dataclass
class Holder:
    name: str
    at: Square
    path: tuple[Square, ...]
    tags: frozenset[str]
    by_id: dict[int, Square]
    roll: Rolled
    grade: Grade
    nothing: None = None
    empty: Empty = field(default_factory=Empty)
    mixed: list[object] = field(default_factory=list)


def holder() -> Holder:
    return Holder(
        "ilse",
        Square(1, 2),
        (Square(0, 0), Square(0, 1)),
        frozenset({"b", "a"}),
        {3: Square(5, 5)},
        Rolled(),
        Grade.LOW,
        mixed=[1, "two", 3.5, True, None, (Square(9, 9),)],
    )


EXPECTED = {
    "name": "ilse",
    "at": {"x": 1, "y": 2},
    "path": [{"x": 0, "y": 0}, {"x": 0, "y": 1}],
    "tags": ["a", "b"],
    "by_id": {"3": {"x": 5, "y": 5}},
    "roll": {"die": 20, "value": 13},
    "grade": 1,
    "nothing": None,
    "empty": {},
    "mixed": [1, "two", 3.5, True, None, [{"x": 9, "y": 9}]],
}


def test_every_kind_of_value_has_its_exact_json_form() -> None:
    assert to_jsonable(holder()) == EXPECTED
    assert to_jsonable(holder()) == EXPECTED  # the second time through the converter made the first time
    assert json.dumps(to_jsonable(holder()), sort_keys=True) == json.dumps(EXPECTED, sort_keys=True)


def test_the_shared_form_equals_the_plain_one_and_converts_a_shared_part_once() -> None:
    done: dict[int, tuple[object, object]] = {}
    one = holder()
    to_jsonable_shared(Holder("x", one.at, (), frozenset(), {}, Rolled(), Grade.LOW), done)  # types seen first
    first = to_jsonable_shared(one, done)
    second = to_jsonable_shared(Holder("tomas", one.at, one.path, frozenset(), {}, Rolled(), Grade.LOW), done)
    assert first == EXPECTED
    assert second["at"] is first["at"]  # the same Square object: one conversion, shared
    assert second["path"] is first["path"]  # the same tuple (immutable, as the views' bars and sheet rows): shared
    assert second["name"] == "tomas" and second["path"] == EXPECTED["path"]
    alike = cast(tuple[Square, ...], list(one.path))  # a list in its place (mutable): converted each time
    assert (
        to_jsonable_shared(Holder("x", one.at, alike, frozenset(), {}, Rolled(), Grade.LOW), done)["path"]
        is not first["path"]
    )


def test_a_value_that_is_not_json_is_refused_with_its_type() -> None:
    with pytest.raises(TypeError, match="cannot serialise complex to JSON"):
        to_jsonable(Square(1j, 0))  # type: ignore[arg-type]
