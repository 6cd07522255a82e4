"""Character sheets named by scenarios: the registry a ruleset's ``prepare`` reads them through.

A scenario combatant may name a character sheet file instead of a content id (``sheet:
../characters/hilde.yaml``, relative to the scenario; :meth:`ScenarioBase.sheet_path`). Reading and checking a
sheet against a ruleset's character rules is the job of :mod:`affray.characters`, which sits above the
rulesets; it installs the one reader here, and ``prepare`` calls :func:`load_sheet`. Imports keep
pointing down (DESIGN.md): neither core nor a ruleset imports the characters package.

A sheet may also be written inside the scenario (``sheet:`` a mapping): :func:`inline_sheet` gives it a name that holds
the sheet itself, and the reader asks :func:`inline_data` for the sheet in a name before it reads a file.

A sheet that fails its checks is refused before the fight starts: :func:`load_sheet` raises a
:class:`ReferenceProblem` at the combatant's ``sheet`` field, quoting the sheet file, its field and the reason.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from affray.core.content import ContentError, ContentLibrary, ReferenceProblem


@dataclass(frozen=True, slots=True)
class FightSheet:
    """A checked sheet as the ruleset's own content character, and the harm it carries into the fight.

    ``wounds``: damage the character still carries (WitchHammer Wounds; 0 for a fresh character).
    """

    character: Any
    wounds: int = 0


#: The start of the name a sheet written in a scenario is read by: the sheet itself follows, as base64url JSON.
INLINE_PREFIX = "inline-sheet:"


def inline_sheet(data: Mapping[str, object]) -> Path:
    """The name a sheet written in a scenario is read by: it holds the sheet (no state kept anywhere), and names no
    file (a base64url text holds no ``/``)."""
    text = json.dumps(dict(data), sort_keys=True, default=str)
    return Path(INLINE_PREFIX + base64.urlsafe_b64encode(text.encode()).decode())


def inline_data(path: Path) -> dict[str, object] | None:
    """The sheet :func:`inline_sheet` named ``path``; None for a file's path."""
    name = str(path)
    if not name.startswith(INLINE_PREFIX):
        return None
    data = json.loads(base64.urlsafe_b64decode(name.removeprefix(INLINE_PREFIX).encode()))
    return data if isinstance(data, dict) else None


M = TypeVar("M", bound=BaseModel)
SheetReader = Callable[[str, Path, ContentLibrary], FightSheet]
_READER: list[SheetReader] = []


def set_sheet_reader(reader: SheetReader) -> None:
    """Install the reader of sheet files (``(ruleset, path, content) -> FightSheet``, raising
    :class:`ContentError`); :mod:`affray.characters` installs it, finding each ruleset's rules in its plug-in."""
    _READER[:] = [reader]


def load_sheet(ruleset: str, path: Path, content: ContentLibrary, where: str) -> FightSheet:
    """The sheet at ``path`` checked against ``content``; a broken one is a :class:`ReferenceProblem` at
    ``where`` (the combatant's ``sheet`` field) that names the sheet file, the field and the reason."""
    if not _READER:
        raise ReferenceProblem(
            where,
            f"a {ruleset} character sheet, but no sheet reader is installed "
            f"(import affray, which loads affray.characters)",
        )
    try:
        return _READER[0](ruleset, path, content)
    except ContentError as exc:
        # A sheet written in the scenario has no file to name: its problems are told by their fields alone.
        told = [f"{p.field}: {p.expected}" for p in exc.problems] if inline_data(path) is not None else []
        said = "; ".join(told or str(exc).splitlines())
        raise ReferenceProblem(where, f"a valid character sheet, but {said}") from None


class NamesACharacter(Protocol):
    """What :func:`combatant_character` reads of a scenario combatant: the content item it ``use`` s, its display
    ``name`` and its inline ``stats`` (each ruleset's combatant model has them)."""

    @property
    def use(self) -> str | None: ...

    @property
    def name(self) -> str | None: ...

    @property
    def stats(self) -> BaseModel | None: ...


def combatant_character(
    ruleset: str,
    model: type[M],
    where: str,
    combatant: NamesACharacter,
    content: ContentLibrary,
    sheet_file: Path | None,
    sections: tuple[str, ...] = ("characters",),
) -> M:
    """A scenario combatant's character: its sheet file, or the content item its ``use`` names (looked up in
    ``sections`` in order), overridden by its inline ``stats`` and ``name``, checked against ``model``.

    Problems are :class:`ReferenceProblem` at the combatant's field (``use``, ``sheet`` or ``stats.<field>``).
    """
    base: dict[str, object] = {}
    if sheet_file is not None:
        base = load_sheet(ruleset, sheet_file, content, f"{where}.sheet").character.model_dump()
    elif combatant.use is not None:
        section = next((s for s in sections if combatant.use in content.sections.get(s, {})), sections[-1])
        base = content.require(section, combatant.use, f"{where}.use").model_dump()
    if combatant.stats is not None:
        base.update(combatant.stats.model_dump(exclude_none=True))
    if combatant.name:
        base["name"] = combatant.name
    try:
        return model.model_validate(base)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ReferenceProblem(f"{where}.stats.{'.'.join(map(str, err['loc']))}", err["msg"]) from None
