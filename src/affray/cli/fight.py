"""``affray fight``: run a scenario, narrated, with policies and optionally a person at the keyboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from affray.ai.runner import play
from affray.api import load_scenario
from affray.cli.render import CliError, console, escape, legal_table, narrate, status_table
from affray.core.engine import Action, ActionSpec, Rejected
from affray.core.events import to_jsonable
from affray.core.log import export_log, write_log
from affray.core.match import Match
from affray.odds.hints import hints

HELP = "Type a number, the start of an action's name, a JSON action, 'view', 'undo' or 'quit'."


def parse_overrides(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise CliError(f"--policy expects SIDE=NAME (or COMBATANT=NAME), got '{pair}'")
        key, name = pair.split("=", 1)
        out[key.strip()] = name.strip()
    return out


class Terminal:
    """A person playing one seat at the terminal (``--play SEAT``)."""

    def __init__(self, match: Match, seat: str) -> None:
        self.match, self.seat, self.shown = match, seat, 0

    def catch_up(self) -> None:
        """Narrate what happened since the last prompt, as this seat may see it (contract 6)."""
        events = list(self.match.events())
        viewer = self.match.viewer(self.seat)
        visible = [e for e in events[self.shown:]
                   if (audience := e.audience()) is None or viewer.omniscient or audience & viewer.controls]
        narrate(visible, self.match.names())
        self.shown = len(events)

    def _resolve(self, line: str, specs: list[ActionSpec]) -> Action | str:
        if line.isdigit():
            index = int(line)
            return specs[index - 1].action if 1 <= index <= len(specs) else f"choose 1 to {len(specs)}"
        if line.startswith("{"):
            try:
                action = json.loads(line)
            except json.JSONDecodeError as exc:
                return f"that is not JSON ({exc.msg})"
            return action if isinstance(action, dict) else "a JSON action is an object"
        matches = [s for s in specs if s.label.lower().startswith(line.lower())]
        if len(matches) == 1:
            return matches[0].action
        return "no action starts like that" if not matches else f"{len(matches)} actions start like that"

    def __call__(self, match: Match, actor: str) -> Action | None:
        self.catch_up()
        specs = match.legal(actor)
        window = match.pending()
        name = match.names().get(actor, actor)
        odds = hints(match.ruleset.name, match.view(self.seat), actor, specs)
        shown = [ActionSpec(s.action, s.label, (*s.notes, o) if o else s.notes)
                 for s, o in zip(specs, odds, strict=True)]
        console.print(legal_table(shown, f"{escape(name)} — {window.prompt if window else ''}"))
        while True:
            try:
                line = console.input(f"[bold]{escape(name)}>[/] ").strip()
            except EOFError:
                return None
            if line in ("q", "quit", "exit"):
                return None
            if line in ("", "?", "help"):
                console.print(HELP)
                continue
            if line == "view":
                view = match.view_json(self.seat)
                table = status_table(view)
                console.print(table if table is not None else json.dumps(view, indent=1))
                continue
            if line == "undo":
                taken = match.take_back(self.seat)
                if isinstance(taken, Rejected):
                    console.print(f"[red]{taken.code}[/]: {escape(taken.message)}")
                    continue
                console.print("[yellow]Undone: your last action is taken back (the log keeps the record).[/]")
                self.shown = len(list(match.events()))
                return {"type": "undo"}
            choice = self._resolve(line, specs)
            if isinstance(choice, str):
                console.print(f"[red]{choice}.[/] {HELP}")
                continue
            result = match.submit(self.seat, actor, choice)
            if isinstance(result, Rejected):
                console.print(f"[red]{result.code}[/]: {escape(result.message)}")
                continue
            return choice


def run_fight(path: Path, seed: int | None, as_json: bool, log: Path | None, play_seat: str | None,
              policies: list[str]) -> dict[str, Any]:
    scenario = load_scenario(path)
    match = scenario.start(seed)
    overrides = parse_overrides(policies)
    if play_seat is not None:
        if play_seat not in match.seat_names():
            raise CliError(f"no seat '{play_seat}' in this scenario; seats: {', '.join(match.seat_names())}")
        for actor, seat in match.seats.items():
            if seat == play_seat:
                overrides[actor] = "human"
    try:
        chosen = scenario.policies(match, overrides)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    human = Terminal(match, play_seat) if play_seat is not None else None
    if not as_json:
        console.print(f"[bold]{escape(scenario.model.name or str(path))}[/] — {match.ruleset.title}")
        console.print(f"seed commitment: {match.commitment}")
    play(match, chosen, human=human)
    if not as_json:
        if human is not None:
            human.catch_up()
        else:
            narrate(match.events(), match.names())
    if log is not None:
        write_log(match, log)
    return summary(match)


def summary(match: Match) -> dict[str, Any]:
    data = export_log(match)
    outcome = match.outcome()
    return {
        "ruleset": match.ruleset.name, "outcome": outcome.label if outcome else None,
        "reason": outcome.reason if outcome else "stopped before the end", "rounds": match.rounds(),
        "commitment": match.commitment, "seed": data["seed"], "actions": len(match.log),
        "events": [to_jsonable(e) for e in match.events()],
    }
