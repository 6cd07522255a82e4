"""One layout for every ruleset (docs/architecture.md, "Adding a ruleset"): every part of a record loads through
its deferred module and reading the record imports no part."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields

import pytest

from affray.core.plugin import Deferred, Plugin, deferred, plugin

BUILTIN = ["hud", "spellchrome", "warp", "witchhammer"]
#: The record's fields that are loaders (functions of no arguments), as against its plain values.
LOADERS = ("rules", "policies", "hints", "duel", "checks", "sheet", "builder", "batch", "narrator", "adjuster")


@pytest.mark.parametrize("name", BUILTIN)
def test_every_loader_of_a_record_loads_its_part(name: str) -> None:
    """Each loader a built-in record names returns its part, so no deferred module is missing from a plugin.py's
    run-time list (mypy reads only the TYPE_CHECKING imports)."""
    record = plugin(name)
    loaded = {}
    for f in fields(Plugin):
        loader = getattr(record, f.name)
        if f.name in (*LOADERS, "sampler", "examples") and loader is not None:
            loaded[f.name] = loader()
    assert loaded["rules"].name == name
    assert {"rules", "policies", "hints", "duel", "checks", "sheet", "builder", "narrator", "adjuster"} <= set(loaded)
    assert all(part is not None for part in loaded.values())


def test_reading_the_records_imports_none_of_their_parts() -> None:
    code = (
        "import sys, affray; from affray.core.plugin import plugin;"
        "[plugin(n) for n in ('hud', 'spellchrome', 'warp', 'witchhammer')];"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.count('.') == 3 and '.rulesets.' in m))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['plugin', 'plugin', 'plugin', 'plugin']"


def test_a_deferred_module_imports_on_its_first_read_only() -> None:
    """Binding a deferred module imports nothing (a missing one is not noticed); the first read imports it."""
    missing, dice = deferred("affray.core", "no_such_module", "dice")
    assert isinstance(dice, Deferred) and repr(dice) == "<deferred module affray.core.dice>"
    from affray.core.dice import roll_die

    assert dice.roll_die is roll_die
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        missing.anything  # noqa: B018


def test_deferred_modules_need_their_package() -> None:
    with pytest.raises(ValueError, match="needs the package its modules are in"):
        deferred(None, "odds")
