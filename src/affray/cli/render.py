"""Rich rendering shared by the commands: narration of events, errors, tables of legal actions."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape as rich_escape
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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def printable(text: object, keep: str = "") -> str:
    """``text`` with control characters (escape sequences, carriage returns, newlines, bidirectional overrides)
    shown as ``\\xNN``/``\\uNNNN``, except those in ``keep``: for text printed without Rich."""
    def show(m: re.Match[str]) -> str:
        ch = m[0]
        return ch if ch in keep else (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
    return _CONTROL.sub(show, str(text))


def escape(text: object) -> str:
    """``text`` safe to print with Rich: markup escaped and control characters shown (:func:`printable`), so
    names and texts from content, sheets or logs can neither style, move nor rewrite the terminal."""
    return rich_escape(printable(text))


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
        table.add_row(escape(actor), escape(f.get("name", actor)), escape(f.get("side", "")), escape(hp),
                      escape(f.get("out") or ""))
    return table


def fail(message: str) -> None:
    """Print ``message`` to stderr as one ``error:`` line per line of it (each escaped)."""
    for line in message.splitlines() or [""]:
        errors.print(f"[bold red]error:[/] {escape(line)}")
    sys.stderr.flush()


def warn(message: str) -> None:
    """Print ``message`` to stderr as a ``warning:`` line (escaped)."""
    for line in message.splitlines() or [""]:
        errors.print(f"[bold yellow]warning:[/] {escape(line)}")
