"""The operations a ruleset offers on its sheets beyond new, check and show (``affray character NAME``).

A ruleset's :class:`~affray.characters.sheet.SheetRules` lists them in ``operations``; the command line builds one
command per operation name from the declaration (its help, its typed parameters as
:class:`~affray.core.actions.Field` s), so a ruleset adds an operation in its own folder and nowhere else. Two
kinds:

- :class:`SheetChange` changes one sheet: ``steps`` turns the parameters into labelled changes, applied in order,
  all or nothing (a change the rules refuse raises :class:`~affray.characters.sheet.Refused`: exit 1, nothing
  written); the result is checked like ``affray character check`` and written over the file or to ``--out``.
  ``after`` gives lines to show once the changes are made (points left...). With ``dry_run`` the command offers
  ``--dry-run``.
- :class:`PartyReport` reads several sheets of the ruleset and reports on them together (a table, lines, or one
  JSON object with ``--json``): the party leader, say.

Parameters that make no sense together raise :class:`~affray.core.checks.BadParameters` with one sentence (exit 2,
nothing read or written beyond the sheets). Rulesets that offer an operation of the same name share its command:
its flags are those of the first ruleset (by name) that declares it, so such declarations should agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from affray.core.actions import Field
from affray.core.checks import Params
from affray.core.content import ContentLibrary

#: One change of a sheet: its label (shown as it is made) and a function from the sheet to the changed sheet.
Step = tuple[str, Callable[[Any], Any]]


def _no_lines(sheet: Any, content: ContentLibrary) -> list[str]:
    return []


@dataclass(frozen=True, slots=True)
class SheetChange:
    """An operation that changes one sheet (see the module docstring)."""

    name: str
    help: str
    fields: tuple[Field, ...]
    steps: Callable[[Any, Params, ContentLibrary], list[Step]]
    after: Callable[[Any, ContentLibrary], list[str]] = _no_lines
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class Report:
    """What a :class:`PartyReport` shows: a titled table, then ``(label, text)`` lines; ``data`` for ``--json``."""

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    lines: list[tuple[str, str]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PartyReport:
    """An operation that reads several sheets and reports on them (see the module docstring). ``files`` is the
    help of the sheets' argument."""

    name: str
    help: str
    files: str
    fields: tuple[Field, ...]
    report: Callable[[Sequence[Any], Params], Report]


SheetOperation = SheetChange | PartyReport

#: The commands every ruleset's sheets have.
BUILT_IN = ("new", "check", "show")
