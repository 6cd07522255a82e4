"""``docs/library.md``: its examples, read top to bottom as one module, pass ``mypy --strict`` as written and run
(from a folder holding the examples, so the log they write lands there). The user's step: copying the library
guide's code into a project that type-checks strictly."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from mypy import api

ROOT = Path(__file__).parents[1]
GUIDE = ROOT / "docs" / "library.md"


def guide_module(tmp_path: Path) -> Path:
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert len(blocks) >= 6
    module = tmp_path / "library_guide.py"
    module.write_text("\n".join(blocks))
    return module


def test_library_guide_examples_pass_mypy_strict_as_written(tmp_path: Path) -> None:
    """Every example of the guide (including building a scenario in code with ``affray.scenario_from_data`` and
    ``affray.play``'s ``Outcome``) type-checks under ``mypy --strict``."""
    module = guide_module(tmp_path)
    # the incremental cache of make lint (which checked src/ with this configuration): only the guide is new
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


def test_library_guide_examples_run(tmp_path: Path) -> None:
    """The same module runs to its end; the fight built in code ends with a label, the policy's fight too."""
    module = guide_module(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    done = subprocess.run([sys.executable, str(module)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "duel.json").is_file()
