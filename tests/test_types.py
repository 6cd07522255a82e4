"""How much of ``src/`` is typed: the name ``Any`` is counted, and no protocol's method mentions it.

``Any`` switches the type checker off for a value. The generic layers hand a ruleset's state and setup back to the
ruleset that made them, so a registry of rulesets needs one existential alias (``AnyRuleset``); data that really is
JSON is :data:`affray.core.json.Json`; an opaque value is ``object``. The count is of ``NAME`` tokens, so comments and
docstrings that say "Any" do not count, an ``from typing import Any`` does.

A protocol is a contract between layers: a method that takes or returns ``Any`` there (directly, or through an alias
of the same module) unchecks every implementation and every caller at once.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

SRC = Path(__file__).parents[1] / "src"
LIMIT = 200


def any_names(source: str) -> int:
    """The ``NAME`` tokens equal to ``Any`` in the Python ``source``."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return sum(1 for t in tokens if t.type == tokenize.NAME and t.string == "Any")


def total_any() -> int:
    return sum(any_names(path.read_text()) for path in sorted(SRC.rglob("*.py")))


def test_the_count_is_of_names_not_words() -> None:
    """A comment, a docstring or a string saying Any is not counted; the import and the annotation are."""
    source = 'from typing import Any\n"""Any value."""\nx: dict[str, Any] = {"Any": 1}  # Any here is a word\n'
    assert any_names(source) == 2


def test_at_most_the_limit_of_any_in_src() -> None:
    """``src/`` names ``Any`` at most :data:`LIMIT` times (a value that crosses a seam keeps its type)."""
    count = total_any()
    assert count <= LIMIT, f"src/ names Any {count} times, more than {LIMIT}: type the new value instead"


def _mentions(node: ast.AST | None, aliases: dict[str, ast.AST], seen: frozenset[str] = frozenset()) -> bool:
    """Whether the annotation ``node`` names ``Any``, directly, in a string annotation, or through a module-level
    alias of its module (followed once per name)."""
    if node is None:
        return False
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Name) and sub.id == "Any") or (isinstance(sub, ast.Attribute) and sub.attr == "Any"):
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                parsed = ast.parse(sub.value, mode="eval")
            except SyntaxError:
                continue
            if _mentions(parsed, aliases, seen):
                return True
        if (
            isinstance(sub, ast.Name)
            and sub.id in aliases
            and sub.id not in seen
            and _mentions(aliases[sub.id], aliases, seen | {sub.id})
        ):
            return True
    return False


def _aliases(tree: ast.Module) -> dict[str, ast.AST]:
    """The module's top-level ``Name = ...`` and ``Name: TypeAlias = ...`` assignments (a type alias may be any)."""
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out[node.target.id] = node.value
    return out


def _is_protocol(node: ast.ClassDef) -> bool:
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(target, ast.Name) and target.id == "Protocol":
            return True
        if isinstance(target, ast.Attribute) and target.attr == "Protocol":
            return True
    return False


def protocol_methods_with_any(path: Path) -> list[str]:
    """``module:Class.method`` for every method of a protocol in ``path`` whose annotations mention ``Any``."""
    tree = ast.parse(path.read_text())
    aliases = _aliases(tree)
    where = path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
    out = []
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef) or not _is_protocol(cls):
            continue
        for item in cls.body:
            if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            args = item.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            notes = [a.annotation for a in every if a is not None] + [item.returns]
            if any(_mentions(note, aliases) for note in notes):
                out.append(f"{where}:{cls.name}.{item.name}")
    return out


def test_the_protocol_walk_finds_any_in_a_signature() -> None:
    """The walk reads parameters, returns, string annotations and the module's aliases."""
    tree = ast.parse(
        "from typing import Any, Protocol\nData = dict[str, Any]\n"
        "class P(Protocol):\n    def a(self, x: object) -> int: ...\n    def b(self, x: Data) -> None: ...\n"
        "    def c(self) -> 'list[Any]': ...\nclass Q:\n    def d(self, x: Any) -> None: ...\n"
    )
    aliases = _aliases(tree)
    cls = tree.body[2]
    assert isinstance(cls, ast.ClassDef) and _is_protocol(cls)
    found = [
        f.name
        for f in cls.body
        if isinstance(f, ast.FunctionDef)
        and any(_mentions(n, aliases) for n in [*(a.annotation for a in f.args.args), f.returns])
    ]
    assert found == ["b", "c"]


def protocol_methods_with_any_in_src() -> list[str]:
    return [hit for path in sorted(SRC.rglob("*.py")) for hit in protocol_methods_with_any(path)]


def test_no_protocol_method_mentions_any() -> None:
    """No method of a ``Protocol`` class in ``src/`` takes or returns ``Any`` (an opaque value is ``object``, data is
    ``Json``, a protocol over one ruleset's types is generic in them)."""
    assert protocol_methods_with_any_in_src() == []
