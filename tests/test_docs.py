"""Documentation that must keep up with the code: every named rule option appears in its ruleset's guide
with its rule ID (DESIGN.md contract 8), and every example scenario is valid."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affray.cli.checks import check_path
from affray.core.options import describe
from affray.core.plugin import get_ruleset, ruleset_names

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize("name", ruleset_names())
def test_every_rule_option_is_documented_with_its_rule(name: str) -> None:
    guide = (ROOT / "docs" / f"{name}.md").read_text()
    for info in describe(get_ruleset(name).options_type):
        assert f"`{info.name}`" in guide, f"docs/{name}.md does not mention option {info.name}"
        assert info.rule in guide, f"docs/{name}.md does not cite {info.rule} (option {info.name})"


def test_examples_and_shipped_content_are_valid() -> None:
    for folder in (ROOT / "examples", ROOT / "src" / "affray" / "rulesets"):
        checked, problems = check_path(folder)
        assert checked > 0 and problems == []


ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".yaml", ".toml", ".cfg", ".txt", ""}


def test_no_source_or_doc_cites_an_issue_number() -> None:
    """A reader of the repository cannot look an issue number up: the source, the tests, the benches and the docs
    say what they mean instead (a rule ID, a doc section, a sentence)."""
    files = [ROOT / name for name in ("README.md", "Makefile", "pyproject.toml")]
    for folder in ("src", "tests", "bench", "docs", "examples", ".ci"):
        files += [
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts
        ]
    cited = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if ISSUE_NUMBER.search(line)
    ]
    assert cited == [], "\n".join(cited)
