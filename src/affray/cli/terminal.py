"""A person playing one seat at the terminal (``affray fight --play SEAT``).

The list of legal actions is grouped when it is long (a Planning window of face-down cards offers 241 pairs of
cards; a turn on a battle grid dozens of squares): choices that share a head (``Dodge Away, then``, ``move to``)
share a row, and every choice keeps its number. Card choices show the card's numbers (when the view's detail has
cards). With a Drama Timer in the view's detail (WH-B20) the Planning prompt runs the clock and calls time as the GM
when it runs out, as the table would.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time
from collections.abc import Callable

from rich.table import Table

from affray.cli.render import console, escape, narrate, status_table, text_map
from affray.core.engine import GM, Action, ActionSpec, Rejected
from affray.core.json import JsonMapping, as_list, as_number, as_object
from affray.core.match import Match
from affray.odds.hints import hints

HELP = "Type a number, the start of an action's name, a JSON action, 'view', 'undo' or 'quit'."
GROUP_ABOVE = 30  # longer lists are grouped
_HEADS = (", then ", " to ", " with ", " at ")


def _detail(view: JsonMapping) -> JsonMapping:
    """The typed view's ruleset part (``detail``), or nothing."""
    detail = view.get("detail")
    return detail if isinstance(detail, dict) else {}


def _card(view: JsonMapping, card_id: object) -> JsonMapping | None:
    """The card ``card_id`` of the view's ruleset part, when it has cards."""
    cards = _detail(view).get("cards")
    card = cards.get(card_id) if isinstance(cards, dict) and isinstance(card_id, str) else None
    return card if isinstance(card, dict) else None


def card_note(view: JsonMapping, card_id: object) -> str:
    """A card's numbers from the seat's view: ``init +1, defense +1; move 4, attack 6`` (WH-05)."""
    card = _card(view, card_id)
    if card is None:
        return ""
    above = [f"init {card.get('init', 0):+d}", f"defense {card.get('defense', 0):+d}"]
    above += [f"{k} defense {v:+d}" for k, v in as_object(card.get("defenses") or {}).items()]
    below = []
    for node in map(as_object, as_list(card.get("below") or [])):
        number = next(
            (node[k] for k in ("attack", "distance", "amount", "poise") if isinstance(node.get(k), int)), None
        )
        below.append(f"{node.get('type')}{'' if number is None else f' {number}'}")
    return ", ".join(above) + ("; " + ", ".join(below) if below else "")


def _card_name(view: JsonMapping, card_id: object) -> str:
    card = _card(view, card_id)
    return str(card.get("name") or card_id) if card is not None else str(card_id)


def _note_parts(spec: ActionSpec, view: JsonMapping) -> list[str]:
    """A choice's notes (its odds hint among them), then the numbers of every card it places: a combo's both
    cards, each named (WH-05)."""
    card, cards = spec.action.get("card"), spec.action.get("cards")
    placed = [card] if card is not None else (list(cards) if isinstance(cards, list) else [])
    numbers = [(c, card_note(view, c)) for c in placed]
    if len(placed) > 1:
        return [*spec.notes, *(f"{_card_name(view, c)}: {n}" for c, n in numbers if n)]
    return [*spec.notes, *(n for _, n in numbers if n)]


def _notes(spec: ActionSpec, view: JsonMapping) -> str:
    return "; ".join(_note_parts(spec, view))


def _group_notes(items: list[tuple[int, str, ActionSpec]], view: JsonMapping) -> str:
    """The notes of a grouped row: what every choice in it shares, once, then each choice's own by its number,
    so that no choice's notes (an odds hint, a card's numbers) are dropped."""
    parts = [_note_parts(spec, view) for _, _, spec in items]
    common = [p for p in parts[0] if all(p in q for q in parts[1:])]
    own = [
        f"{i}: {'; '.join(x for x in q if x not in common)}"
        for (i, _, _), q in zip(items, parts, strict=True)
        if any(x not in common for x in q)
    ]
    return "; ".join(x for x in ("; ".join(common), " · ".join(own)) if x)


def _split(label: str) -> tuple[str, str]:
    for sep in _HEADS:
        at = label.find(sep)
        if at > 0:
            return label[: at + len(sep)].rstrip(), label[at + len(sep) :]
    return label, ""


def choice_table(specs: list[ActionSpec], title: str, view: JsonMapping) -> Table:
    """The legal actions, numbered from 1; grouped by their head when there are more than :data:`GROUP_ABOVE`."""
    table = Table(title=title, show_lines=False, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("action")
    table.add_column("notes", style="magenta")
    if len(specs) <= GROUP_ABOVE:
        for i, spec in enumerate(specs, 1):
            table.add_row(str(i), escape(spec.label), escape(_notes(spec, view)))
        return table
    groups: dict[str, list[tuple[int, str, ActionSpec]]] = {}
    for i, spec in enumerate(specs, 1):
        head, rest = _split(spec.label)
        groups.setdefault(head, []).append((i, rest, spec))
    for head, items in groups.items():
        if len(items) == 1 or not all(rest for _, rest, _ in items):
            for i, _, spec in items:
                table.add_row(str(i), escape(spec.label), escape(_notes(spec, view)))
            continue
        contiguous = items[-1][0] - items[0][0] == len(items) - 1
        numbers = f"{items[0][0]}{'–' if contiguous else '…'}{items[-1][0]}"
        listed = " · ".join(f"{i} {rest}" for i, rest, _ in items)
        table.add_row(numbers, f"[bold]{escape(head)}[/] {escape(listed)}", escape(_group_notes(items, view)))
    return table


class LineReader:
    """Lines from standard input, with an optional time limit (for the Drama Timer).

    Reads the file descriptor itself so that ``select`` sees every byte not yet returned; without a descriptor
    (input replaced in tests) it falls back to ``input()`` and no time limit.
    """

    def __init__(self) -> None:
        self.buffer = b""
        try:
            self.fd: int | None = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def read(self, prompt: str, seconds: float | None = None) -> str | None:
        """A line (without its newline); ``None`` if ``seconds`` passed first. ``EOFError`` at the end."""
        console.print(prompt, end="")
        sys.stdout.flush()
        if self.fd is None:
            return input()
        deadline = None if seconds is None else time.monotonic() + max(0.0, seconds)
        while b"\n" not in self.buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                console.print()
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                if not self.buffer:
                    raise EOFError
                chunk = b"\n"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")


class Terminal:
    """The seat's turns at the terminal; ``stopped`` says why it declined to go on (``quit``, ``input ended``)."""

    def __init__(self, match: Match, seat: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.match, self.seat, self.shown = match, seat, len(list(match.events()))
        self.stopped: str | None = None
        self.waiting: str | None = None
        self.reader = LineReader()
        self.clock = clock
        self.timer: tuple[int, float] | None = None  # (round, when its Planning clock started)

    def catch_up(self) -> None:
        """Narrate what happened since the last prompt, as this seat may see it (contract 6)."""
        events = list(self.match.events())
        narrate(events[self.shown :], self.match, self.match.viewer(self.seat))
        self.shown = len(events)

    def _resolve(self, line: str, specs: list[ActionSpec]) -> Action | str:
        if line.isdigit():
            index = int(line)
            return specs[index - 1].action if 1 <= index <= len(specs) else f"choose 1 to {len(specs)}"
        if line.startswith("{"):
            try:
                action = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as exc:
                return f"that is not JSON ({getattr(exc, 'msg', 'nested too deeply')})"
            return action if isinstance(action, dict) else "a JSON action is an object"
        matches = [s for s in specs if s.label.lower().startswith(line.lower())]
        if len(matches) == 1:
            return matches[0].action
        return "no action starts like that" if not matches else f"{len(matches)} actions start like that"

    def _time_left(self, view: JsonMapping) -> float | None:
        """Seconds left on the Drama Timer (WH-B20), or ``None`` if no clock runs for this prompt."""
        timer = _detail(view).get("drama_timer")  # the typed view's ruleset part, when it has a clock
        if not isinstance(timer, dict) or not timer.get("running"):
            return None
        round_no = self.match.rounds()
        if self.timer is None or self.timer[0] != round_no:
            self.timer = (round_no, self.clock())
        return as_number(timer.get("seconds", 0)) - (self.clock() - self.timer[1])

    def _call_time(self) -> Action:
        console.print("[bold red]The Drama Timer runs out![/] Unfilled slots get the default card (WH-B20).")
        self.match.submit(GM, GM, {"type": "timeout"})
        return {"type": "timeout"}

    def __call__(self, match: Match, actor: str) -> Action | None:
        if match.seats.get(actor) != self.seat:  # another seat's person (the GM's ruling, say) must act
            self.waiting = actor
            return None
        self.catch_up()
        specs = match.legal(actor)
        window = match.pending()
        name = match.names().get(actor, actor)
        view = match.view_json(self.seat)
        odds = hints(match.plugin, match.view(self.seat), actor, specs)
        shown = [
            ActionSpec(s.action, s.label, (*s.notes, o) if o else s.notes) for s, o in zip(specs, odds, strict=True)
        ]
        console.print(choice_table(shown, f"{escape(name)} — {escape(window.prompt if window else '')}", view))
        return self._ask(match, actor, specs, view)

    def _ask(self, match: Match, actor: str, specs: list[ActionSpec], view: JsonMapping) -> Action | None:
        name = escape(match.names().get(actor, actor))
        while True:
            left = self._time_left(view)
            if left is not None and left <= 0:
                return self._call_time()
            clock = "" if left is None else f"[yellow]⏱ {int(left)}s[/] "
            try:
                line = self.reader.read(f"{clock}[bold]{name}>[/] ", left)
            except EOFError:
                self.stopped = "input ended"
                return None
            if line is None:
                return self._call_time()
            action = self._command(match, actor, line.strip(), specs)
            if action is not None:
                return action
            if self.stopped:
                return None

    def _command(self, match: Match, actor: str, line: str, specs: list[ActionSpec]) -> Action | None:
        """One line typed at the prompt: an action (submitted), or a command answered here (``None``)."""
        if line in ("q", "quit", "exit"):
            self.stopped = "quit"
            return None
        if line in ("", "?", "help"):
            console.print(HELP)
            return None
        if line == "view":
            view = match.view_json(self.seat)
            table = status_table(view)
            console.print(table if table is not None else escape(json.dumps(view, indent=1)))
            board = text_map(view)
            for row in (board or "").splitlines():  # escape() shows a newline as \x0a: print row by row
                console.print(escape(row))
            return None
        if line == "undo":
            taken = match.take_back(self.seat)
            if isinstance(taken, Rejected):
                console.print(f"[red]{escape(taken.code)}[/]: {escape(taken.message)}")
                return None
            console.print("[yellow]Undone: your last action is taken back (the log keeps the record).[/]")
            self.shown = len(list(match.events()))
            return {"type": "undo"}
        choice = self._resolve(line, specs)
        if isinstance(choice, str):
            console.print(f"[red]{escape(choice)}.[/] {HELP}")
            return None
        result = match.submit(self.seat, actor, choice)
        if isinstance(result, Rejected):
            console.print(f"[red]{escape(result.code)}[/]: {escape(result.message)}")
            return None
        return choice
