"""``affray character``: build a character by prompts, check and show it, and the operations a ruleset declares for
its sheets (advance, spend, a party leader...: :mod:`affray.cli.character_ops`).

Exit codes: 0 done; 1 the sheet breaks the rules (``check``) or the rules refuse a change (``spend``, ``advance``...),
nothing written; 2 the command cannot run (no such file, not a sheet, unknown ruleset, bad arguments).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from typer.core import TyperGroup

from affray.characters.sheet import (
    Summary,
    check,
    library,
    markdown,
    rules_for,
    sheet_rules,
)
from affray.cli.character_ops import declared, load_sheet, operation_command, writable, write
from affray.cli.declared import RULESETS
from affray.cli.render import CliError, console, escape, printable
from affray.core.content import ContentError, read_yaml, validate
from affray.core.plugin import plugin_names, ruleset_names
from affray.core.rng import VerifiableRNG, new_secret_seed, seed_from_int

if TYPE_CHECKING:  # typer carries its own click; its types are only named here
    from typer._click.core import Command, Context


class _CharacterGroup(TyperGroup):
    """``affray character``: new, check, show, options, and the operations the registered rulesets declare."""

    def list_commands(self, ctx: Context) -> list[str]:
        mine = super().list_commands(ctx)
        return [*mine, *(n for n in declared() if n not in mine)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        return super().get_command(ctx, cmd_name) or operation_command(cmd_name)


character_app = typer.Typer(
    cls=_CharacterGroup, no_args_is_help=True, help="Build, check, show and advance character sheets."
)

ContentOpt = Annotated[list[Path] | None, typer.Option("--content", help="extra content files or folders")]
SheetArg = Annotated[Path, typer.Argument(help="a character sheet (YAML)")]


def _ruleset(name: str) -> str:
    try:
        rules_for(name)
    except KeyError:
        raise CliError(f"unknown ruleset '{name}'; known rulesets: {', '.join(ruleset_names())}.") from None
    return name


def render(summary: Summary) -> None:
    """A summary as Rich tables."""
    console.print(f"[bold]{escape(summary.title)}[/]")
    for title, rows in summary.sections:
        if not rows:
            continue
        table = Table(title=escape(title), title_justify="left", show_header=False)
        table.add_column(style="cyan")
        table.add_column()
        for label, value in rows:
            table.add_row(escape(label), escape(value))
        console.print(table)
    for note in summary.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")


@character_app.command("new")
def new(
    ruleset: Annotated[str, typer.Argument(help=f"the ruleset: {RULESETS}")],
    out: Annotated[Path | None, typer.Option("--out", help="save the sheet here (else asked)")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="fixed seed for the money roll (reproducible)")] = None,
    content: ContentOpt = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
) -> None:
    """Build a character by prompts, showing points left and refusing what the rules refuse."""
    from affray.cli.character_new import ask, build

    name = _ruleset(ruleset)
    if out is not None and out.exists() and not force:
        raise CliError(f"{out} exists; choose another --out or add --force.")
    if out is not None:
        writable(out)
    lib = library(name, content or [])
    rng = VerifiableRNG(seed_from_int(seed) if seed is not None else new_secret_seed())
    sheet = build(name, lib, rng)
    target = out
    while target is None or (target.exists() and not force):
        if target is not None:
            console.print(f"{escape(str(target))} exists; give another name (or use --force)")
        target = Path(ask("Save to file", default=f"{_slug(sheet.name)}.yaml"))
    check(rules_for(name), sheet, lib, target)
    write(sheet, target)
    render(rules_for(name).summary(sheet, lib))
    console.print(f"saved {escape(target)}")


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_") or "character"


@character_app.command("check")
def check_cmd(
    files: Annotated[list[Path], typer.Argument(help="character sheets")], content: ContentOpt = None
) -> None:
    """Check sheets: the schema, then the character rules. Every problem names the file and the field."""
    failed = False
    for path in files:
        if not path.is_file():
            raise CliError(f"{path}: no such file.")
        data = read_yaml(path)
        rules = sheet_rules(data, path)  # not YAML, not a sheet, or an unknown ruleset: exit 2
        try:
            sheet = validate(rules.model, data, path)
            notes = check(rules, sheet, library(rules.ruleset, content or []), path)
        except ContentError as exc:
            from affray.cli.render import fail

            for line in str(exc).splitlines():
                fail(line)
            failed = True
            continue
        console.print(f"[green]ok[/]: {escape(str(path))} is a legal {rules.ruleset} character ({escape(sheet.name)})")
        for note in notes:
            console.print(f"  [yellow]note:[/] {escape(note)}")
    if failed:
        raise typer.Exit(1)


@character_app.command("show")
def show(
    path: SheetArg,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="print Markdown")] = False,
    content: ContentOpt = None,
) -> None:
    """Print a sheet with every derived number (points left, statistics, saves...)."""
    rules, sheet, lib, _ = load_sheet(path, content)
    summary = rules.summary(sheet, lib)
    if as_markdown:
        print(printable(markdown(summary), keep="\n"))
    else:
        render(summary)


@character_app.command("options")
def options_cmd(
    ruleset: Annotated[
        str | None, typer.Argument(help=f"one ruleset ({RULESETS}); else every one whose builder has options")
    ] = None,
) -> None:
    """The character builder's numbers and rulings (a sheet may change them under house_rules)."""
    from affray.core.options import describe

    for name in [_ruleset(ruleset)] if ruleset is not None else plugin_names():
        options = rules_for(name).builder_options if ruleset is not None or _has_sheets(name) else None
        if options is None:
            if ruleset is not None:
                console.print(f"{name} sheets have no builder options.")
            continue
        table = Table(title=f"{name} character builder", title_justify="left")
        for col in ("option", "default", "rule", "meaning"):
            table.add_column(col)
        for info in describe(options):
            table.add_row(info.name, repr(info.default), info.rule, escape(info.doc))
        console.print(table)


def _has_sheets(name: str) -> bool:
    try:
        rules_for(name)
    except KeyError:
        return False
    return True
