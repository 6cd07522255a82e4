"""Character sheets: the file format every ruleset shares, reading, checking, writing, and a printable summary.

A sheet is a YAML file that starts with ``format: affray-sheet/1`` and names its ruleset; the rest is the
ruleset's own schema (``rulesets/<name>/sheet.py``; WitchHammer's in ``rulesets/witchhammer/characters/``).
Checking a sheet has two stages, and both report the file, the field and the reason (:class:`ContentError`):

1. the schema (types, ranges, the fields a ruleset allows), and
2. the ruleset's character rules against its content (point totals, known schools, traits that exist...).

Each ruleset's plug-in record names its :class:`~affray.core.sheetrules.SheetRules` (``sheet``), with the
operations it offers beyond new, check and show (:mod:`affray.characters.operations`). A sheet file names its
ruleset, so this module finds that ruleset's record by name: one of the edges where a name comes in from outside.
A sheet that passes can be shown, advanced and used in a fight (:func:`fight_sheet`, read by a ruleset's
``prepare`` through :mod:`affray.core.sheets`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml
from pydantic import BaseModel

from affray.core.content import ContentError, ContentLibrary, Problem, load_pack, read_yaml, validate
from affray.core.files import write_text
from affray.core.json import JsonObject
from affray.core.plugin import get_ruleset, plugin, plugin_names
from affray.core.sheetrules import FORMAT as FORMAT
from affray.core.sheetrules import AnySheetRules as AnySheetRules
from affray.core.sheetrules import SheetModel as SheetModel
from affray.core.sheetrules import SheetRules as SheetRules
from affray.core.sheetrules import Summary as Summary
from affray.core.sheets import FightSheet, inline_data


class Refused(ValueError):
    """A change to a sheet that the rules refuse; the message says why and cites the rule."""


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


def parse_sheet(data: object, path: str | Path) -> tuple[AnySheetRules, SheetModel]:
    """Check a sheet's schema (stage 1) and return its rules and model; errors name ``path`` and the field."""
    rules = sheet_rules(data, path)
    return rules, validate(rules.model, data, path)


def sheet_rules(data: object, path: str | Path) -> AnySheetRules:
    """The rules of the sheet ``data``: it must be a mapping with the format line and a known ruleset."""
    if not isinstance(data, dict):
        raise ContentError(
            path, [Problem("(top level)", f"a character sheet: a mapping starting with 'format: {FORMAT}'")]
        )
    if data.get("format") != FORMAT:
        got = data.get("format")
        seen = "" if got is None else f"; got {got!r}"
        raise ContentError(path, [Problem("format", f"'{FORMAT}' (a character sheet){seen}")])
    ruleset = data.get("ruleset")
    try:
        return rules_for(str(ruleset))
    except KeyError as exc:
        raise ContentError(path, [Problem("ruleset", f"{exc.args[0]} (got {ruleset!r})")]) from None


def read_sheet(path: str | Path) -> tuple[AnySheetRules, SheetModel]:
    """Read a sheet file and check its schema."""
    return parse_sheet(read_yaml(path), path)


def check(rules: AnySheetRules, sheet: SheetModel, content: ContentLibrary, path: str | Path) -> list[str]:
    """Check the character rules (stage 2): raise :class:`ContentError` with every problem, else return notes."""
    problems = rules.problems(sheet, content)
    if problems:
        raise ContentError(path, problems)
    return rules.notes(sheet, content)


def load(
    path: str | Path, extra: Iterable[str | Path] = ()
) -> tuple[AnySheetRules, SheetModel, ContentLibrary, list[str]]:
    """Read, check and return a sheet with its rules, its content library and its notes."""
    rules, sheet = read_sheet(path)
    content = library(rules.ruleset, extra)
    notes = check(rules, sheet, content, path)
    return rules, sheet, content, notes


def fight_sheet(ruleset: str, path: Path, content: ContentLibrary) -> FightSheet:
    """The reader :mod:`affray.core.sheets` calls: a checked sheet of ``ruleset`` (a file, or one written in the
    scenario: :func:`~affray.core.sheets.inline_data`) as a fighter's character."""
    inline = inline_data(path)
    rules, sheet = read_sheet(path) if inline is None else parse_sheet(inline, path)
    if rules.ruleset != ruleset:
        expected = f"'{ruleset}', the scenario's ruleset; got '{rules.ruleset}'"
        raise ContentError(path, [Problem("ruleset", expected)])
    check(rules, sheet, content, path)
    return rules.for_fight(sheet, content)


def to_data(sheet: BaseModel) -> JsonObject:
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
