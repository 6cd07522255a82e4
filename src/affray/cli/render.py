"""Rich rendering shared by the commands: narration of events, errors, tables of legal actions."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from affray.core.engine import ActionSpec
from affray.core.events import Event

console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)
if not console.is_terminal:  # piped or captured: Rich would assume 80 columns and squeeze the tables
    console.width = 120

_STYLES = {
    "round_started": "bold cyan", "ended": "bold green", "defeated": "bold red", "rolled": "dim",
    "wounded": "red", "exchange": "yellow", "declared": "blue", "initiative": "cyan", "note": "italic",
}


class CliError(Exception):
    """A user-facing failure: print ``message`` and exit with ``code`` (no traceback)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def narrate(events: Iterable[Event], names: Mapping[str, str], out: Console | None = None) -> None:
    target = out or console
    for event in events:
        style = _STYLES.get(event.kind, "")
        text = event.describe(names)
        target.print(f"[{style}]{escape(text)}[/]" if style else escape(text))


def escape(text: str) -> str:
    return text.replace("[", "\\[")


def legal_table(specs: list[ActionSpec], title: str) -> Table:
    table = Table(title=title, show_lines=False, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("action")
    table.add_column("notes", style="magenta")
    for i, spec in enumerate(specs, 1):
        table.add_row(str(i), escape(spec.label), escape("; ".join(spec.notes)))
    return table


def status_table(view: Mapping[str, Any]) -> Table | None:
    """A compact table of combatants if the view has the usual ``fighters`` shape."""
    fighters = view.get("fighters")
    if not isinstance(fighters, Mapping):
        return None
    table = Table(show_header=True, title_justify="left")
    for col in ("id", "name", "side", "hp", "state"):
        table.add_column(col)
    for actor, f in fighters.items():
        hp = f"{f.get('hp')}/{f.get('max_hp')}" if "hp" in f else ""
        table.add_row(actor, escape(str(f.get("name", actor))), str(f.get("side", "")), hp, str(f.get("out") or ""))
    return table


def fail(message: str) -> None:
    errors.print(f"[bold red]error:[/] {escape(message)}")
    sys.stderr.flush()
