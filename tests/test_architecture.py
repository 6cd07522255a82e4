"""docs/architecture.md, "Files, threads, processes and clocks, layer by layer", is true: the modules its table names
in a layer's cell are the only ones of that layer that do that kind of thing, and each of them still does.

The table is the one list: this test parses it, so the page and the code cannot drift apart. What counts (found in
each module's syntax tree, not by running it):

- file I/O: ``open(...)``; a path's ``read_text``, ``write_text``, ``read_bytes``, ``write_bytes``, ``mkdir``,
  ``unlink``, ``rglob``, ``glob``, ``iterdir``, ``touch``, ``rename``, ``rmdir``, ``savefig`` and argument-less
  ``exists``, ``is_file``, ``is_dir``, ``stat``; ``x.open("rb")`` with a file mode; ``os.open``/``read``/``write``/
  ``replace``/``fdopen``/``chmod``/``close``/``access``/``remove``; importing ``sqlite3``;
- threads: importing ``threading`` or ``asyncio``;
- processes: importing ``subprocess``, ``multiprocessing`` or ``concurrent.futures``;
- clocks: importing ``time`` or ``datetime``;
- OS: importing ``os``, ``secrets``, ``signal``, ``socket`` or ``select``.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "affray"
DOC = ROOT / "docs" / "architecture.md"
SECTION = "## Files, threads, processes and clocks, layer by layer"
CLAIM = f'docs/architecture.md, "{SECTION.removeprefix("## ")}"'

COLUMNS = {"file I/O": "files", "threads": "threads", "processes": "processes", "clocks": "clocks", "OS": "os"}
IMPORTS = {
    "threading": "threads",
    "asyncio": "threads",
    "subprocess": "processes",
    "multiprocessing": "processes",
    "concurrent": "processes",
    "time": "clocks",
    "datetime": "clocks",
    "os": "os",
    "secrets": "os",
    "signal": "os",
    "socket": "os",
    "select": "os",
    "sqlite3": "files",
}
PATH_CALLS = {
    "read_text",
    "write_text",
    "read_bytes",
    "write_bytes",
    "mkdir",
    "unlink",
    "rglob",
    "glob",
    "iterdir",
    "touch",
    "rename",
    "rmdir",
    "savefig",
}
PATH_CHECKS = {"exists", "is_file", "is_dir", "stat"}
OS_FILE_CALLS = {"open", "read", "write", "replace", "fdopen", "chmod", "close", "access", "remove"}
FILE_MODE = re.compile(r"^[rwaxbt+]+$")
#: The layer row each top-level package or module of src/affray belongs to.
ROWS = {
    "core": "core/",
    "rulesets": "rulesets/",
    "sim": "sim/",
    "odds": "sim/",
    "ai": "sim/",
    "characters": "sim/",
    "api": "sim/",
    "store": "store/",
    "table": "table/",
    "cli": "cli/",
    "web": "cli/",
    "__init__": "cli/",
    "__main__": "cli/",
}


def effects(tree: ast.AST) -> set[str]:
    """The kinds of outside-world use in one module's syntax tree (the module docstring lists them)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {IMPORTS[a.name.split(".")[0]] for a in node.names if a.name.split(".")[0] in IMPORTS}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in IMPORTS:
                found.add(IMPORTS[top])
        elif isinstance(node, ast.Call):
            found |= call_effects(node)
    return found


def call_effects(node: ast.Call) -> set[str]:
    func = node.func
    if isinstance(func, ast.Name):
        return {"files"} if func.id == "open" else set()
    if not isinstance(func, ast.Attribute):
        return set()
    bare = not node.args and not node.keywords
    first = node.args[0] if node.args else None
    mode = isinstance(first, ast.Constant) and isinstance(first.value, str) and bool(FILE_MODE.match(first.value))
    on_os = isinstance(func.value, ast.Name) and func.value.id == "os" and func.attr in OS_FILE_CALLS
    if func.attr in PATH_CALLS or (func.attr in PATH_CHECKS and bare) or (func.attr == "open" and mode) or on_os:
        return {"files"}
    return set()


def doc_table() -> dict[str, dict[str, set[str]]]:
    """The section's table: layer row -> kind -> the modules (paths under src/affray) its cell names."""
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/architecture.md has no section '{SECTION}'"
    after = text.split(SECTION, 1)[1].splitlines()
    start = next(i for i, line in enumerate(after) if line.startswith("|"))
    lines = list(itertools.takewhile(lambda line: line.startswith("|"), after[start:]))
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header[0] == "layer" and header[1:] == list(COLUMNS), f"the table's columns are {header}"
    table: dict[str, dict[str, set[str]]] = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        row = re.findall(r"`([\w/]+/|[\w]+\.py)`", cells[0])[0]
        table[row] = {
            kind: set(re.findall(r"`([\w/]+\.py)`", cell))
            for kind, cell in zip(COLUMNS.values(), cells[1:], strict=True)
        }
    return table


MODULES = sorted(SRC.rglob("*.py"))


def row_of(path: Path) -> str:
    return ROWS[path.relative_to(SRC).with_suffix("").parts[0]]


def test_the_table_has_one_row_per_layer() -> None:
    assert sorted(doc_table()) == sorted(set(ROWS.values()))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_does_what_its_layer_row_says(path: Path) -> None:
    name = path.relative_to(SRC).as_posix()
    row = doc_table()[row_of(path)]
    does = effects(ast.parse(path.read_text(encoding="utf-8")))
    for kind, column in ((k, c) for c, k in COLUMNS.items()):
        if kind in does:
            assert name in row[kind], (
                f"{name} uses {column}, but {CLAIM} does not name it in the '{column}' "
                f"cell of row {row_of(path)}: leave that to a module the table names (files "
                f"through core/files.py), or add it to that cell with why"
            )
        else:
            assert name not in row[kind], f"{CLAIM} says {name} uses {column}, but it no longer does: take it out"


def test_every_module_the_table_names_exists_in_its_layer() -> None:
    for row, cells in doc_table().items():
        for kind, names in cells.items():
            for name in names:
                assert (SRC / name).is_file(), f"{CLAIM} names {name} ({kind}), which does not exist"
                assert row_of(SRC / name) == row, f"{CLAIM} names {name} in row {row}, but it belongs to another"


def test_effects_are_recognised() -> None:
    """The detector itself: each kind of use is found, and a look-alike is not."""
    found = effects(
        ast.parse(
            "import time\nfrom concurrent.futures import wait\nopen('x')\np.write_text('y')\n"
            "import threading\nimport secrets\n"
        )
    )
    assert found == {"clocks", "processes", "files", "threads", "os"}
    assert effects(ast.parse("Grid.open(3, 4)\nq.exists(1)\nimport affray.core.files\n")) == set()
