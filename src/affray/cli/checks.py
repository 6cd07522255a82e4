"""``affray content check``: validate every content and scenario file under a path."""

from __future__ import annotations

from pathlib import Path

from affray.api import load_scenario
from affray.characters.sheet import check, library, parse_sheet
from affray.core.content import ContentError, ContentLibrary, Problem, read_yaml, validate, yaml_files
from affray.core.plugin import get_ruleset, plugin_names


def check_file(path: Path) -> None:
    """Validate one file as a scenario (it has ``sides``), a character sheet (``format``) or a content file."""
    data = read_yaml(path)
    if isinstance(data, dict) and "sides" in data:
        load_scenario(path)
        return
    if isinstance(data, dict) and "format" in data:  # a character sheet (docs/characters.md)
        rules, sheet = parse_sheet(data, path)
        check(rules, sheet, library(rules.ruleset), path)
        return
    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), str):
        raise ContentError(path, [Problem("ruleset", f"the name of a ruleset ({', '.join(plugin_names())})")])
    try:
        ruleset = get_ruleset(data["ruleset"])
    except KeyError as exc:
        raise ContentError(path, [Problem("ruleset", str(exc.args[0]))]) from None
    ContentLibrary(ruleset.name).add_file(validate(ruleset.content_type, data, path), path)


def check_path(path: Path) -> tuple[int, list[str]]:
    """Check every YAML file at ``path``; return the number checked and one line per problem."""
    if not path.exists():
        return 0, [f"{path}: no such file or folder"]
    checked, problems = 0, []
    for file in yaml_files(path):
        checked += 1
        try:
            check_file(file)
        except ContentError as exc:
            problems.extend(str(exc).splitlines())
    if checked == 0:
        problems.append(f"{path}: a folder with .yaml or .yml files (it has none)")
    return checked, problems
