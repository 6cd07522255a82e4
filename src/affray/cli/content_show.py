"""``affray content show RULESET [ID]``: the content library with its numbers, in the words ``GET /api/content/RULESET``
answers (one code for both: :mod:`affray.table.library`). A line per entry: its kind, its id (what a scenario's
``use:`` or a sheet names) and its summary.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from affray.cli.render import CliError
from affray.core.content import ContentError
from affray.core.library import Entry
from affray.table import library
from affray.table.errors import Refusal


def found(ruleset: str, item_id: str | None, query: str | None, extra: Sequence[Path]) -> list[Entry]:
    """The entries to show; an unknown ruleset or id, or a broken ``--content`` file, is a :class:`CliError`
    (exit 2) with the server's sentence."""
    try:
        content = library.load_extra(extra) if extra else None
        if item_id is not None:
            return library.entry(ruleset, item_id, content)
        return library.entries(ruleset, content, query)
    except Refusal as exc:
        raise CliError(exc.message) from None
    except ContentError as exc:
        raise CliError(str(exc)) from None


def show(ruleset: str, entries: Sequence[Entry], as_json: bool) -> None:
    """Print ``entries``: one JSON object (the API's answer) or a line each (plain text: no markup, no wrapping,
    so the words are the API's to the character)."""
    if as_json:
        print(json.dumps(library.as_json(ruleset, entries), ensure_ascii=False))
        return
    if not entries:
        print("nothing matches")
    for entry in entries:
        print(f"{entry.kind} {entry.id}: {entry.summary}")
