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


#: A ruleset's name as a word of letters (``WitchHammer``, ``Sim HuD``, ``warp_app``, in code, strings or comments).
RULESET_NAME = re.compile(r"(?<![a-z])(hud|warp|spellchrome|witchhammer)(?![a-z])", re.IGNORECASE)


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
            found = RULESET_NAME.search(line)
            assert found is None, f"{path}:{number} names the ruleset '{found.group()}': {line.strip()}"
