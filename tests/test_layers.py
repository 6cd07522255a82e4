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
LAYER = {
    "core": 0,
    "rulesets": 1,
    "ai": 2,
    "odds": 2,
    "sim": 2,
    "characters": 2,
    "store": 3,
    "table": 4,
    "api": 2,
    "cli": 5,
    "web": 5,
    "__init__": 5,
    "__main__": 5,
}


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
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            assert "random" not in names, f"{path} imports random"


# -- the table, the web page and the generic tools reach rulesets only through their records ------------------------

#: The four rulesets' names as words of letters (``WaRP``, ``Sim HuD``, ``hud_place``: an underscore ends a word).
RULESET_NAMES = re.compile(r"(?<![a-z])(witchhammer|warp|spellchrome|hud)(?![a-z])", re.IGNORECASE)
EDGES = ("table", "web", "sim", "odds")
EDGE_MODULES = sorted(p for folder in EDGES for p in (SRC / folder).rglob("*.py"))
PAGE_SCRIPTS = sorted((SRC / "web" / "static").glob("*.js"))  # the page's own modules, not vendor/
#: The one exception: the in-world routes also answer under this literal prefix (web/inworld.py), the name the
#: Second Life heads-up display speaks; there the word names a device a player wears, not the ruleset. Only this
#: exact text in web/'s Python modules is let through, never the word alone or in any other form.
DEVICE_ROUTE = "/api/hud/"


def ruleset_words(text: str, device_route: bool = False) -> list[str]:
    """The rulesets' names as words in ``text`` (``line N: word``); with ``device_route``, the literal
    :data:`DEVICE_ROUTE` aside (each replaced by a space: the words either side stay apart)."""
    if device_route:
        text = text.replace(DEVICE_ROUTE, " ")
    return [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in RULESET_NAMES.finditer(text)]


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
    named = ruleset_words(text, device_route=path.suffix == ".py" and path.parent == SRC / "web")
    assert not named, f"{path} names rulesets: {named}"


def test_only_the_literal_device_route_is_let_through() -> None:
    """The exception for web/'s in-world routes is the exact text ``/api/hud/``: the word anywhere else, another
    route spelled with it, or the prefix glued to another use of the word is still found."""
    assert ruleset_words('PREFIXES = ("/api/inworld/", "/api/hud/")', device_route=True) == []
    assert ruleset_words('"/api/hud/claim" and "/api/hud/{table_id}/act"', device_route=True) == []
    caught = [
        '"/api/hud"',  # no trailing slash: not the literal prefix
        '"/api/hud_table/"',
        '"/api/HUD/claim"',
        "/api/hud/hud",
        "the HuD's dice",
        'plugin("hud")',
        "/api/tables/hud/",
    ]
    for text in caught:
        assert ruleset_words(text, device_route=True), text
    assert ruleset_words('"/api/hud/claim"') == ["line 1: hud"]  # outside web/'s modules: no exception


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


# -- one room, one responsibility: no circle inside a package, no private name read across table/'s modules -----------


def module_name(path: Path) -> str:
    """``affray.table.ledger`` for src/affray/table/ledger.py, ``affray.table`` for its ``__init__``."""
    parts = ["affray", *package_of(path)]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


NAMES = {module_name(path): path for path in MODULES}


def type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import statements under ``if TYPE_CHECKING:`` in ``tree``."""
    return {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        for statement in block.body
        for node in ast.walk(statement)
    }


def every_import(path: Path, *, type_only: bool = False) -> set[str]:
    """The affray modules ``path`` imports: by its import statements at module level and inside functions alike,
    and with ``type_only`` also those under ``if TYPE_CHECKING:``. ``from affray.table import gm`` names the module
    ``affray.table.gm``, ``from affray.table import Refusal`` the package's ``__init__`` (``affray.table``).

    Why an import inside a function counts: it still needs the other module whenever it runs, and is how a circle
    hides (``table/``'s imports of the service, of ``gm`` and of ``opening`` were there because the circle was).
    Why one under TYPE_CHECKING does not, in general: it is never executed; it names a type for an annotation, the
    usual way two modules' types refer to each other. ``table/`` is held to both
    (:func:`test_the_table_has_no_circle_even_by_type_and_no_room_takes_the_service`)."""
    me = module_name(path)
    tree = ast.parse(path.read_text())
    skipped = set() if type_only else type_checking_only(tree)
    out = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in NAMES}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                out |= {submodule} if submodule in NAMES else {node.module} if node.module in NAMES else set()
    return out - {me}


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def package_circles(package: str | None = None, *, type_only: bool = False) -> list[set[str]]:
    """The import circles inside each package of src/affray (``core``, ``table``, ``rulesets`` with its
    sub-packages...), or inside ``package`` only: edges between modules of one package (across packages,
    :func:`test_imports_point_down` holds)."""

    def top(name: str) -> str:
        return name.split(".")[1] if "." in name else name

    graph = {
        name: {t for t in every_import(path, type_only=type_only) if top(t) == top(name)}
        for name, path in NAMES.items()
        if package in (None, top(name))
    }
    return circles(graph)


#: Circles outside ``table/`` that were there when this check came, each to be broken in its own package's work:
#: the HuD pursuit and its nerdified rules call each other. A circle found must lie inside one of these; a new one
#: fails. Shrink this list as they go; never grow it.
KNOWN_CIRCLES = [
    {"affray.rulesets.hud.nerdified", "affray.rulesets.hud.pursuit"},
]


def test_no_import_circle_inside_a_package() -> None:
    """Modules of one package import each other one way only, counting imports inside functions
    (:func:`every_import`): a room can be read, tested and changed from the bottom up."""
    new = [sorted(c) for c in package_circles() if not any(c <= known for known in KNOWN_CIRCLES)]
    assert not new, f"import circles inside a package: {new}"


def test_the_table_has_no_circle_even_by_type_and_no_room_takes_the_service() -> None:
    """Inside ``table/`` not even a type-only import closes a circle, and no module but the facade
    (``service.py``) and the package's ``__init__`` names ``TableService``: each room takes the narrow object it needs
    (the ledger, the registry, the audience, a table), never the whole service."""
    assert package_circles("table", type_only=True) == []
    for path in sorted((SRC / "table").glob("*.py")):
        if path.name in ("service.py", "__init__.py"):
            continue
        names = [
            node
            for node in ast.walk(ast.parse(path.read_text()))
            if (isinstance(node, ast.Name) and node.id == "TableService")
            or (isinstance(node, ast.alias) and node.name == "TableService")
            or (isinstance(node, ast.Attribute) and node.attr == "TableService")
        ]
        assert not names, f"{path.name} takes the table service: give it the narrow object it needs"


def private_reads(path: Path) -> list[str]:
    """Where ``path`` reads a private name of another object or module: ``x._name`` for any ``x`` but ``self`` and
    ``cls``, and ``from m import _name`` (dunders are Python's, not private)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            found += [
                f"{path.name}:{node.lineno}: from {node.module} import {a.name}"
                for a in node.names
                if a.name.startswith("_") and not a.name.startswith("__")
            ]
    return found


def test_no_module_of_the_table_reads_another_s_private_name() -> None:
    """Each piece of ``table/`` uses the others through their public names only (the ledger's ``commit``, the
    registry's ``lock``...), never their underscored insides: what a module keeps private it may change alone."""
    found = [hit for path in sorted((SRC / "table").glob("*.py")) for hit in private_reads(path)]
    assert not found, "private names read across table/'s modules:\n" + "\n".join(found)


# -- a match carries its plug-in record: the registry's look-up by name only at the edges ---------------------------

#: The look-ups of a ruleset's record by name: :func:`affray.core.plugin.plugin` and
#: :func:`~affray.core.plugin.get_ruleset` (its rules). A match carries its record (``Match.plugin``), so whatever
#: works on a match takes the part it needs from there; a look-up by name is for where a name comes in from outside.
LOOK_UPS = {"plugin", "get_ruleset"}

#: The modules that may look a record up by name, each with where its name comes from. Every other module takes the
#: record it is handed.
NAME_EDGES = {
    "core/plugin.py": "the registry itself (get_ruleset, and rules_changed for a version a log or a row records)",
    "core/log.py": "a log names its ruleset (import_log, verify)",
    "api.py": "a scenario file, or the mapping a caller hands scenario_from_data, names its ruleset",
    "characters/sheet.py": "a character sheet file names its ruleset; `affray character` commands name one",
    "ai/base.py": "a policy named with its ruleset's name by a library caller (get_policy('warp', 'heuristic'))",
    "ai/search.py": "SearchPolicy('hud') from a library caller or a bench",
    "sim/runner.py": "a chunk's spec crosses to a worker process as plain data, its ruleset by name",
    "sim/sweep.py": "a sweep reads a scenario file's data, which names its ruleset, before it is checked",
    "cli/main.py": "a command-line argument names the ruleset (`affray options RULESET`)",
    "cli/content_list.py": "a command-line argument names the ruleset (`affray content list RULESET`)",
    "cli/schema.py": "a command-line argument names the ruleset (`affray schema ... RULESET`)",
    "cli/checks.py": "a content or sheet file named on the command line names its ruleset (`affray content check`)",
    "cli/odds.py": "a command-line argument names the ruleset (`affray odds RULESET CHECK`)",
    "cli/character_ops.py": "the command line lists every ruleset's sheet operations by name",
    "cli/character_new.py": "a command-line argument names the ruleset (`affray character new RULESET`)",
    "web/pages.py": "a URL names the ruleset (GET /api/rulesets/NAME)",
    "table/examples.py": "the lobby names an example as RULESET/NAME",
    "table/restore.py": "a stored table row names its ruleset",
    "table/library.py": "a URL or a command-line argument names the ruleset (GET /api/content/NAME, content show)",
    "table/odds_job.py": "an odds job crosses to its worker process as plain data, its ruleset by name",
}


def look_ups_by_name(source: str) -> list[str]:
    """``line N: plugin(...)`` for every call of a look-up by name in the Python ``source`` (``plugin(x)``,
    ``affray.get_ruleset(x)`` alike), found in the syntax tree, so a comment or a docstring that shows one does not
    count."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = (
                node.func.id
                if isinstance(node.func, ast.Name)
                else (node.func.attr if isinstance(node.func, ast.Attribute) else "")
            )
            if name in LOOK_UPS:
                found.append((node.lineno, f"line {node.lineno}: {ast.unparse(node)}"))
    return [hit for _, hit in sorted(found)]


def test_the_look_up_walk_finds_calls_not_words() -> None:
    source = 'x = plugin(name).sheet\n"""plugin(name) in a docstring"""\ny = affray.get_ruleset(n)  # plugin(n)\n'
    assert [hit.split(":")[0] for hit in look_ups_by_name(source)] == ["line 1", "line 3"]


def test_a_record_is_looked_up_by_name_only_where_a_name_comes_in_from_outside() -> None:
    """Below the edges a module takes the plug-in record it is handed: the match's (``Match.plugin``: its narrator,
    adjuster, hints, countdown, policies), a scenario's (``Scenario.plugin``), never ``plugin(match.ruleset.name)``.
    :data:`NAME_EDGES` lists the modules where a name comes in from outside, with where from."""
    assert all((SRC / edge).is_file() for edge in NAME_EDGES), "an edge module was moved: update NAME_EDGES"
    found = {str(path.relative_to(SRC)): hits for path in MODULES if (hits := look_ups_by_name(path.read_text()))}
    below = {module: hits for module, hits in found.items() if module not in NAME_EDGES}
    assert not below, f"records looked up by name below the edges (take the one the match carries): {below}"


def test_the_engine_imports_no_registry() -> None:
    """``core/engine.py`` is the ruleset contract; the registry (``core/plugin.py``) sits above it and imports it,
    never the other way (any import counts: at module level, under TYPE_CHECKING, inside a function)."""
    assert "affray.core.plugin" not in imports_of(SRC / "core" / "engine.py")


def test_every_match_is_built_from_a_record() -> None:
    """A ``Match`` built from a ruleset alone holds a record of its rules only (no narrator, no GM rulings), so
    ``src/`` builds every match from a record: never ``Match(x.ruleset, ...)`` nor ``Match(get_ruleset(...), ...)``."""
    bad = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            builds = (isinstance(func, ast.Name) and func.id == "Match") or (
                isinstance(func, ast.Attribute)
                and func.attr == "restore"
                and isinstance(func.value, ast.Name)
                and func.value.id == "Match"
            )
            first = node.args[0]
            alone = (isinstance(first, ast.Attribute) and first.attr == "ruleset") or (
                isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id == "get_ruleset"
            )
            if builds and alone:
                bad.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert not bad, f"matches built from a ruleset alone: {bad}"


# -- one layout for every ruleset: the same module names for the same concerns ----------------------------------------

#: The modules every ruleset folder has, one concern each (docs/architecture.md, "Adding a ruleset"). How an action
#: plays out is in modules named from each ruleset's rules text (``vignette.py``, ``nerdified.py``...), not here.
RULESET_MODULES = (
    "state",
    "setup",
    "options",
    "content_model",
    "mechanics",
    "actions",
    "legal",
    "views",
    "events",
    "narration",
    "observe",
    "policies",
    "odds",
    "hints",
    "adjust",
    "sample",
    "plugin",
    "ruleset",
)


def missing_modules(folder: Path) -> list[str]:
    """The modules of :data:`RULESET_MODULES` the ruleset ``folder`` lacks."""
    return [name for name in RULESET_MODULES if not (folder / f"{name}.py").is_file()]


def test_every_ruleset_has_the_same_modules_for_the_same_concerns(tmp_path: Path) -> None:
    """Each folder under ``rulesets/`` has the modules of :data:`RULESET_MODULES` (state, setup, actions, legal,
    views...): whoever knows one ruleset finds the same concern under the same name in the others. The check
    itself catches a folder with one missing."""
    folders = sorted(p for p in (SRC / "rulesets").iterdir() if (p / "__init__.py").is_file())
    assert len(folders) >= 4
    missing = {folder.name: lacks for folder in folders if (lacks := missing_modules(folder))}
    assert not missing, f"rulesets missing modules of the common layout: {missing}"
    for name in RULESET_MODULES:
        (tmp_path / f"{name}.py").touch()
    (tmp_path / "legal.py").unlink()
    assert missing_modules(tmp_path) == ["legal"]
