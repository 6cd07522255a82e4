"""``affray content list RULESET [KIND]``: the content ids a scenario can name, with their names, so that a new user
need not read the package's YAML. ``use:`` names a character (or, where the content has them, a monster); the other
sections are named from inside a combatant's stats (its weapons, cards, traits, armour...)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from rich.table import Table

from affray.cli.render import CliError, console, escape
from affray.core.content import ContentLibrary, load_pack
from affray.core.plugin import get_ruleset, ruleset_names

#: The sections a combatant's ``use:`` may name (the others are referenced from its stats).
USE_SECTIONS = ("characters", "monsters")


def listing(ruleset: str, kind: str | None = None, extra: Iterable[Path] = ()) -> dict[str, list[dict[str, str]]]:
    """Every section of ``ruleset``'s content (or only ``kind``: a section, singular or plural) as
    ``{section: [{"id", "name"}]}``, ids sorted; ``extra``: more content files or folders. A ruleset or kind
    that does not exist is a :class:`CliError` naming the known ones."""
    try:
        rs = get_ruleset(ruleset)
    except KeyError:
        raise CliError(f"unknown ruleset '{ruleset}'; known rulesets: {', '.join(ruleset_names())}.") from None
    library: ContentLibrary = load_pack(rs.content_type, rs.name, list(extra), into=rs.content().copy())
    sections = {name: items for name, items in library.sections.items() if items}
    if kind is not None:
        section = _section(kind, list(sections))
        sections = {section: sections[section]}
    return {
        name: [{"id": item_id, "name": str(getattr(item, "name", "") or "")} for item_id, item in sorted(items.items())]
        for name, items in sections.items()
    }


def _section(kind: str, known: list[str]) -> str:
    for candidate in (kind, f"{kind}s", kind.rstrip("s")):
        if candidate in known:
            return candidate
    near = difflib.get_close_matches(kind, known, n=1, cutoff=0.6)
    hint = f"; did you mean '{near[0]}'?" if near else "."
    raise CliError(f"no content kind '{kind}'{hint} Kinds: {', '.join(known)}.")


def print_listing(ruleset: str, sections: dict[str, list[dict[str, str]]]) -> None:
    """One table per section; the sections ``use:`` names come first and say so."""
    order = sorted(sections, key=lambda s: (s not in USE_SECTIONS, s))
    for section in order:
        how = "a combatant's use: id" if section in USE_SECTIONS else "named in a combatant's stats"
        table = Table(title=f"{ruleset} {section} ({len(sections[section])}; {how})", title_justify="left")
        table.add_column("id")
        table.add_column("name")
        for row in sections[section]:
            table.add_row(escape(row["id"]), escape(row["name"]))
        console.print(table)


def as_json(ruleset: str, sections: Mapping[str, Sequence[Mapping[str, str]]]) -> dict[str, object]:
    return {"ruleset": ruleset, "use": [s for s in USE_SECTIONS if s in sections], "sections": sections}
