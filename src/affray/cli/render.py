"""Rich rendering shared by the commands: narration of events, errors, tables of legal actions."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape as rich_escape
from rich.table import Table

from affray.core.engine import ActionSpec, Viewer
from affray.core.events import Event
from affray.core.json import JsonMapping, as_list, as_number, as_object, as_str
from affray.core.match import Match
from affray.core.seatlog import narrated

console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)
if not console.is_terminal:  # piped or captured: Rich would assume 80 columns and squeeze the tables
    console.width = 120

_STYLES = {
    "round_started": "bold cyan",
    "ended": "bold green",
    "defeated": "bold red",
    "rolled": "dim",
    "wounded": "red",
    "exchange": "yellow",
    "declared": "blue",
    "initiative": "cyan",
    "note": "italic",
}


class CliError(Exception):
    """A user-facing failure: print ``message`` and exit with ``code`` (no traceback)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def narrate(events: Iterable[Event], match: Match, viewer: Viewer | None = None, out: Console | None = None) -> None:
    """Print each event's sentence as the ruleset's narrator tells it (:meth:`~affray.core.match.Match.story`),
    styled by its kind: in full, or as ``viewer`` may see it (an event it may not see told from its redaction, the
    same sentence the table's server sends that seat)."""
    target = out or console
    story, narrator = match.story(), match.narrator
    for event in events:
        text = (
            narrator.sentence(event, story)
            if viewer is None
            else as_str(narrated(event, viewer, narrator, story)["text"])
        )
        target.print(styled(text, event.kind))


def styled(text: str, kind: str) -> str:
    """``text`` escaped for Rich, in the style of an event of ``kind``."""
    style = _STYLES.get(kind, "")
    return f"[{style}]{escape(text)}[/]" if style else escape(text)


def narration_lines(entry: JsonMapping) -> list[str]:
    """A record of a table's log as the server told it to this seat: its headline and each event's sentence,
    styled by the event's kind."""
    lines = [styled(as_str(entry["text"]), "")] if entry.get("text") else []
    events = map(as_object, as_list(entry.get("events", [])))
    lines += [styled(as_str(e["text"]), str(e.get("type", ""))) for e in events if e.get("text")]
    return lines


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


def _bars(c: JsonMapping) -> str:
    return "  ".join(f"{b['name']} {b['value']}/{b['max']}" for b in map(as_object, as_list(c.get("bars", []))))


def _statuses(c: JsonMapping) -> str:
    shown = [
        as_str(s["name"]) + (f" ({s['rounds']})" if s.get("rounds") is not None else "")
        for s in map(as_object, as_list(c.get("statuses", [])))
    ]
    if c.get("dead"):
        shown.insert(0, "dead")
    elif c.get("down"):
        shown.insert(0, "down")
    return ", ".join(dict.fromkeys(shown))


def _where(c: JsonMapping) -> str:
    if not c.get("position"):
        return ""
    pos = as_object(c["position"])
    x = as_number(pos["x"])
    if pos["kind"] == "square":
        return f"({int(x)},{int(as_number(pos['y']))})" + (f" facing {pos['facing']}" if pos.get("facing") else "")
    return f"{pos['x']:g} m" if pos["kind"] == "line" else f"place {int(x)}"


def status_table(view: JsonMapping) -> Table | None:
    """The combatants of a view in the one envelope (core/view.py): health bars, statuses with their rounds, where
    they stand, and who is the viewer's; ``None`` for anything else."""
    combatants = view.get("combatants")
    if not isinstance(combatants, list):
        return None
    prompt = as_object(view.get("prompt") or {})
    title = f"round {view.get('round')} · {view.get('phase')}" + (f" · {prompt['text']}" if prompt.get("text") else "")
    table = Table(show_header=True, title=escape(title), title_justify="left")
    for col in ("", "id", "name", "side", "health", "statuses", "where"):
        table.add_column(col)
    for c in map(as_object, combatants):
        mine = "*" if c.get("controlled") else ""
        table.add_row(
            mine,
            escape(c["id"]),
            escape(c.get("name", c["id"])),
            escape(c.get("side", "")),
            escape(_bars(c)),
            escape(_statuses(c)),
            escape(_where(c)),
        )
    return table


def text_map(view: JsonMapping) -> str | None:
    """A small text map for the grid rulesets: the map rows of the view's ``detail`` with each combatant standing
    on a square shown by the first letter of its id (upper case for the viewer's own); ``None`` without a map."""
    rows = as_object(view.get("detail") or {}).get("map")
    if not isinstance(rows, list) or not rows:
        return None
    grid = [list(as_str(row)) for row in rows]
    for c in map(as_object, as_list(view.get("combatants", []))):
        pos = as_object(c.get("position") or {})
        if not pos or pos.get("kind") != "square" or c.get("dead"):
            continue
        x, y = int(as_number(pos["x"])), int(as_number(pos["y"]))
        if 0 <= y < len(grid) and 0 <= x < len(grid[y]):
            mark = as_str(c["id"])[:1] or "?"
            grid[y][x] = mark.upper() if c.get("controlled") else mark.lower()
    return "\n".join("".join(row) for row in grid)


def fail(message: str) -> None:
    """Print ``message`` to stderr as one ``error:`` line per line of it (each escaped)."""
    for line in message.splitlines() or [""]:
        errors.print(f"[bold red]error:[/] {escape(line)}")
    sys.stderr.flush()


def warn(message: str) -> None:
    """Print ``message`` to stderr as a ``warning:`` line (escaped)."""
    for line in message.splitlines() or [""]:
        errors.print(f"[bold yellow]warning:[/] {escape(line)}")
