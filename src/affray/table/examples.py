"""The example scenarios a table can be opened from, by name: each registered ruleset's own (its record's
``examples``: a folder, or a list of scenario files) and those of a folder the server was given (``affray serve
--examples``). A ruleset registered in code (:func:`affray.core.plugin.register`) brings its examples with it.

An example's name is ``<ruleset>/<path below the record's folder, without .yaml>`` (a listed file: ``<ruleset>/<its
stem>``), so the built-in ``examples/<ruleset>/`` folders keep their names (``RULESET/mill_ambush``); a file of the
server's folder is named by its path below that folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from affray.core.plugin import Plugin, plugin, plugin_names

EXAMPLE_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+){0,4}$")


def _folder(root: Path, prefix: str) -> dict[str, Path]:
    out = {}
    for path in sorted(root.rglob("*.yaml")):
        name = prefix + path.relative_to(root).with_suffix("").as_posix()
        if EXAMPLE_NAME.match(name):
            out[name] = path
    return out


def record_examples(record: Plugin) -> dict[str, Path]:
    """The examples a ruleset's record names, by name (none when it names none)."""
    if record.examples is None:
        return {}
    found = record.examples()
    if isinstance(found, Path):
        return _folder(found, f"{record.name}/") if found.is_dir() else {}
    named = {f"{record.name}/{Path(p).stem}": Path(p) for p in found}
    return {name: path for name, path in named.items() if EXAMPLE_NAME.match(name)}


def catalogue(extra: Path | None = None) -> dict[str, Path]:
    """Every example by name: each registered ruleset's, then the server folder's ``extra`` (which wins a name
    both have)."""
    out: dict[str, Path] = {}
    for name in plugin_names():
        out.update(record_examples(plugin(name)))
    if extra is not None and extra.is_dir():
        out.update(_folder(extra, ""))
    return out


def example_path(name: str, extra: Path | None = None) -> Path | None:
    """The file of the example ``name`` (``None`` if there is none): the server folder's, else its ruleset's."""
    if not EXAMPLE_NAME.match(name):
        return None
    if extra is not None and (extra / f"{name}.yaml").is_file():
        return extra / f"{name}.yaml"
    ruleset = name.partition("/")[0]
    return record_examples(plugin(ruleset)).get(name) if ruleset in plugin_names() else None


def shown_path(path: str, extra: Path | None = None) -> str:
    """A file's path as an answer may show it: below the folder that holds the examples (never a server path)."""
    roots = [extra] if extra is not None else []
    for name in plugin_names():
        record = plugin(name)
        found = record.examples() if record.examples is not None else None
        roots += [found.parent] if isinstance(found, Path) else [Path(p).parent for p in found or ()]
    for root in roots:
        prefix = str(root.resolve()) + "/"
        if path.startswith(prefix):
            return path.removeprefix(prefix)
    return Path(path).name if Path(path).is_absolute() else path
