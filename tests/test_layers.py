"""The architecture contract's layers (DESIGN.md, docs/architecture.md): imports point down only.

cli/web -> table -> store -> sim/odds/ai/characters -> rulesets -> core. A ruleset's rules import core, never
another ruleset; core imports nothing above it; nothing below the CLI imports the CLI.

A ruleset's folder also holds its *extensions* (policies, odds, hints, duel model, sheets, builder, batch path and
the plug-in record, docs/architecture.md). They sit at the tools' layer: they may use the generic tools
(``affray.odds``, ``affray.characters``, ``affray.sim``) and their own rules; the generic tools never import a ruleset
(they reach it through the plug-in record), and the rules never import their extensions.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "affray"
LAYER = {"core": 0, "rulesets": 1, "ai": 2, "odds": 2, "sim": 2, "characters": 2, "store": 3, "table": 4,
         "api": 2, "cli": 5, "web": 5, "__init__": 5, "__main__": 5}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("affray"):
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("affray")}
    return out


def package_of(path: Path) -> list[str]:
    return list(path.relative_to(SRC).with_suffix("").parts)


MODULES = sorted(SRC.rglob("*.py"))
EXTENSIONS = {"policies", "odds", "duel", "hints", "sheet", "builder", "batch", "plugin", "characters"}
TOOLS = {"ai", "odds", "sim", "characters", "api"}


def is_extension(parts: list[str]) -> bool:
    """``rulesets/<name>/<extension>...`` (the package ``__init__`` re-exports its record, so it counts too)."""
    return len(parts) > 2 and parts[0] == "rulesets" and parts[2] in EXTENSIONS | {"__init__"}


def test_generic_tools_never_import_a_ruleset() -> None:
    for path in MODULES:
        parts = package_of(path)
        if parts[0] in TOOLS:
            bad = [m for m in imports_of(path) if m.startswith("affray.rulesets.")]
            assert not bad, f"{path} imports {bad}: reach a ruleset through its plug-in record"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_point_down(path: Path) -> None:
    parts = package_of(path)
    extension = is_extension(parts)
    mine = 2 if extension else LAYER[parts[0]]
    for module in imports_of(path):
        target = module.split(".")[1:] or ["__init__"]
        theirs = LAYER.get(target[0], 5)
        if target[0] == parts[0]:
            if parts[0] == "rulesets" and len(parts) > 1 and len(target) > 1 and parts[1] != "__init__":
                assert target[1] == parts[1], f"{path}: a ruleset imports another ruleset ({module})"
                if not extension and len(target) > 2:
                    assert target[2] not in EXTENSIONS, f"{path}: rules import their extension {module}"
            continue
        assert theirs <= mine, f"{path} (layer {parts[0]}) imports {module} from a higher layer"


def test_rules_never_use_global_randomness() -> None:
    """Contract 5: rules receive an RNG; only core/rng.py may touch the random module."""
    for path in MODULES:
        if path.name == "rng.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert "random" not in names, f"{path} imports random"


# -- the table, the web page and the generic tools reach rulesets only through their records ------------------------

#: The four rulesets' names as words of letters (``WaRP``, ``Sim HuD``, ``hud_place``: an underscore ends a word).
RULESET_NAMES = re.compile(r"(?<![a-z])(witchhammer|warp|spellchrome|hud)(?![a-z])", re.IGNORECASE)
EDGES = ("table", "web", "sim", "odds")
EDGE_MODULES = sorted(p for folder in EDGES for p in (SRC / folder).rglob("*.py"))
PAGE_SCRIPTS = sorted((SRC / "web" / "static").glob("*.js"))  # the page's own modules, not vendor/


@pytest.mark.parametrize("path", [*EDGE_MODULES, *PAGE_SCRIPTS], ids=lambda p: str(p.relative_to(SRC)))
def test_the_server_and_the_page_name_no_ruleset(path: Path) -> None:
    """The table, the web server and page, the simulation and the odds tools know no ruleset: no import of
    ``affray.rulesets.``, no ruleset's name as a word (strings and comments included). What they need of a
    ruleset (its panels, its GM countdown, its examples, its odds) comes from its plug-in record and its views."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        bad = sorted(m for m in imports_of(path) if m.startswith("affray.rulesets"))
        assert not bad, f"{path} imports {bad}: reach a ruleset through its plug-in record"
    assert "affray.rulesets" not in text, f"{path} names a ruleset's module (an import by name is an import too)"
    named = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in RULESET_NAMES.finditer(text)]
    assert not named, f"{path} names rulesets: {named}"


def test_the_cli_reaches_rulesets_only_through_the_plugin_record() -> None:
    """The command line names no ruleset: no module of ``cli/`` imports ``affray.rulesets`` (the package's own
    ``__init__`` registers them) or names one of the four, anywhere in its text; help texts list the registered
    names at run time, and checks and sheet operations come from the plug-in record's declarations."""
    modules = sorted((SRC / "cli").rglob("*.py"))
    assert modules
    for path in modules:
        bad = [m for m in imports_of(path) if m == "affray.rulesets" or m.startswith("affray.rulesets.")]
        assert not bad, f"{path} imports {bad}: reach a ruleset through its plug-in record"
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found = RULESET_NAMES.search(line)
            assert found is None, f"{path}:{number} names the ruleset '{found.group()}': {line.strip()}"


# -- the page decides on codes, never on a ruleset's words ------------------------------------------------------------

@pytest.mark.parametrize("path", PAGE_SCRIPTS, ids=lambda p: str(p.relative_to(SRC)))
def test_the_page_decides_on_codes_not_on_a_ruleset_s_words(path: Path) -> None:
    """No page script matches a ruleset's wording (a regex literal or a text search on words of the rulesets'
    notes, labels and narration, tests/page_words.py): it decides on codes, a listed action's ``warnings``
    (``provokes``...) and the views' fields, since a ruleset may reword a sentence at any time."""
    from tests.page_words import wording_matches

    found = wording_matches(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name} decides on a ruleset's words (decide on a code): {found}"
