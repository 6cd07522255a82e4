"""Named rule options (DESIGN.md, contract 8).

Every ruling of ``rules/*.md`` is an option with its documented default. A ruleset declares its options
as a frozen dataclass whose fields are made with :func:`option`; this module reads them from a scenario
mapping with clear errors, lists them for ``--help``/docs, and writes them into the match setup.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from affray.core.json import JsonObject

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")


class OptionError(ValueError):
    """An unknown option or a value of the wrong kind."""


def option(
    default: T, *, rule: str, doc: str, choices: Sequence[T] = (), low: float | None = None, high: float | None = None
) -> T:
    """A dataclass field for a rule option: its default, the rule ID it implements, and a sentence.

    ``low``/``high``: the range a number must lie in (inclusive), checked by :func:`parse_options`.
    """
    meta = {"rule": rule, "doc": doc, "choices": tuple(choices), "low": low, "high": high}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    default: object
    rule: str
    doc: str
    choices: tuple[object, ...]
    type_name: str
    low: float | None = None
    high: float | None = None

    @property
    def range(self) -> str:
        """The allowed range in words (``1 to 1000``, ``at least 0``), or ``""``."""
        if self.low is not None and self.high is not None:
            return f"{self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"at least {self.low:g}"
        return f"at most {self.high:g}" if self.high is not None else ""


_HINTS: dict[type[object], dict[str, object]] = {}
_INFOS: dict[type[object], tuple[OptionInfo, ...]] = {}


def _hints(cls: type[object]) -> dict[str, object]:
    # get_type_hints evaluates string annotations: slow, and options are parsed for every match
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def describe(cls: type[DataclassInstance]) -> tuple[OptionInfo, ...]:
    """The options of an options dataclass, in declaration order."""
    if cls in _INFOS:
        return _INFOS[cls]
    hints = _hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        out.append(
            OptionInfo(
                f.name,
                f.default,
                f.metadata.get("rule", ""),
                f.metadata.get("doc", ""),
                tuple(f.metadata.get("choices", ())),
                getattr(kind, "__name__", str(kind)),
                f.metadata.get("low"),
                f.metadata.get("high"),
            )
        )
    _INFOS[cls] = tuple(out)
    return _INFOS[cls]


def _check(info: OptionInfo, kind: object, value: object) -> object:
    if kind is bool:
        if not isinstance(value, bool):
            raise OptionError(f"option '{info.name}' expects true or false, got {value!r}")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option '{info.name}' expects a whole number, got {value!r}")
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(f"option '{info.name}' expects a number, got {value!r}")
        value = float(value)
    elif kind is str and not isinstance(value, str):
        raise OptionError(f"option '{info.name}' expects text, got {value!r}")
    if info.choices and value not in info.choices:
        allowed = ", ".join(repr(c) for c in info.choices)
        raise OptionError(f"option '{info.name}' must be one of {allowed}, got {value!r}")
    if (
        kind in (int, float)
        and isinstance(value, int | float)
        and ((info.low is not None and value < info.low) or (info.high is not None and value > info.high))
    ):
        raise OptionError(f"option '{info.name}' must be {info.range}, got {value!r} (Rule: {info.rule})")
    return value


def parse_options(cls: type[D], values: Mapping[str, object] | None) -> D:
    """Build ``cls`` from ``values``, refusing unknown names and wrongly typed values."""
    values = dict(values or {})
    hints = _hints(cls)
    infos = {i.name: i for i in describe(cls)}
    unknown = sorted(set(values) - set(infos))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(infos)}")
    checked = {name: _check(infos[name], hints[name], value) for name, value in values.items()}
    return cls(**checked)


def options_to_dict(options: DataclassInstance) -> JsonObject:
    """Every option with its value (defaults included), as recorded in the match setup."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
