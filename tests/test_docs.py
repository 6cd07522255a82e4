"""Documentation that must keep up with the code: every named rule option appears in its ruleset's guide
with its rule ID (DESIGN.md contract 8), and every example scenario is valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.cli.checks import check_path
from affray.core.engine import get_ruleset, ruleset_names
from affray.core.options import describe

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
