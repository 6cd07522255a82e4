"""``affray character NAME``: the sheet operations rulesets declare (:mod:`affray.characters.operations`), one
command per name, built from the declarations of the registered rulesets (none is named here).

A sheet change reads the sheet (``affray character check``'s checks), applies its steps in order, all or nothing,
shows each, checks the result and writes it (over the file or to ``--out``); a party report reads every sheet and
prints a table or, with ``--json``, one object. A sheet whose ruleset does not offer the operation is refused
with a sentence that lists what its sheets offer (exit 2).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from affray.characters.operations import BUILT_IN, PartyReport, SheetChange, SheetOperation, Step
from affray.characters.sheet import AnySheetRules, Refused, check, load, rules_for, write_sheet
from affray.cli.declared import command, option, take, take_optional
from affray.cli.render import CliError, console, escape
from affray.core.checks import BadParameters
from affray.core.content import ContentLibrary
from affray.core.files import FileProblem, check_output_path
from affray.core.plugin import plugin, plugin_names
from affray.core.sheetrules import SheetModel

if TYPE_CHECKING:  # typer carries its own click; its types are only named here
    from typer._click.core import Command

ContentParam = option("content", list[Path] | None, "--content", "extra content files or folders")


def declared() -> dict[str, SheetOperation]:
    """Every operation name some registered ruleset offers, with the first declaration of it (by ruleset name)."""
    found: dict[str, SheetOperation] = {}
    for name in plugin_names():
        if plugin(name).sheet is not None:
            for op in rules_for(name).operations:
                found.setdefault(op.name, op)
    return found


def offered(rules: AnySheetRules, name: str, path: Path) -> SheetOperation:
    """The sheet's ruleset's own declaration of ``name``, or the sentence that it offers no such thing."""
    mine = {op.name: op for op in rules.operations}
    if name not in mine:
        names = ", ".join([*BUILT_IN, *mine])
        raise CliError(
            f"{path}: `affray character {name}` is not offered for {rules.ruleset} sheets; "
            f"{rules.ruleset} sheets offer: {names}."
        )
    return mine[name]


def load_sheet(path: Path, content: list[Path] | None) -> tuple[AnySheetRules, SheetModel, ContentLibrary, list[str]]:
    if not path.is_file():
        raise CliError(f"{path}: no such file.")
    return load(path, content or [])


def writable(target: Path) -> None:
    """Refuse before any change a sheet path that cannot be written (a folder, no such folder, not .yaml)."""
    try:
        check_output_path(target, (".yaml", ".yml"), "--out")
    except FileProblem as exc:
        raise CliError(str(exc)) from None


def write(sheet: SheetModel, target: Path) -> None:
    try:
        write_sheet(sheet, target)
    except OSError as exc:
        raise CliError(f"{target}: cannot write the sheet ({exc.strerror}).") from None


def operation_command(name: str) -> Command | None:
    """The command of operation ``name`` (``None`` when no registered ruleset offers it)."""
    op = declared().get(name)
    if op is None:
        return None
    app = typer.Typer(rich_markup_mode=None, add_completion=False)
    app.command(name)(_change(op) if isinstance(op, SheetChange) else _party(op))
    return typer.main.get_command(app)


def _change(op: SheetChange) -> Callable[..., None]:
    path = inspect.Parameter(
        "path",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[Path, typer.Argument(help="a character sheet (YAML)")],
    )
    trailing = [option("out", Path | None, "--out", "write the result here instead of over FILE"), ContentParam]
    if op.dry_run:
        trailing.insert(0, option("dry_run", bool, "--dry-run", "check, print, write nothing", False))

    def body(values: dict[str, object]) -> None:
        path, out = take(values, "path", Path), take_optional(values, "out", Path)
        content, dry_run = take_optional(values, "content", list), bool(values.pop("dry_run", False))
        rules, sheet, lib, _ = load_sheet(path, content)
        mine = offered(rules, op.name, path)
        if not isinstance(mine, SheetChange):
            raise CliError(f"{path}: `affray character {op.name}` reads a party of {rules.ruleset} sheets.")
        try:
            steps = mine.steps(sheet, values, lib)
        except BadParameters as exc:
            raise CliError(str(exc)) from None
        apply(path, out, rules, sheet, lib, steps, mine.after, dry_run)

    return command(op.name, op.help, (path,), op.fields, trailing, body)


def apply(
    path: Path,
    out: Path | None,
    rules: AnySheetRules,
    sheet: SheetModel,
    lib: ContentLibrary,
    steps: list[Step],
    after: Callable[[SheetModel, ContentLibrary], list[str]],
    dry_run: bool,
) -> None:
    """Apply every step in order, all or nothing; then check the result and write it."""
    writable(out or path)
    for label, step in steps:
        try:
            sheet = step(sheet)
        except Refused as exc:
            raise CliError(f"refused ({label}): {exc}; nothing was written.", code=1) from None
        console.print(f"[green]✓[/] {escape(label)}")
    target = out or path
    notes = check(rules, sheet, lib, target)
    for line in after(sheet, lib):
        console.print(escape(line))
    for note in notes:
        console.print(f"[yellow]note:[/] {escape(note)}")
    if dry_run:
        console.print("dry run: nothing was written")
        return
    write(sheet, target)
    console.print(f"saved {escape(target)}")


def _party(op: PartyReport) -> Callable[..., None]:
    files = inspect.Parameter(
        "files", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[list[Path], typer.Argument(help=op.files)]
    )
    as_json = option("as_json", bool, "--json", "print one JSON object", False)

    def body(values: dict[str, object]) -> None:
        paths, as_json_out = take(values, "files", list), bool(values.pop("as_json"))
        sheets, ruleset, mine = [], None, None
        for path in paths:
            rules, sheet, _, _ = load_sheet(path, None)
            mine = offered(rules, op.name, path)
            if ruleset is not None and rules.ruleset != ruleset:
                raise CliError(f"{path}: a {rules.ruleset} sheet; a party's sheets are all {ruleset} sheets.")
            ruleset = rules.ruleset
            sheets.append(sheet)
        if not isinstance(mine, PartyReport):
            raise CliError(f"`affray character {op.name}` changes one sheet at a time.")
        try:
            report = mine.report(sheets, values)
        except BadParameters as exc:
            raise CliError(str(exc)) from None
        if as_json_out:
            print(json.dumps(report.data))
            return
        table = Table(title=escape(report.title), title_justify="left")
        for col in report.columns:
            table.add_column(col)
        for row in report.rows:
            table.add_row(*(escape(cell) for cell in row))
        console.print(table)
        for label, text in report.lines:
            console.print(f"[bold]{escape(label)}:[/] {escape(text)}")

    return command(op.name, op.help, (files,), op.fields, (as_json,), body)
