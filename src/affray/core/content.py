"""Content as data (DESIGN.md, contract 7): YAML files checked against pydantic schemas.

A content file names its ruleset and holds sections of items keyed by id, for example::

    ruleset: hud
    weapons:
      longsword: {name: Longsword, hands: 1, attack: 1, defense: 1, damage: 1}

Each ruleset describes its sections with a pydantic model (``content_type``). A broken file raises
:class:`ContentError` naming the file, the field path and what was expected. Loading a folder merges
its files; the same id in two files is an error naming both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from affray.core.files import MAX_YAML_BYTES, FileProblem, load_yaml, read_text

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with one file: where (a dotted field path) and what was expected."""

    field: str
    expected: str


class ContentError(ValueError):
    """A content or scenario file that does not match its schema."""

    def __init__(self, path: str | Path, problems: list[Problem]) -> None:
        self.path = str(path)
        self.problems = problems
        lines = [f"{self.path}: {p.field}: {p.expected}" for p in problems]
        super().__init__("\n".join(lines))


def field_path(loc: Iterable[int | str]) -> str:
    """``("sides", 0, "combatants", 1, "hp")`` -> ``sides[0].combatants[1].hp``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def problems_of(error: ValidationError) -> list[Problem]:
    """Translate pydantic errors into :class:`Problem` records a content author can act on."""
    problems = []
    for err in error.errors():
        loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-")))]
        got = err.get("input")
        message = err["msg"]
        if message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        shown = "" if err["type"] == "missing" or isinstance(got, dict) else f" (got {got!r})"
        problems.append(Problem(field_path(loc), f"{message}{shown}"))
    return problems


def read_yaml(path: str | Path) -> Any:
    """Parse a YAML file safely and within the limits of :mod:`affray.core.files`; an unreadable, binary,
    non-UTF-8, oversized or malformed file becomes a :class:`ContentError` with the reason or the line."""
    p = Path(path)
    try:
        text = read_text(p, MAX_YAML_BYTES)
    except FileProblem as exc:
        raise ContentError(p, [Problem("(file)", exc.reason)]) from None
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(file)"
        raise ContentError(p, [Problem(where, f"valid YAML ({getattr(exc, 'problem', None) or exc})")]) from None


def validate(model: type[M], data: object, path: str | Path) -> M:
    """Validate ``data`` against ``model``; errors name ``path`` and each bad field."""
    if not isinstance(data, dict):
        raise ContentError(path, [Problem("(top level)", "a mapping of fields (key: value)")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(path, problems_of(exc)) from None


@dataclass(slots=True)
class ContentLibrary:
    """Validated content items by section and id, remembering which file each came from."""

    ruleset: str
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    origin: dict[tuple[str, str], str] = field(default_factory=dict)

    def add_file(self, pack: BaseModel, path: str | Path) -> None:
        """Merge the sections of one validated file; a duplicate id names both files."""
        for section in type(pack).model_fields:
            items = getattr(pack, section)
            if not isinstance(items, dict):
                continue
            bucket = self.sections.setdefault(section, {})
            for item_id, item in items.items():
                key = (section, item_id)
                if key in self.origin and self.origin[key] != str(path):
                    raise ContentError(
                        path, [Problem(f"{section}.{item_id}", f"a unique id (already defined in {self.origin[key]})")]
                    )
                bucket[item_id] = item
                self.origin[key] = str(path)

    def get(self, section: str, item_id: str) -> Any:
        """The item ``item_id`` of ``section``; ``KeyError`` with the known ids otherwise."""
        bucket = self.sections.get(section, {})
        if item_id not in bucket:
            known = ", ".join(sorted(bucket)) or "none"
            raise KeyError(f"no {section} called '{item_id}' (known: {known})")
        return bucket[item_id]

    def require(self, section: str, item_id: str, where: str) -> Any:
        """Like :meth:`get`, for resolving a reference: a missing id is a :class:`ReferenceProblem` at ``where``."""
        try:
            return self.get(section, item_id)
        except KeyError as exc:
            raise ReferenceProblem(where, str(exc.args[0])) from None

    def copy(self) -> ContentLibrary:
        return ContentLibrary(self.ruleset, {k: dict(v) for k, v in self.sections.items()}, dict(self.origin))


def yaml_files(path: str | Path) -> Iterator[Path]:
    """The YAML files at ``path``: the file itself, or every ``*.yaml``/``*.yml`` below a folder, sorted."""
    p = Path(path)
    if p.is_dir():
        yield from sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file())
    else:
        yield p


def load_pack(
    model: type[M], ruleset: str, paths: Iterable[str | Path], into: ContentLibrary | None = None
) -> ContentLibrary:
    """Load and merge content files (or folders) for ``ruleset`` into a library."""
    library = into if into is not None else ContentLibrary(ruleset)
    for path in paths:
        for file in yaml_files(path):
            data = read_yaml(file)
            if isinstance(data, dict) and data.get("ruleset") != ruleset:
                raise ContentError(file, [Problem("ruleset", f"'{ruleset}' (got {data.get('ruleset')!r})")])
            library.add_file(validate(model, data, file), file)
    return library


class ReferenceProblem(ValueError):
    """A schema-valid file that refers to content that does not exist or does not fit.

    Raised by a ruleset's ``prepare`` with the field path; the loader adds the file name.
    """

    def __init__(self, field: str, expected: str) -> None:
        self.field = field
        self.expected = expected
        super().__init__(f"{field}: {expected}")
