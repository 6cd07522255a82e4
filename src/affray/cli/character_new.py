"""``affray character new``: the terminal side of the builders (the rules of building live in each ruleset's
``builder``, named by its plug-in record).

Every answer is checked as it is given: a refused answer prints the reason (with its rule) and asks again, and the
points left are shown before each purchase. The finished sheet passes the same checks as ``affray character check``.
Input that ends early (EOF) stops with a message; nothing is saved.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from affray.characters.prompts import InputEnded, Prompts
from affray.cli.render import CliError, console, escape
from affray.core.content import ContentLibrary
from affray.core.plugin import plugin
from affray.core.rng import VerifiableRNG
from affray.core.sheetrules import SheetModel


def _write(text: str, style: str) -> None:
    console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))


def _table(title: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    table = Table(title=escape(title), title_justify="left")
    for col in columns:
        table.add_column(col)
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    console.print(table)


def _read(label: str) -> str:
    return console.input(escape(label))


PROMPTS = Prompts(_read, _write, _table)


def ask(label: str, default: str | None = None) -> str:
    """One question at the terminal; EOF is a user-facing error."""
    try:
        return PROMPTS.ask(label, default)
    except InputEnded as exc:
        raise CliError(str(exc)) from None


def build(ruleset: str, content: ContentLibrary, rng: VerifiableRNG) -> SheetModel:
    """A finished sheet of ``ruleset`` from the answers on stdin, by the ruleset's own builder."""
    loader = plugin(ruleset).builder
    if loader is None:
        raise CliError(f"{ruleset} has no character builder")
    try:
        return loader()(PROMPTS, content, rng)
    except InputEnded as exc:
        raise CliError(str(exc)) from None
