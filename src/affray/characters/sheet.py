"""Character sheets: the file format every ruleset shares, reading, checking, writing, and a printable summary.

A sheet is a YAML file that starts with ``format: affray-sheet/1`` and names its ruleset; the rest is the
ruleset's own schema (``rulesets/<name>/sheet.py``; WitchHammer's in ``rulesets/witchhammer/characters/``).
Checking a sheet has two stages, and both report the file, the field and the reason (:class:`ContentError`):

1. the schema (types, ranges, the fields a ruleset allows), and
2. the ruleset's character rules against its content (point totals, known schools, traits that exist...).

Each ruleset's plug-in record names its :class:`SheetRules` (``sheet``), with the operations it offers beyond new,
check and show (:mod:`affray.characters.operations`). A sheet that passes can be shown, advanced and used in a
fight (:func:`fight_sheet`, read by a ruleset's ``prepare`` through :mod:`affray.core.sheets`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import yaml
from pydantic import BaseModel, Field

from affray.characters.operations import SheetOperation
from affray.core.content import ContentError, ContentLibrary, Problem, load_pack, read_yaml, validate
from affray.core.engine import get_ruleset
from affray.core.files import write_text
from affray.core.plugin import plugin, plugin_names
from affray.core.scenario import Strict
from affray.core.sheets import FightSheet

FORMAT = "affray-sheet/1"


class SheetModel(Strict):
    """What every sheet has: the format marker, its ruleset, a name and a few words about the character."""

    format: str = Field(pattern=r"^affray-sheet/1$", description=f"always '{FORMAT}'")
    ruleset: str
    name: str = Field(min_length=1, max_length=120)
    description: str = ""


class Refused(ValueError):
    """A change to a sheet that the rules refuse; the message says why and cites the rule."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A sheet laid out for people: titled sections of (label, value) rows, and notes worth a look."""

    title: str
    sections: list[tuple[str, list[tuple[str, str]]]]
    notes: list[str] = field(default_factory=list)


#: The sheet model one ruleset's rules read (contravariant: rules for a ruleset's own sheets take only those).
SheetT_contra = TypeVar("SheetT_contra", bound="SheetModel", contravariant=True)


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
        """What the ruleset offers on its sheets beyond new, check and show (:mod:`affray.characters.operations`);
        empty when nothing."""
        ...

    @property
    def builder_options(self) -> type | None:
        """The dataclass of the builder's named options a sheet may change under ``house_rules`` (shown by
        ``affray character options``), or ``None``."""
        ...


#: The rules of some ruleset, as a registry holds them: which sheet model they read is known only at run time (the
#: sheet's own ``ruleset`` field picks them), so the sheet passed to them is checked by the model, not by mypy.
AnySheetRules = SheetRules[Any]


def rules_for(ruleset: str) -> AnySheetRules:
    """The character rules of ``ruleset`` (its plug-in record's ``sheet``); ``KeyError`` with the known names
    otherwise."""
    known = [n for n in plugin_names() if plugin(n).sheet is not None]
    loader = plugin(ruleset).sheet if ruleset in plugin_names() else None
    if loader is None:
        raise KeyError(f"no character rules for '{ruleset}'; known: {', '.join(known)}")
    rules: AnySheetRules = loader()
    return rules


def library(ruleset: str, extra: Iterable[str | Path] = ()) -> ContentLibrary:
    """The ruleset's built-in content plus ``extra`` content files or folders (a copy: safe to change)."""
    rs = get_ruleset(ruleset)
    return load_pack(rs.content_type, rs.name, list(extra), into=rs.content().copy())


def parse_sheet(data: Any, path: str | Path) -> tuple[AnySheetRules, Any]:
    """Check a sheet's schema (stage 1) and return its rules and model; errors name ``path`` and the field."""
    rules = sheet_rules(data, path)
    return rules, validate(rules.model, data, path)


def sheet_rules(data: Any, path: str | Path) -> AnySheetRules:
    """The rules of the sheet ``data``: it must be a mapping with the format line and a known ruleset."""
    if not isinstance(data, dict):
        raise ContentError(path, [Problem("(top level)", f"a character sheet: a mapping starting with "
                                                         f"'format: {FORMAT}'")])
    if data.get("format") != FORMAT:
        got = data.get("format")
        seen = "" if got is None else f"; got {got!r}"
        raise ContentError(path, [Problem("format", f"'{FORMAT}' (a character sheet){seen}")])
    ruleset = data.get("ruleset")
    try:
        return rules_for(str(ruleset))
    except KeyError as exc:
        raise ContentError(path, [Problem("ruleset", f"{exc.args[0]} (got {ruleset!r})")]) from None


def read_sheet(path: str | Path) -> tuple[AnySheetRules, Any]:
    """Read a sheet file and check its schema."""
    return parse_sheet(read_yaml(path), path)


def check(rules: AnySheetRules, sheet: Any, content: ContentLibrary, path: str | Path) -> list[str]:
    """Check the character rules (stage 2): raise :class:`ContentError` with every problem, else return notes."""
    problems = rules.problems(sheet, content)
    if problems:
        raise ContentError(path, problems)
    return rules.notes(sheet, content)


def load(path: str | Path, extra: Iterable[str | Path] = ()) -> tuple[AnySheetRules, Any, ContentLibrary, list[str]]:
    """Read, check and return a sheet with its rules, its content library and its notes."""
    rules, sheet = read_sheet(path)
    content = library(rules.ruleset, extra)
    notes = check(rules, sheet, content, path)
    return rules, sheet, content, notes


def fight_sheet(ruleset: str, path: Path, content: ContentLibrary) -> FightSheet:
    """The reader :mod:`affray.core.sheets` calls: a checked sheet of ``ruleset`` as a fighter's character."""
    rules, sheet = read_sheet(path)
    if rules.ruleset != ruleset:
        expected = f"'{ruleset}', the scenario's ruleset; got '{rules.ruleset}'"
        raise ContentError(path, [Problem("ruleset", expected)])
    check(rules, sheet, content, path)
    return rules.for_fight(sheet, content)


def to_data(sheet: BaseModel) -> dict[str, Any]:
    """The sheet as plain data for YAML: fields at their defaults are left out, the header always stays."""
    data = sheet.model_dump(mode="json", exclude_defaults=True)
    head = {"format": FORMAT, "ruleset": data.pop("ruleset", None), "name": data.pop("name", None)}
    data.pop("format", None)
    return {**head, **data}


def dump(sheet: BaseModel) -> str:
    text: str = yaml.safe_dump(to_data(sheet), sort_keys=False, allow_unicode=True, width=100)
    return text


def write_sheet(sheet: BaseModel, path: str | Path) -> None:
    """Write a sheet as YAML (comments in a hand-written file are not kept), through a temporary file and a
    rename like every file affray writes (:func:`affray.core.files.write_text`)."""
    write_text(path, dump(sheet))


def markdown(summary: Summary) -> str:
    """A summary as Markdown: a heading, one two-column table per section, then the notes."""
    lines = [f"# {summary.title}", ""]
    for title, rows in summary.sections:
        if not rows:
            continue
        lines += [f"## {title}", "", "| | |", "|---|---|"]
        lines += [f"| {_cell(label)} | {_cell(value)} |" for label, value in rows]
        lines.append("")
    if summary.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in summary.notes] + [""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def listing(items: Sequence[str], empty: str = "none") -> str:
    return ", ".join(items) if items else empty


def signed(value: int) -> str:
    return f"{value:+d}"
