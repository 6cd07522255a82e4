"""The content library (docs/table.md, "The content library"): every character, monster, weapon, armour, card, trait,
technique and status of a ruleset, with its stats in words and numbers, as ``GET /api/content/RULESET`` and
``affray content show RULESET [ID]`` give it (one code for both, so they print the same words).

The words come from the ruleset's record (its ``library`` part, :mod:`affray.core.library`); the items from its
bundled content, merged with the server's own content folder (``affray serve --content DIR``, loaded once at start
by :func:`load_extra`: a broken file stops the server with the file and the field) or the command line's
``--content``. A ruleset or an id that does not exist is a :class:`~affray.table.errors.Refusal` (404) with a
sentence naming the known ones.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path

from affray.core.content import ContentError, ContentLibrary, Problem, load_pack, read_yaml, yaml_files
from affray.core.library import Entry, plain_entries
from affray.core.plugin import AnyPlugin, plugin, plugin_names
from affray.table.errors import NOT_FOUND, Refusal

#: The longest ``?q=`` a search takes (a name is shorter).
MAX_QUERY = 80


def record_of(ruleset: str) -> AnyPlugin:
    """The record of ``ruleset``; a 404 :class:`Refusal` naming the known rulesets otherwise."""
    try:
        return plugin(ruleset)
    except KeyError:
        raise Refusal(
            "unknown_ruleset",
            f"There is no ruleset '{ruleset}'; known rulesets: {', '.join(plugin_names())}.",
            NOT_FOUND,
        ) from None


def library_of(record: AnyPlugin, extra: Mapping[str, ContentLibrary] | None = None) -> ContentLibrary:
    """The ruleset's content: its bundled library, or the one merged with extra content (:func:`load_extra`)."""
    merged = (extra or {}).get(record.name)
    return merged if merged is not None else record.ruleset().content()


def entries(ruleset: str, extra: Mapping[str, ContentLibrary] | None = None, query: str | None = None) -> list[Entry]:
    """Every item of ``ruleset``'s content (with ``extra``'s), characters and monsters first, then by kind and name;
    ``query``: only those whose name or id holds it (case and accents as typed, spaces ignored at the ends)."""
    record = record_of(ruleset)
    library = library_of(record, extra)
    describer = record.library() if record.library is not None else plain_entries
    found = describer(library)
    wanted = (query or "").strip().casefold()[:MAX_QUERY]
    if wanted:
        found = [e for e in found if wanted in e.name.casefold() or wanted in e.id.casefold()]
    order = {"character": 0, "monster": 1}
    return sorted(found, key=lambda e: (order.get(e.kind, 2), e.kind, e.name.casefold(), e.id))


def entry(ruleset: str, item_id: str, extra: Mapping[str, ContentLibrary] | None = None) -> list[Entry]:
    """The entries called ``item_id`` (an id may name, say, both a weapon and a trait: each is listed); a 404
    :class:`Refusal` with the nearest ids otherwise."""
    every = entries(ruleset, extra)
    found = [e for e in every if e.id == item_id]
    if found:
        return found
    near = difflib.get_close_matches(item_id, sorted({e.id for e in every}), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else " (the whole library lists the ids)."
    raise Refusal("unknown_content", f"There is no '{item_id}' in the {ruleset} content{hint}", NOT_FOUND)


def as_json(ruleset: str, found: Iterable[Entry]) -> dict[str, object]:
    """The answer of ``GET /api/content/RULESET``: the ruleset and its entries."""
    items = [e.as_json() for e in found]
    return {"ruleset": ruleset, "count": len(items), "entries": items}


def load_extra(paths: Iterable[str | Path]) -> dict[str, ContentLibrary]:
    """Content files or folders for any rulesets (each file names its own), merged over each ruleset's bundled
    content: ``{ruleset: library}``. A broken file, one naming an unknown ruleset or an id used twice is a
    :class:`~affray.core.content.ContentError` naming the file and the field."""
    files: dict[str, list[Path]] = {}
    for path in paths:
        for file in yaml_files(path):
            data = read_yaml(file)
            name = data.get("ruleset") if isinstance(data, dict) else None
            if not isinstance(name, str) or name not in plugin_names():
                raise ContentError(
                    file, [Problem("ruleset", f"the name of a ruleset ({', '.join(plugin_names())}); got {name!r}")]
                )
            files.setdefault(name, []).append(file)
    out = {}
    for name, found in files.items():
        rules = plugin(name).ruleset()
        out[name] = load_pack(rules.content_type, name, found, into=rules.content().copy())
    return out
