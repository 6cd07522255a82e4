"""``affray db check`` and ``affray db backup OUT``: the table server's database, for operators (docs/table.md,
"Checking the database" and "Backups of the database")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from affray.cli.render import CliError, console, escape

db_app = typer.Typer(no_args_is_help=True, help="Check or back up the table server's database.")
DbOpt = Annotated[str, typer.Option("--db", help="sqlite:///FILE or postgresql+psycopg://... (as affray serve)")]
DEFAULT_DB = "sqlite:///affray.db"


@db_app.command("check")
def check_command(db: DbOpt = DEFAULT_DB) -> None:
    """Check a database as affray serve does on start (SQLite: its pages and schema) and every row's JSON; exit 1
    when anything is damaged."""
    from affray.store import StoreError
    from affray.store.check import check

    try:
        health = check(db)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    where = escape(health.where)
    if not health.ok:
        for problem in health.problems:
            console.print(f"[red]damaged[/]: {where}: {escape(problem)}")
        console.print(
            f'{where} is not fit to serve: restore it from a backup (docs/table.md, "Backups of the '
            f'database") or move it aside to start a new one.'
        )
        raise typer.Exit(1)
    if health.new:
        console.print(f"[green]ok[/]: {where} is a new, empty database (affray serve creates its schema)")
        return
    counts = ", ".join(f"{value} {name}" for name, value in health.counts.items())
    state = "[red]damaged rows[/]" if health.damaged_rows else "[green]ok[/]"
    console.print(f"{state}: {where}: schema version {health.version}; {counts}")
    for refused in health.refused:  # the server refuses these tables (not the database): other rules versions
        console.print(f"[yellow]refused[/]: {escape(refused)}")
    if health.damaged_rows:  # each damages its own table only: the server serves the others
        for row in health.damaged_rows:
            console.print(f"[red]damaged row[/]: {escape(row)}")
        if health.more_damaged_rows:
            console.print(f"[red]damaged rows[/]: {health.more_damaged_rows} more")
        console.print(
            "The server serves every other table and answers these tables' requests 503 table_damaged: "
            'repair the rows named, or restore the database from a backup (docs/table.md, "Backups of the '
            'database").'
        )
        raise typer.Exit(1)


@db_app.command("backup")
def backup_command(
    out: Annotated[Path, typer.Argument(help="the new file to write the copy to")], db: DbOpt = DEFAULT_DB
) -> None:
    """Copy an SQLite database, even while a server runs (SQLite's online backup), into a new owner-only file.
    PostgreSQL: prints the pg_dump command to use instead."""
    from affray.store import StoreError
    from affray.store.check import backup_sqlite, sqlite_path

    source = sqlite_path(db)
    if source is None:
        raise CliError(
            f"a PostgreSQL database is backed up with pg_dump, which reads one consistent snapshot "
            f"while the servers run: umask 077; pg_dump --format=custom --file={out} "
            f'"postgresql://USER@HOST/DB" (docs/table.md, "Backups of the database")'
        )
    try:
        health = backup_sqlite(source, out)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if not health.ok:
        raise CliError(
            f"the copy {out} does not check out ({health.problems[0]}); the source may be damaged: "
            f"run affray db check --db {db}"
        )
    counts = ", ".join(f"{value} {name}" for name, value in health.counts.items())
    console.print(f"[green]backed up[/]: {escape(str(source))} -> {escape(str(out))} (owner-only; {counts})")
