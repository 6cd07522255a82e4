"""What a ruleset declares about its characters, as its plug-in record names it: the sheet model every sheet
extends, a sheet's :class:`Summary` and the :class:`SheetRules` protocol (with the operations a ruleset offers beyond
new, check and show).

These live in core for the reason :mod:`affray.core.checks` does: the record (:mod:`affray.core.plugin`) names
them, and core imports nothing above it. The builder that makes a sheet from answers is
:data:`affray.core.prompts.Builder`. Reading, checking and writing sheet files is :mod:`affray.characters`;
each ruleset's own rules and builder live in its folder.

The operations (``affray character NAME``): a :class:`SheetChange` changes one sheet (``steps`` turns the
parameters into labelled changes, applied in order, all or nothing; ``after`` gives lines to show once they are
made; ``dry_run`` offers ``--dry-run``); a :class:`PartyReport` reads several sheets of the ruleset and reports on
them together (a table, lines, or one JSON object with ``--json``). Parameters that make no sense together raise
:class:`~affray.core.checks.BadParameters` with one sentence. Rulesets that offer an operation of the same name
share its command: its flags are those of the first ruleset (by name) that declares it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import Field as ModelField

from affray.core.actions import Field
from affray.core.checks import Params
from affray.core.content import ContentLibrary, Problem
from affray.core.scenario import Strict
from affray.core.sheets import FightSheet

FORMAT = "affray-sheet/1"


class SheetModel(Strict):
    """What every sheet has: the format marker, its ruleset, a name and a few words about the character."""

    format: str = ModelField(pattern=r"^affray-sheet/1$", description=f"always '{FORMAT}'")
    ruleset: str
    name: str = ModelField(min_length=1, max_length=120)
    description: str = ""


@dataclass(frozen=True, slots=True)
class Summary:
    """A sheet laid out for people: titled sections of (label, value) rows, and notes worth a look."""

    title: str
    sections: list[tuple[str, list[tuple[str, str]]]]
    notes: list[str] = field(default_factory=list)


# -- operations ----------------------------------------------------------------------------------------------------
# A step's sheet is the ruleset's own model, known only to the ruleset that declares the operation: a registry of
# several rulesets' operations cannot name it, so it is ``Any`` here (the sheet was checked by its model first).

#: One change of a sheet: its label (shown as it is made) and a function from the sheet to the changed sheet.
Step = tuple[str, Callable[[Any], Any]]


def _no_lines(sheet: SheetModel, content: ContentLibrary) -> list[str]:
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
    data: Mapping[str, object] = field(default_factory=dict)


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


# -- the rules and the builder ------------------------------------------------------------------------------------

#: The sheet model one ruleset's rules read (contravariant: rules for a ruleset's own sheets take only those).
SheetT_contra = TypeVar("SheetT_contra", bound=SheetModel, contravariant=True)


class SheetRules(Protocol[SheetT_contra]):
    """One ruleset's character rules, over its own sheet model (a registry of several rulesets' rules holds
    :data:`AnySheetRules`)."""

    @property
    def ruleset(self) -> str: ...

    @property
    def model(self) -> type[SheetModel]: ...

    def problems(self, sheet: SheetT_contra, content: ContentLibrary) -> list[Problem]:
        """What breaks the character rules (empty when the sheet is legal)."""
        ...

    def notes(self, sheet: SheetT_contra, content: ContentLibrary) -> list[str]:
        """Things worth knowing that are not errors (points left, an outré hat...)."""
        ...

    def for_fight(self, sheet: SheetT_contra, content: ContentLibrary) -> FightSheet:
        """The ruleset's own content character for a legal sheet."""
        ...

    def summary(self, sheet: SheetT_contra, content: ContentLibrary) -> Summary: ...

    @property
    def operations(self) -> Sequence[SheetOperation]:
        """What the ruleset offers on its sheets beyond new, check and show (see the module docstring); empty when
        nothing."""
        ...

    @property
    def builder_options(self) -> type | None:
        """The dataclass of the builder's named options a sheet may change under ``house_rules`` (shown by
        ``affray character options``), or ``None``."""
        ...


#: The rules of some ruleset, as a registry holds them: which sheet model they read is known only at run time (the
#: sheet's own ``ruleset`` field picks them), so the sheet passed to them is checked by the model, not by mypy.
AnySheetRules = SheetRules[Any]
