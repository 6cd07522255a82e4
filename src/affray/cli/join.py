"""``affray join LINK``: play one seat of a remote table from the terminal (docs/table.md).

The link is the invite link the table's creator handed out (``http://HOST:PORT/t/TABLE#TOKEN``). The terminal shows
the log as the seat may see it, updated live while others act (long-polls), and when one of the seat's actors is due,
the same prompt as ``fight --play``: a number, the start of an action's name, a JSON action, ``view``, ``undo`` (a
take-back request: refused once a die was rolled or a card turned) or ``quit``. The odds hints beside the choices are
the server's (each legal entry's ``hint``, computed from this seat's own view), as at ``fight --play``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx2 as httpx

from affray.cli.render import CliError, console, escape, legal_table, narration_lines, status_table
from affray.core.engine import Action, ActionSpec
from affray.core.files import FileProblem, write_text
from affray.core.json import JsonMapping, as_list, as_object, as_str

# A GM link may carry the other seats' tokens after its own (``#TOKEN&seat=TOKEN...``): they are not this seat's.
LINK = re.compile(
    r"^(?P<server>https?://[^/#]+)/t/(?P<table>[A-Za-z0-9_-]+)#(?P<token>[A-Za-z0-9_-]+)"
    r"(&[a-z0-9_-]+=[A-Za-z0-9_-]+)*$"
)
HELP = "Type a number, the start of an action's name, a JSON action, 'view', 'undo' or 'quit'."


def parse_link(link: str) -> tuple[str, str, str]:
    found = LINK.match(link.strip())
    if found is None:
        raise CliError("a table link looks like http://HOST:PORT/t/TABLE#TOKEN (quote it: '#' starts a shell comment)")
    return found["server"], found["table"], found["token"]


def join_command(link: str, log: Path | None = None) -> None:
    import httpx2 as httpx

    server, table, token = parse_link(link)
    client = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=40)
    try:
        if _play(client, table):
            _save_log(client, table, log or Path(f"affray-{table}.json"))
    except httpx.HTTPError as exc:
        raise CliError(f"lost the table server at {server}: {exc}") from None
    finally:
        client.close()


def _save_log(client: httpx.Client, table: str, path: Path) -> None:
    """After the end: the table's full log (seed revealed), written for ``affray verify`` to check."""
    answer = client.get(f"/api/tables/{table}/log")
    data = answer.json()
    if answer.status_code != 200 or not data.get("seed"):
        raise CliError(f"the server did not give the ended table's log: {data.get('message', answer.status_code)}")
    try:
        write_text(path, json.dumps(data, indent=1) + "\n")
    except FileProblem as exc:
        raise CliError(str(exc)) from None
    console.print(
        f"The table's log is saved in {escape(path)}: check every die with [bold]affray verify {escape(path)}[/]"
    )


def _get(client: httpx.Client, table: str, **params: int) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", params=params)
    data: dict[str, Any] = answer.json()
    if answer.status_code != 200:
        raise CliError(f"{data.get('code')}: {data.get('message')}")
    return data


def _play(client: httpx.Client, table: str) -> bool:
    """Play until the fight is over (True) or the person quits (False)."""
    state = _get(client, table)
    console.print(
        f"[bold]{escape(state['title'])}[/] ({state['ruleset']}) as seat {escape(state['seat'])}; seed "
        f"commitment {state['commitment']}"
    )
    _show_log(state["log"])
    while state["outcome"] is None:
        due = [(a, specs) for a, specs in state["legal"].items() if specs]
        if not due:
            state = _get(client, table, since=state["version"], timeout=25)
            _show_log(state["log"])
            continue
        actor, specs = due[0]
        if not _prompt(client, table, state, actor, specs):
            return False
        state = _get(client, table, since=state["version"], timeout=5)
        _show_log(state["log"])
    console.print(
        f"[bold]The fight is over[/]: {state['outcome']['winner'] or 'draw'} ({state['outcome']['reason']}); "
        f"the seed was {state['seed']}"
    )
    return True


def _show_log(entries: Iterable[JsonMapping]) -> None:
    """The story so far as the server tells it to this seat: each record's and each event's sentence (``text``)."""
    for entry in entries:
        for line in narration_lines(entry):
            console.print(line)


def _resolve(line: str, specs: list[ActionSpec]) -> Action | str:
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


def _prompt(client: httpx.Client, table: str, state: dict[str, Any], actor: str, raw: Iterable[JsonMapping]) -> bool:
    """Ask for ``actor``'s action and submit it; False when the person quits."""
    specs = [
        ActionSpec(
            as_object(s["action"]),
            as_str(s["label"]),
            (*map(as_str, as_list(s.get("notes", []))), *([as_str(s["hint"])] if s.get("hint") else [])),
        )
        for s in raw
    ]
    console.print(legal_table(specs, f"{escape(actor)} (version {state['version']})"))
    while True:
        try:
            line = console.input(f"[bold]{escape(actor)}>[/] ").strip()
        except EOFError:
            return False
        if line in ("q", "quit", "exit"):
            return False
        if line in ("", "?", "help"):
            console.print(HELP)
            continue
        if line == "view":
            table_view = status_table(state["view"])
            console.print(table_view if table_view is not None else json.dumps(state["view"], indent=1))
            continue
        path, body = (
            (f"/api/tables/{table}/take_back", {"version": state["version"]})
            if line == "undo"
            else (f"/api/tables/{table}/actions", None)
        )
        if body is None:
            choice = _resolve(line, specs)
            if isinstance(choice, str):
                console.print(f"[red]{choice}.[/] {HELP}")
                continue
            body = {"actor": actor, "action": choice, "version": state["version"], "id": uuid.uuid4().hex[:20]}
        answer = client.post(path, json=body)
        if answer.status_code == 200:
            return True
        refusal = answer.json()
        console.print(f"[red]{escape(str(refusal.get('code')))}[/]: {escape(str(refusal.get('message')))}")
        if refusal.get("code") == "stale_version":
            return True  # the table moved on: show it again
