"""``docs/odds.md``, "From Python": its example, copied into a program as written, imports, type-checks under
``mypy --strict`` and runs, with the values its comments give. The user's step: copying the odds guide's code (its
``from affray.odds import warp, ...`` used to raise ImportError: each ruleset's odds live in its own folder)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from mypy import api

ROOT = Path(__file__).parents[2]
GUIDE = ROOT / "docs" / "odds.md"


def guide_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def test_copying_the_odds_guide_python_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example runs from the project's folder (it opens examples/hud/nerdified_duel.yaml); the save the guide
    annotates is 1/10 (SC-B1's d20 + 3 against 22 needs a natural 19 or 20), the exact duel's outcomes sum to 1."""
    monkeypatch.chdir(ROOT)
    names: dict[str, Any] = {}
    exec(compile(guide_code(), str(GUIDE), "exec"), names)  # the project's own documentation
    assert names["spellchrome"].save_odds(3, 22).p_success == Fraction(1, 10)
    assert sum(names["result"].outcomes.values()) == 1


def test_the_odds_guide_python_example_passes_mypy_strict(tmp_path: Path) -> None:
    """The same code, as a module, passes ``mypy --strict`` with the project's configuration."""
    module = tmp_path / "odds_guide.py"
    module.write_text(guide_code())
    out, err, code = api.run(
        [
            "--strict",
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            str(module),
        ]
    )
    assert code == 0, out + err
